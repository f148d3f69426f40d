"""AccumulateGrad takes a gradient nobody else holds as ``.grad`` without a copy (as torch
does), copies every other one, and mm/addmm lay their gradients out like their inputs."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from .helpers import check, ember, torch


def _shares(a, b) -> bool:
    return np.shares_memory(a.grad._data if hasattr(a, "grad") else a._data, b)


def _leaves(*shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [ember.tensor(rng.standard_normal(s), requires_grad=True) for s in shapes]


def test_one_gradient_sent_to_two_leaves_is_copied_for_one():
    a, b = _leaves((3,), (3,))
    ((a + b) * 2.0).sum().backward()         # one fresh gradient, passed on to both
    assert not np.shares_memory(a.grad._data, b.grad._data)
    a.grad.add_(1.0)
    assert b.grad.tolist() == [2.0, 2.0, 2.0]


def test_a_view_of_a_gradient_is_not_taken_while_another_leaf_owns_the_rest():
    x, z = _leaves((2, 2), (4,))
    (x.view(4) + z).mul(2.0).sum().backward()   # z's gradient, and x's a view of it
    assert not np.shares_memory(x.grad._data, z.grad._data)
    x.grad.zero_()
    assert z.grad.tolist() == [2.0] * 4


def test_the_callers_gradient_is_never_taken():
    x, = _leaves((3,))
    g = ember.ones(3, dtype=ember.float64)
    (x * 1.0).backward(g)
    assert not np.shares_memory(x.grad._data, g._data)
    y, = _leaves((3,))
    y.backward(g)                      # a leaf as the root: the caller's tensor itself
    assert not np.shares_memory(y.grad._data, g._data)
    y.grad.add_(1.0)
    assert g.tolist() == [1.0, 1.0, 1.0]


def test_a_gradient_kept_by_a_hook_or_retain_grad_is_copied():
    x, = _leaves((3,))
    kept = []
    x.register_hook(lambda g: kept.append(g))
    (x * 3.0).sum().backward()
    assert not np.shares_memory(x.grad._data, kept[0]._data)
    v, = _leaves((3,))
    v.register_hook(lambda g: g * 1.0)       # a hook's fresh result is taken
    (v * 3.0).sum().backward()
    w, = _leaves((3,))
    h = w * 1.0
    h.retain_grad()
    (h * 1.0).sum().backward()
    assert not np.shares_memory(w.grad._data, h.grad._data)


class _Keep(ember.autograd.Function):
    kept = None
    fresh = None

    @staticmethod
    def forward(ctx, x):
        return x * 1.0

    @staticmethod
    def backward(ctx, g):
        out = g * 2.0
        if _Keep.kept is not None:
            _Keep.kept.append(out)
        else:
            _Keep.fresh = weakref.ref(out._data)
        return out


def test_a_gradient_a_function_keeps_is_copied_and_a_fresh_one_is_taken():
    x, = _leaves((3,))
    _Keep.kept = []
    _Keep.apply(x).sum().backward()
    assert not np.shares_memory(x.grad._data, _Keep.kept[0]._data)
    y, = _leaves((3,))
    _Keep.kept = None
    _Keep.apply(y).sum().backward()
    gc.collect()
    assert _Keep.fresh() is y.grad._data      # taken as is: no copy


def test_taken_gradients_accumulate_in_place_on_the_next_backward():
    lin = ember.nn.Linear(4, 3)
    x = ember.ones(2, 4)
    lin(x).sum().backward()
    first = lin.weight.grad
    lin(x).sum().backward()
    assert lin.weight.grad is first
    assert np.allclose(first._data, 4.0)


@pytest.mark.parametrize("t1,t2", [(False, False), (True, False), (False, True), (True, True)])
def test_mm_gradients_take_the_layout_of_their_inputs(t1, t2):
    """torch's mm_mat1/mat2_backward: a column-major input gets a column-major gradient."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((5, 4) if t1 else (4, 5)).astype(np.float32)
    b = rng.standard_normal((3, 5) if t2 else (5, 3)).astype(np.float32)
    for L in (torch, ember):
        A = L.tensor(a, requires_grad=True)
        B = L.tensor(b, requires_grad=True)
        m1, m2 = (A.t() if t1 else A), (B.t() if t2 else B)
        m1.mm(m2).pow(2).sum().backward()
        for leaf in (A, B):
            leaf.strides = tuple(leaf.grad.stride())
        if L is torch:
            want = (A.strides, B.strides, A.grad.numpy(), B.grad.numpy())
    assert (A.strides, B.strides) == want[:2]
    np.testing.assert_allclose(A.grad.numpy(), want[2], rtol=1e-5)
    np.testing.assert_allclose(B.grad.numpy(), want[3], rtol=1e-5)


def test_linear_weight_gradient_is_contiguous_and_its_double_backward_graph_is_torchs():
    check(lambda L, x, w, b: L.autograd.grad(L.nn.functional.linear(x, w, b).pow(2).sum(),
                                             (w, x), create_graph=True),
          np.ones((4, 5)), np.full((3, 5), 0.5), np.zeros(3))
    check(lambda L, x, w, b: L.addmm(b, x.t(), w, alpha=2.0, beta=0.5),
          np.ones((5, 4)), np.full((5, 3), 0.5), np.zeros(3))


def test_a_view_of_a_gradient_another_leaf_shares_is_copied():
    a, b = _leaves((3, 2), (2, 3))
    ((a.t() + b) * 2.0).sum().backward()     # one gradient: b's, and a's through a transpose
    assert not np.shares_memory(a.grad._data, b.grad._data)
    a.grad.zero_()
    assert b.grad.tolist() == [[2.0] * 3] * 2
    c, d = _leaves((2, 3), (3, 2))
    ((d.t() * 1.0) + c).mul(2.0).sum().backward()
    assert not np.shares_memory(c.grad._data, d.grad._data)


def test_a_linear_layers_gradients_are_taken_without_a_copy():
    """The weight's gradient is the transpose of a fresh product and the bias's a reshape of
    a fresh sum: both are kept as they are (their arrays are views of those results)."""
    lin = ember.nn.Linear(5, 3)
    lin(ember.ones(4, 5)).pow(2).sum().backward()
    assert lin.weight.grad._data.base is not None and lin.weight.grad._base is None
    assert lin.bias.grad._data.base is not None and lin.bias.grad._base is None
    assert lin.weight.grad.is_contiguous()


def test_a_view_of_the_callers_gradient_is_copied():
    a, = _leaves((2, 3))
    g = ember.ones(6, dtype=ember.float64)
    a.view(6).backward(g)                    # a's gradient is g.view(2, 3): a view of g
    assert not np.shares_memory(a.grad._data, g._data)
    kept = []
    b, = _leaves((2, 3))
    h = b * 2.0
    h.register_hook(lambda grad: kept.append(grad))
    (h.view(6) * 1.0).sum().backward()
    c, = _leaves((6,))
    r = c * 1.0
    r.register_hook(lambda grad: kept.append(grad))
    r.view(2, 3).mul(2.0).sum().backward()   # c's gradient is a view of what the hook keeps
    assert not np.shares_memory(c.grad._data, kept[-1]._data)
