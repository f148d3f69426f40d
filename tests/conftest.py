"""Shared pytest set-up."""

import os

import pytest
from hypothesis import settings

# CI runs the property tests on a fixed sequence of examples, so a run's result depends on
# the code alone; HYPOTHESIS_PROFILE=explore draws new examples on every run.
settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def same_threads():
    """torch splits its reductions and kernels by the thread count ember assumes."""
    import torch

    from ember._ops import _exact

    saved = torch.get_num_threads()
    torch.set_num_threads(_exact.get_num_threads())
    yield
    torch.set_num_threads(saved)


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    """ember and torch both on 1, then 2 intra-op threads (MKL's products split by them)."""
    import torch

    import ember

    before_e, before_t = ember.get_num_threads(), torch.get_num_threads()
    ember.set_num_threads(request.param)
    torch.set_num_threads(request.param)
    yield request.param
    ember.set_num_threads(before_e)
    torch.set_num_threads(before_t)


def pytest_report_header(config):
    """The kernels torch dispatches to here decide the bits the exact tests compare."""
    from ember import _cpu
    from ember._ops import _onednn
    return [f"cpu capability: {_cpu.capability()} (oneDNN AVX512: {_onednn.avx512()})"]
