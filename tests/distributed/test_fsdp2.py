"""FSDP2 (``fully_shard``) on real ranks: the same printed results (losses, gradient norms,
shards and their DTensor gradients, state dicts, the module's printed form) as PyTorch's own
``fully_shard`` running the same program under torchrun with gloo, on 1, 2 and 3 ranks (3:
uneven and empty shards, and sums whose order matters)."""

import pytest

pytest.importorskip("mpi4py")

from ._launch import check_ok, run_ranks, run_torch_ranks  # noqa: E402


def _report(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("|")]


@pytest.mark.parametrize("ranks", [1, 2, 3])
def test_fully_shard_prints_what_torch_prints(ranks):
    ours = run_ranks(ranks, "fsdp2_torch.py", timeout=300, torch_program=True)
    check_ok(ours, ranks)
    theirs = run_torch_ranks(ranks, "fsdp2_torch.py", timeout=300)
    assert theirs.returncode == 0, theirs.output
    mine, ref = _report(ours.output), _report(theirs.output)
    assert ref and ref[-1] == "| done"
    assert mine == ref
