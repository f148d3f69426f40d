"""Fixes found by the fifteenth batch of real-style programs (``tests/programs``), each
checked against torch: ``torch.autograd.graph.increment_version``."""

from __future__ import annotations

import pytest

import ember

from .helpers import torch


@pytest.mark.parametrize("as_list", [False, True])
def test_increment_version_bumps_and_trips_saved_tensor_checks(as_list):
    out = []
    for L in (torch, ember):
        a = L.ones(3, requires_grad=True)
        v = a.clone()
        y = v * v
        before = v._version
        L.autograd.graph.increment_version([v] if as_list else v)
        with pytest.raises(RuntimeError) as err:
            y.sum().backward()
        out.append((before, v._version, str(err.value).split(";")[0]))
    assert out[0] == out[1]


def test_increment_version_leaves_inference_tensors_alone():
    for L in (torch, ember):
        with L.inference_mode():
            t = L.ones(2)
        L.autograd.graph.increment_version(t)      # no version counter: nothing to bump
        assert t.is_inference()
