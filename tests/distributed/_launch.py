"""Start real ranks with ``python -m ember.distributed.run`` (so mpiexec), bounded by a
timeout, and make sure nothing of the job is left running afterwards."""

from __future__ import annotations

import os
import pathlib
import signal
import socket
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


def run_ranks(n: int, worker: str, *args: str, timeout: float = 60,
              torch_program: bool = False, env: dict | None = None) -> Job:
    """Run ``workers/<worker>`` on ``n`` ranks; kill the whole job if it outlives ``timeout``.
    A ``torch_program`` (one that imports torch) runs with ``import torch`` resolved to Ember;
    ``env`` adds to the environment."""
    env = dict(os.environ, **(env or {}), PYTHONPATH=os.pathsep.join(
        [SRC, *filter(None, [os.environ.get("PYTHONPATH")])]),
        OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    cmd = [sys.executable, "-m", "ember.distributed.run", "--nproc-per-node", str(n),
           *(["-m", "ember"] if torch_program else []), str(WORKERS / worker), *args]
    return _run(cmd, env, f"{worker} on {n} ranks", timeout)


def run_torch_ranks(n: int, worker: str, *args: str, timeout: float = 120) -> Job:
    """Run ``workers/<worker>`` with PyTorch itself, on ``n`` processes started by torchrun."""
    pytest.importorskip("torch")
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env.pop("PYTHONPATH", None)
    with socket.socket() as s:          # a free port for torch's rendezvous
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", str(n),
           "--master-port", str(port), str(WORKERS / worker), *args]
    return _run(cmd, env, f"{worker} on {n} torch processes", timeout)


def _run(cmd: list, env: dict, what: str, timeout: float) -> Job:
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail(f"{what} still running after {timeout} s:\n{out}")
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
