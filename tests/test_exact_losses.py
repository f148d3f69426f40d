"""Loss functions bit for bit against torch 2.13 CPU: values and input gradients, every
reduction, weights, N-d and strided inputs, inputs large enough for torch to split them
between threads."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ember, torch
from tests.test_exact_kernels import bits_equal

pytestmark = pytest.mark.usefixtures("same_threads")

DTYPES = (np.float32, np.float64)
REDUCTIONS = ("mean", "sum", "none")
SHAPES = ((37, 29), (5,), (2, 3, 4, 5), (300, 200))


def _normal(rng, shape, dt, scale=2.0):
    return (rng.standard_normal(shape) * scale).astype(dt)


def _probs(rng, shape, dt):
    return (1 / (1 + np.exp(-rng.standard_normal(shape) * 3))).astype(dt)


def _check(name, arrays, strided=False, grad_of=(0,), named=(), **kw):
    """``F.name`` on ``arrays`` (the last ones passed by the keywords ``named``) in both
    libraries: the loss and the gradients of the inputs in ``grad_of`` have torch's bits."""
    got = []
    for lib in (torch, ember):
        ts = [lib.tensor(a, requires_grad=i in grad_of) for i, a in enumerate(arrays)]
        args = [t.t() if strided and t.ndim == 2 else t for t in ts]
        k = len(args) - len(named)
        out = getattr(lib.nn.functional, name)(*args[:k], **dict(zip(named, args[k:])), **kw)
        (out.sum() if out.ndim else out).backward()
        got.append([out] + [ts[i].grad for i in grad_of])
    for t, e in zip(*got):
        bits_equal(t, e)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name, kw", [
    ("mse_loss", {}), ("l1_loss", {}), ("smooth_l1_loss", {}),
    ("smooth_l1_loss", {"beta": 0.1}), ("huber_loss", {}), ("huber_loss", {"delta": 0.3})])
def test_regression_losses(name, kw, shape, reduction, dt):
    rng = np.random.default_rng(0)
    _check(name, [_normal(rng, shape, dt), _normal(rng, shape, dt)], grad_of=(0, 1),
           reduction=reduction, **kw)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", ["mse_loss", "smooth_l1_loss", "huber_loss", "l1_loss"])
def test_regression_losses_strided(name, dt):
    """Transposed inputs: torch's backward kernels run one by one throughout."""
    rng = np.random.default_rng(1)
    for reduction in REDUCTIONS:
        _check(name, [_normal(rng, (40, 33), dt), _normal(rng, (40, 33), dt)], strided=True,
               grad_of=(0, 1), reduction=reduction)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", SHAPES)
def test_binary_cross_entropy(shape, reduction, dt):
    rng = np.random.default_rng(2)
    x = _probs(rng, shape, dt)
    x.reshape(-1)[:4] = [0, 1, 1e-30, 1 - 1e-7]
    _check("binary_cross_entropy", [x, rng.random(shape).astype(dt)], reduction=reduction)
    w = rng.random(shape[-1:]).astype(dt)
    _check("binary_cross_entropy", [x, rng.random(shape).astype(dt), w],
           reduction=reduction)


def test_binary_cross_entropy_strided_and_nan():
    rng = np.random.default_rng(3)
    x = _probs(rng, (30, 20), np.float32)
    _check("binary_cross_entropy", [x, rng.random((30, 20)).astype(np.float32)],
           strided=True)
    for lib in (torch, ember):
        with pytest.raises(RuntimeError, match="between 0 and 1"):
            lib.nn.functional.binary_cross_entropy(lib.tensor([0.5, float("nan")]),
                                                   lib.tensor([1.0, 0.0]))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", SHAPES)
def test_bce_with_logits_float32(shape, reduction):
    """``(1 - t) * x - log_sigmoid(x)`` with Sleef's expf and log1pf, torch's sigmoid in
    backward; weights and pos_weight."""
    rng = np.random.default_rng(4)
    dt = np.float32
    x = _normal(rng, shape, dt, 6.0)
    x.reshape(-1)[:5] = [0, -0.0, 90, -90, 1e-30]
    t = rng.random(shape).astype(dt)
    _check("binary_cross_entropy_with_logits", [x, t], reduction=reduction)
    w, pw = rng.random(shape[-1:]).astype(dt), (rng.random(shape[-1:]) * 3).astype(dt)
    _check("binary_cross_entropy_with_logits", [x, t, w], named=("weight",),
           reduction=reduction)
    _check("binary_cross_entropy_with_logits", [x, t, pw], named=("pos_weight",),
           reduction=reduction)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("reduction", ("mean", "sum", "none", "batchmean"))
def test_kl_div(reduction, dt):
    rng = np.random.default_rng(5)
    p = rng.dirichlet(np.ones(13), 41)
    p[0, :3] = 0
    logq = np.log(rng.dirichlet(np.ones(13), 41))
    with pytest.warns(UserWarning) if reduction == "mean" else _nothing():
        _check("kl_div", [logq.astype(dt), p.astype(dt)], reduction=reduction)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 70), m=st.integers(1, 40), seed=st.integers(0, 2 ** 16),
       reduction=st.sampled_from(REDUCTIONS), dt=st.sampled_from(DTYPES))
def test_losses_any_shape(n, m, seed, reduction, dt):
    """Any row count and width: the vector/one-by-one split and the cascade's blocks move."""
    rng = np.random.default_rng(seed)
    a, b = _normal(rng, (n, m), dt), _normal(rng, (n, m), dt)
    for name in ("mse_loss", "smooth_l1_loss", "huber_loss"):
        _check(name, [a, b], grad_of=(0, 1), reduction=reduction)
    _check("binary_cross_entropy", [_probs(rng, (n, m), dt), rng.random((n, m)).astype(dt)],
           reduction=reduction)
    if dt == np.float32:
        _check("binary_cross_entropy_with_logits", [a * 3, rng.random((n, m)).astype(dt)],
               reduction=reduction)


def test_training_loop_items():
    """The ``.item()`` a training loop prints: the same float in both libraries."""
    rng = np.random.default_rng(6)
    x = _normal(rng, (64, 10), np.float32)
    y = rng.random((64, 10)).astype(np.float32)
    got = []
    for lib in (torch, ember):
        F = lib.nn.functional
        xt, yt = lib.tensor(x), lib.tensor(y)
        got.append([F.mse_loss(xt, yt).item(), F.l1_loss(xt, yt).item(),
                    F.smooth_l1_loss(xt, yt).item(), F.huber_loss(xt, yt).item(),
                    F.binary_cross_entropy(xt.sigmoid(), yt).item(),
                    F.binary_cross_entropy_with_logits(xt, yt).item()])
    assert got[0] == got[1]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("reduction", ("mean", "sum"))
@pytest.mark.parametrize("n, ignore", [(1, -100), (17, -100), (128, -100), (128, 3),
                                       (128, 20), (5000, -100)])
def test_cross_entropy_class_targets(n, ignore, reduction, dt):
    """cross_entropy on class indices (nll_loss's fast path when nothing is ignored or
    weighted): the loss, the input's gradient and the graph's nodes are torch's."""
    rng = np.random.default_rng(n)
    x, t = _normal(rng, (n, 10), dt), rng.integers(0, 10, n)
    _check("cross_entropy", [x, t], ignore_index=ignore, reduction=reduction)
    e = ember.nn.functional.cross_entropy(ember.tensor(x, requires_grad=True),
                                          ember.tensor(t), reduction=reduction)
    assert e.grad_fn.name() == "NllLossBackward0"
    assert e.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"


@pytest.mark.parametrize("dt", ("float32", "float64", "float16", "bfloat16"))
def test_relu_keeps_signed_zero(dt):
    vals = [-0.0, 0.0, -1.0, float("nan"), 2.0, -3.5] * 7
    got = [lib.relu(lib.tensor(vals).to(getattr(lib, dt))).float().numpy()
           for lib in (torch, ember)]
    num = ~np.isnan(got[0])             # (a nan's sign is not part of the result)
    assert np.array_equal(np.signbit(got[0])[num], np.signbit(got[1])[num])
    assert np.array_equal(got[0], got[1], equal_nan=True)
