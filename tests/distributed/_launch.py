"""Start real ranks with ``python -m ember.distributed.run`` (so mpiexec), bounded by a
timeout, and make sure nothing of the job is left running afterwards."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

import pytest

pytest.importorskip("mpi4py")

import ember  # noqa: E402
from ember.distributed.run import _find_mpiexec  # noqa: E402

WORKERS = pathlib.Path(__file__).with_name("workers")
SRC = str(pathlib.Path(ember.__file__).resolve().parent.parent)

try:
    _find_mpiexec()
except SystemExit:
    pytest.skip("no mpiexec (pip install mpich)", allow_module_level=True)


@dataclass
class Job:
    returncode: int
    output: str
    seconds: float


def run_ranks(n: int, worker: str, *args: str, timeout: float = 60) -> Job:
    """Run ``workers/<worker>`` on ``n`` ranks; kill the whole job if it outlives ``timeout``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [SRC, *filter(None, [os.environ.get("PYTHONPATH")])]),
        OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    cmd = [sys.executable, "-m", "ember.distributed.run", "--nproc-per-node", str(n),
           str(WORKERS / worker), *args]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail(f"{worker} on {n} ranks still running after {timeout} s:\n{out}")
    finally:
        _assert_nothing_left(proc.pid)
    return Job(proc.returncode, out, time.monotonic() - start)


def _assert_nothing_left(pgid: int) -> None:
    """Every process of the job's session (mpiexec, its proxies, the ranks) has ended."""
    deadline = time.monotonic() + 10
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        if time.monotonic() > deadline:
            os.killpg(pgid, signal.SIGKILL)
            pytest.fail("processes of the job were still running after it ended")
        time.sleep(0.05)


def check_ok(job: Job, n: int) -> None:
    assert job.returncode == 0, job.output
    for r in range(n):
        assert f"OK rank {r}" in job.output, job.output
