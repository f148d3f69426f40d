"""DeviceMesh, DTensor and tensor parallelism on real ranks.

``workers/dtensor.py`` runs under PyTorch (torchrun, gloo) and under Ember (mpiexec) and
both print the same lines: layouts, redistribution, the ops' placements, autograd through
the layouts, and Megatron-style blocks trained on 2 ranks against the same blocks trained
unsharded (same losses, same full weights). ``workers/dtensor_mesh.py`` covers a 2-d mesh
on 4 ranks.
"""

import re

import pytest

pytest.importorskip("mpi4py")

from ._launch import check_ok, run_ranks, run_torch_ranks  # noqa: E402

# the gradients' placements where Ember's differ from torch's (the values agree): a
# parameter's gradient takes the parameter's placements (Partial made Replicate), where torch
# leaves a SequenceParallel norm's partial and gives a row-wise embedding a replicated one
_GRADS_EMBER = {
    "norm.bias=(Partial(sum),)": "norm.bias=(Replicate(),)",
    "norm.weight=(Partial(sum),)": "norm.weight=(Replicate(),)",
    "emb.weight=(Replicate(),)": "emb.weight=(Shard(dim=0),)",
}


def _lines(job) -> list[str]:
    return [line for line in job.output.splitlines() if re.match(r"\[\d\] ", line)]


def _as_ember(line: str) -> str:
    if " grads " in line:
        for theirs, ours in _GRADS_EMBER.items():
            line = line.replace(theirs, ours)
    return line


def test_dtensor_prints_what_torch_prints():
    ours = run_ranks(2, "dtensor.py", torch_program=True, timeout=120)
    check_ok(ours, 2)
    theirs = run_torch_ranks(2, "dtensor.py")
    assert theirs.returncode == 0, theirs.output
    want = [_as_ember(line) for line in _lines(theirs)]
    got = _lines(ours)
    assert len(got) == len(want) > 90
    for a, b in zip(got, want):
        assert a == b
    assert sum("weights match True" in line for line in got) == 10


def test_two_dim_mesh():
    check_ok(run_ranks(4, "dtensor_mesh.py", timeout=120), 4)
