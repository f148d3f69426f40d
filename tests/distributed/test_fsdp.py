"""FullyShardedDataParallel, distributed.checkpoint and activation checkpointing on real
ranks: the same losses and full state dict as one process on the whole batch (2 and 3
ranks, the latter padding every flat parameter), and the same printed results as PyTorch's
own FSDP running the same program under torchrun."""

import pytest

pytest.importorskip("mpi4py")

from ._launch import check_ok, run_ranks, run_torch_ranks  # noqa: E402


@pytest.mark.parametrize("ranks", [2, 3])
def test_fsdp_matches_single_process(ranks):
    check_ok(run_ranks(ranks, "fsdp.py", timeout=300), ranks)


def _report(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("|")]


def test_fsdp_prints_what_torch_prints():
    ours = run_ranks(2, "fsdp_torch.py", timeout=300, torch_program=True)
    check_ok(ours, 2)
    theirs = run_torch_ranks(2, "fsdp_torch.py", timeout=300)
    assert theirs.returncode == 0, theirs.output
    mine, ref = _report(ours.output), _report(theirs.output)
    assert ref and ref[-1] == "| done"
    assert mine == ref
