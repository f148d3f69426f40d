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


# A test that makes an instance of a Tensor subclass with a __torch_function__ of its own
# (a DTensor, a CausalBias, a subclass defined in the test) switches dispatch on for the rest
# of the process, which changes what later tests see (warning sites, `torch.conv1d is
# F.conv1d`). Such tests carry the `dispatch_on` mark and run after all others.
def pytest_configure(config):
    config.addinivalue_line("markers", "dispatch_on: the test switches __torch_function__ "
                                       "dispatch on for the process (run last)")


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.get_closest_marker("dispatch_on") is not None)


@pytest.fixture(autouse=True)
def _dispatch_left_as_found(request):
    from ember.overrides import _S
    before = _S.active
    yield
    if _S.active and not before and request.node.get_closest_marker("dispatch_on") is None:
        pytest.fail("the test switched __torch_function__ dispatch on for the rest of the "
                    "process: give it the dispatch_on mark", pytrace=False)
