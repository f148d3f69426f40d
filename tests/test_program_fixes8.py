"""Fixes found by the eighth batch of real-style programs (``tests/programs``), each checked
against torch: scatter_reduce takes "max" and "min" as amax and amin in its forward, and its
backward refuses them with torch's message; scatter with a reduce other than add/multiply
raises torch's message."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch


@pytest.mark.parametrize("reduce", ["max", "min"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_max_min_aliases(reduce, include_self):
    base = np.array([10.0, 2.0, 30.0, 40.0], np.float32)
    src = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], np.float32)
    outs = []
    for L in (torch, ember):
        idx = L.tensor([0, 1, 0, 1, 2, 1])
        outs.append(L.tensor(base).scatter_reduce(0, idx, L.tensor(src), reduce=reduce,
                                                  include_self=include_self).tolist())
    assert outs[0] == outs[1]


def test_scatter_reduce_max_integer_inplace():
    outs = []
    for L in (torch, ember):
        t = L.tensor([1, 5, 3])
        t.scatter_reduce_(0, L.tensor([0, 0, 1]), L.tensor([4, 2, 9]), "min", include_self=False)
        outs.append(t.tolist())
    assert outs[0] == outs[1]


@pytest.mark.parametrize("reduce", ["max", "min"])
def test_scatter_reduce_max_min_backward_refuses(reduce):
    def fn(L):
        x = L.tensor([1.0, 5.0, 3.0], requires_grad=True)
        y = x.scatter_reduce(0, L.tensor([0, 0, 1]), L.tensor([4.0, 2.0, 9.0]), reduce)
        assert type(y.grad_fn).__name__ == "ScatterReduceBackward0"
        y.sum().backward()

    errors_alike(fn)


@pytest.mark.parametrize("reduce", ["sum", "mean", "foo", "amax"])
@pytest.mark.parametrize("value", [True, False])
def test_scatter_bad_reduce_message(reduce, value):
    errors_alike(lambda L: L.zeros(3).scatter(0, L.tensor([0]), 2.0 if value else L.ones(1),
                                              reduce=reduce))


def test_scatter_reduce_unknown_mode_message():
    errors_alike(lambda L: L.zeros(3).scatter_reduce(0, L.tensor([0]), L.ones(1), "foo"))
