"""DTensor, DeviceMesh and tensor parallelism in one process (a 1-rank mesh), against torch:
``tests/data/dtensor/one_rank.py`` prints the same under torch and under ``python -m ember``
(placements of the ops, printing, autograd, parallel styles, loss_parallel, errors). The
multi-rank checks are in ``tests/distributed/test_dtensor.py``.

Each run is an interpreter of its own: DTensor switches ``__torch_function__`` dispatch on
for its process, and MPI, once started, stays started.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("mpi4py")

HERE = pathlib.Path(__file__).resolve().parent
SCRIPT = HERE / "data" / "dtensor" / "one_rank.py"


def _run(args: list[str]) -> str:
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parent / "src"),
                                         *filter(None, [env.get("PYTHONPATH")])])
    res = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                         timeout=300, cwd=str(HERE.parent))
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


def test_one_rank_mesh_prints_what_torch_prints():
    want = _run([str(SCRIPT)])
    got = _run(["-m", "ember", str(SCRIPT)])
    assert got.splitlines() == want.splitlines()
    assert len(got.splitlines()) > 30


def test_importing_ember_distributed_leaves_dispatch_off():
    """Loading ``ember.distributed``, its device mesh and ``ember.distributed.tensor`` leaves
    dispatch off: the first DTensor made switches it on."""
    code = ("import ember.distributed, ember.distributed.device_mesh\n"
            "from ember.overrides import _S\n"
            "before = _S.active\n"
            "import ember.distributed.tensor\n"
            "print(before, _S.active)")
    assert _run(["-c", code]).split() == ["False", "False"]
