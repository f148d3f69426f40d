"""DistributedDataParallel on 2 real ranks: the same parameters as one process on the whole
batch (an MLP and a small CNN, 20 steps), overlap, no_sync, find_unused_parameters,
broadcast_buffers, and torch's errors."""

import pytest

pytest.importorskip("mpi4py")

from ._launch import check_ok, run_ranks  # noqa: E402


def test_ddp_matches_single_process():
    check_ok(run_ranks(2, "ddp.py", timeout=120), 2)
