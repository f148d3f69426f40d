"""Every collective, point-to-point call and group on 2 and 3 real ranks against NumPy."""

import pytest

pytest.importorskip("mpi4py")

from ._launch import check_ok, run_ranks  # noqa: E402


@pytest.mark.parametrize("n", [2, 3])
def test_collectives_match_numpy(n):
    check_ok(run_ranks(n, "collectives.py", timeout=120), n)
