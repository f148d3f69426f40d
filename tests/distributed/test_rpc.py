"""torch.distributed.rpc, distributed autograd and DistributedOptimizer on 2 real workers (MPI
ranks), against torch's own RPC (TensorPipe) running the same program: every line the workers
print must be the same."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("mpi4py")

from ._launch import check_ok, run_ranks, run_torch_ranks  # noqa: E402


def _lines(job):
    assert job.returncode == 0, job.output
    return sorted((line for line in job.output.splitlines() if line[:2] in ("R0", "R1")),
                  key=lambda line: line[:2])      # by worker, each in its own order


@pytest.mark.parametrize("thread_level", ["multiple", "serialized"])
def test_rpc_api_autograd_and_optimizer_as_torchs(thread_level):
    """Also with MPI granting only THREAD_SERIALIZED (the agent then serialises its MPI
    calls itself)."""
    level = subprocess.run([sys.executable, "-c", "from mpi4py import MPI; "
                            "print(MPI.Query_thread() == getattr(MPI, 'THREAD_' + "
                            f"{thread_level.upper()!r}))"],
                           env=dict(os.environ, MPI4PY_RC_THREAD_LEVEL=thread_level),
                           capture_output=True, text=True).stdout
    assert level.strip() == "True"          # the level asked for is the one MPI gives
    ours = _lines(run_ranks(2, "rpc_api.py", torch_program=True,
                            env={"MPI4PY_RC_THREAD_LEVEL": thread_level}))
    theirs = _lines(run_torch_ranks(2, "rpc_api.py"))
    assert len(theirs) > 40
    assert ours == theirs


def _training_lines(job):
    assert job.returncode == 0, job.output
    return sorted(line for line in job.output.splitlines()
                  if line.startswith("R") and (" step " in line or " weights " in line))


def test_parameter_server_tutorial_trains_as_torch():
    """One trainer: the losses of 8 SGD steps and the final weights, to the last bit."""
    ours = _training_lines(run_ranks(2, "rpc_parameter_server.py", torch_program=True,
                                     timeout=120))
    theirs = _training_lines(run_torch_ranks(2, "rpc_parameter_server.py"))
    assert len(theirs) == 9
    assert ours == theirs



def test_distributed_rnn_tutorial_trains_as_torch():
    """A RemoteModule embedding table and an RRef decoder on the server, an LSTM on the
    trainer: 6 steps' losses and the final weights as torch's, and RemoteModule's errors."""
    ours = _lines(run_ranks(2, "rpc_rnn.py", torch_program=True, timeout=120))
    theirs = _lines(run_torch_ranks(2, "rpc_rnn.py"))
    assert len(theirs) == 12
    assert ours == theirs


def test_rref_values_go_with_their_last_reference():
    job = run_ranks(3, "rpc_refs.py", timeout=120)
    check_ok(job, 3)
    assert "OK references" in job.output
