"""Double backward through softmax, log_softmax and the NLL losses has torch's graph: the
backward of each is an op of its own (``_softmax_backward_data``, ``nll_loss_backward``)."""

from __future__ import annotations

import numpy as np
import pytest

from ..helpers import check


def _names(g):
    return g, g.grad_fn.name(), tuple(
        None if n is None else n.name() for n, _ in g.grad_fn.next_functions)


X = np.random.default_rng(0).standard_normal((4, 5))
T = np.array([0, 3, 1, 4])


@pytest.mark.parametrize("fn", [
    lambda L, x: x.log_softmax(1).pow(2).sum(),
    lambda L, x: x.softmax(0).pow(2).sum(),
    lambda L, x: L.nn.functional.cross_entropy(x, L.tensor(T)),
    lambda L, x: L.nn.functional.nll_loss(x, L.tensor(T), reduction="sum"),
    lambda L, x: L.nn.functional.cross_entropy(x, L.tensor(T), weight=L.arange(1.0, 6.0,
                                                                              dtype=x.dtype)),
])
def test_double_backward_graph_is_torchs(fn):
    check(lambda L, x: _names(L.autograd.grad(fn(L, x), x, create_graph=True)[0]), X)


@pytest.mark.parametrize("fn", [
    lambda L, x: L.nn.functional.cross_entropy(x, L.tensor(T)).mul(3.0),
    lambda L, x: (x.softmax(1) * x).sum(),
    lambda L, x: L.nn.functional.cross_entropy(x, L.tensor([0, -100, 1, 4]), ignore_index=-100),
])
def test_second_derivatives_match(fn):
    def hvp(L, x):
        g, = L.autograd.grad(fn(L, x), x, create_graph=True)
        h, = L.autograd.grad((g * g).sum(), x)
        return g.detach(), h
    check(hvp, X, grad=False)
