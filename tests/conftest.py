"""Shared pytest set-up."""

import pytest


@pytest.fixture
def same_threads():
    """torch splits its reductions and kernels by the thread count ember assumes."""
    import torch

    from ember._ops import _exact

    saved = torch.get_num_threads()
    torch.set_num_threads(_exact.get_num_threads())
    yield
    torch.set_num_threads(saved)
