"""Every collective, point-to-point call and group on 2 and 3 real ranks against NumPy, and
sums over 3 ranks against PyTorch's gloo, bit for bit."""

import pytest

pytest.importorskip("mpi4py")

from ._launch import check_ok, run_ranks, run_torch_ranks  # noqa: E402


@pytest.mark.parametrize("n", [2, 3])
def test_collectives_match_numpy(n):
    check_ok(run_ranks(n, "collectives.py", timeout=120), n)


def test_sums_over_three_ranks_in_gloos_order():
    ours = run_ranks(3, "reduce_order_torch.py", timeout=120, torch_program=True)
    check_ok(ours, 3)
    theirs = run_torch_ranks(3, "reduce_order_torch.py", timeout=120)
    assert theirs.returncode == 0, theirs.output
    mine = [line for line in ours.output.splitlines() if line.startswith("|")]
    ref = [line for line in theirs.output.splitlines() if line.startswith("|")]
    assert ref and ref[-1] == "| done"
    assert mine == ref
