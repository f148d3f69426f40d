"""Normalisation and softmax kernels bit for bit against torch 2.13 CPU.

batch norm (training statistics, running stats, output and gradients), layer norm and
group norm (RowwiseMoments' cascade), and float32 softmax along every dim, on contiguous,
channels-last, transposed and strided inputs of sizes that cross the vector width, the
16-vector chunks of the moments and the split between threads.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import ember, torch
from tests.test_exact_kernels import bits_equal

pytestmark = pytest.mark.usefixtures("same_threads")

DTYPES = (np.float32, np.float64)


def data(shape, dt, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 2 + 0.5).astype(dt)


def layout(lib, a, how):
    """``a`` as a tensor of ``lib`` laid out ``how``."""
    t = lib.tensor(a)
    if how == "channels_last":
        fmt = lib.channels_last if a.ndim == 4 else lib.channels_last_3d
        return t.contiguous(memory_format=fmt)
    if how == "strided":
        return lib.tensor(np.repeat(a, 2, axis=-1))[..., ::2]
    if how == "transposed":
        return lib.tensor(np.ascontiguousarray(np.swapaxes(a, 0, -1))).transpose(0, -1)
    return t


BN_CASES = [((8, 16, 9, 9), "contiguous"), ((8, 16, 9, 9), "channels_last"),
            ((4, 3, 5, 7), "strided"), ((4, 3, 5, 7), "transposed"), ((2, 5, 33), "contiguous"),
            ((64, 20), "contiguous"), ((3, 7), "contiguous"), ((64, 20), "strided"),
            ((2, 4, 3, 2, 4), "contiguous"), ((4, 3, 2, 3), "channels_last"),
            # one channel: contiguous and channels-last at once, torch takes the contiguous
            # kernels (as for (N, C, 1, 1), its channels-last ones)
            ((2, 1, 37, 3), "contiguous"), ((1, 1, 100, 3), "contiguous"),
            ((5, 3, 1, 1), "contiguous")]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,how", BN_CASES)
def test_batch_norm_training(dt, shape, how):
    a = data(shape, dt)
    c = shape[1]
    rng = np.random.default_rng(1)
    w, b = rng.standard_normal(c).astype(dt), rng.standard_normal(c).astype(dt)
    rm, rv = rng.standard_normal(c).astype(dt), rng.uniform(0.5, 2, c).astype(dt)
    g = data(shape, dt, seed=2)
    res = []
    for lib in (torch, ember):
        x = layout(lib, a, how).requires_grad_()
        wt, bt = lib.tensor(w, requires_grad=True), lib.tensor(b, requires_grad=True)
        rmt, rvt = lib.tensor(rm), lib.tensor(rv)
        out = lib.nn.functional.batch_norm(x, rmt, rvt, wt, bt, True, 0.1, 1e-5)
        out.backward(layout(lib, g, how if how != "transposed" else "contiguous"))
        res.append((out, rmt, rvt, x.grad, wt.grad, bt.grad))
        assert out.grad_fn.name() == "NativeBatchNormBackward0"
    for t, e in zip(*res):
        if dt == np.float64 and how == "contiguous" and len(shape) > 2:
            # torch's double variance over an NCHW plane is a few ulps off a sequential
            # sum now and then (its order is not reproduced yet)
            np.testing.assert_allclose(t.detach().numpy(), e.detach().numpy(), rtol=1e-13,
                                       atol=1e-13)
        else:
            bits_equal(t, e)


@pytest.mark.parametrize("shape", [(2, 5), (2, 3, 1, 1), (3, 17), (4, 6, 1)])
def test_batch_norm_few_rows_one_chain(shape, threads):
    """As many rows (N·H·W with one element per channel) as threads or fewer: torch adds
    them on one thread, the variance one fused chain ((2, C) on two threads too)."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        a = (rng.standard_normal(shape) * 3).astype(np.float32)
        outs = [lib.nn.functional.batch_norm(lib.tensor(a), None, None, training=True)
                for lib in (torch, ember)]
        bits_equal(*outs)


@pytest.mark.parametrize("dt", DTYPES)
def test_batch_norm_module_sum_backward_and_eval(dt):
    a = data((6, 4, 5, 5), dt)
    res = []
    for lib in (torch, ember):
        m = lib.nn.BatchNorm2d(4).to(getattr(lib, np.dtype(dt).name))
        with lib.no_grad():
            m.weight.copy_(lib.tensor(np.linspace(0.5, 2, 4).astype(dt)))
        x = lib.tensor(a, requires_grad=True)
        out = m(x)
        out.sum().backward()
        m.eval()
        res.append((out, m.running_mean, m.running_var, x.grad, m.weight.grad, m(x)))
    for t, e in zip(*res):
        bits_equal(t, e)


LN_SHAPES = [(5, 7), (4, 100), (6, 129), (2, 1000), (3, 5000), (50, 643), (2, 3, 40),
             (20, 901), (7, 2112)]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", LN_SHAPES)
def test_layer_norm(dt, shape):
    a = data(shape, dt)
    n = shape[-1]
    rng = np.random.default_rng(3)
    w, b = rng.standard_normal(n).astype(dt), rng.standard_normal(n).astype(dt)
    outs = []
    for lib in (torch, ember):
        f = lib.nn.functional.layer_norm
        x = lib.tensor(a)
        outs.append((f(x, (n,), lib.tensor(w), lib.tensor(b)), f(x, (n,)),
                     f(x, (n,), lib.tensor(w)), f(x.transpose(0, -1), (shape[0],))))
    for t, e in zip(*outs):
        bits_equal(t, e)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,groups", [((4, 6, 5, 7), 3), ((2, 8, 33), 4),
                                          ((3, 4, 16, 16), 2), ((5, 6), 3),
                                          ((2, 32, 9, 9), 8)])
def test_group_norm(dt, shape, groups):
    a = data(shape, dt)
    c = shape[1]
    rng = np.random.default_rng(4)
    w, b = rng.standard_normal(c).astype(dt), rng.standard_normal(c).astype(dt)
    outs = []
    for lib in (torch, ember):
        f = lib.nn.functional.group_norm
        x = lib.tensor(a)
        outs.append((f(x, groups, lib.tensor(w), lib.tensor(b)), f(x, groups),
                     f(x, groups, lib.tensor(w))))
    for t, e in zip(*outs):
        bits_equal(t, e)


@pytest.mark.parametrize("dt,n", [(np.float32, 379), (np.float32, 803), (np.float64, 381),
                                  (np.float64, 378), (np.float64, 1157)])
def test_moments_merge_a_partial_chunk_as_torch_does(dt, n):
    # rows whose last 16-vector chunk is partial: AddMomentsVec's counts are no powers of
    # two, so how its products round shows (m2 += (m0·δ)·(c·δ), fused)
    a = np.random.default_rng(n).standard_normal((400, n)).astype(dt)
    outs = []
    for lib in (torch, ember):
        x = lib.tensor(a)
        outs.append((lib.nn.functional.layer_norm(x, (n,)),
                     lib.nn.functional.group_norm(x.reshape(40, 10 * n), 2)))
    for t, e in zip(*outs):
        bits_equal(t, e)


SOFTMAX_CASES = [((10, 7), 1), ((30, 100), 1), ((5, 1000), 1), ((100, 37), 0),
                 ((4, 10, 9), 1), ((3, 20, 40), 1), ((1000, 100), 0), ((8, 10), 0),
                 ((64, 3, 32, 32), 1), ((2, 9, 33), 1), ((1, 1000, 3), 1), ((5, 3), 0)]


@pytest.mark.parametrize("shape,dim", SOFTMAX_CASES)
def test_softmax_float32(shape, dim):
    rng = np.random.default_rng(5)
    a = (rng.standard_normal(shape) * 3).astype(np.float32)
    outs = []
    for lib in (torch, ember):
        x = lib.tensor(a)
        outs.append((lib.softmax(x, dim), lib.softmax(x.transpose(0, -1), dim)))
    for t, e in zip(*outs):
        bits_equal(t, e)


@pytest.mark.parametrize("n", [80016, 7, 33 * 17, 100003])
def test_gelu_float32_contiguous(n):
    rng = np.random.default_rng(6)
    a = (rng.standard_normal(n) * 3).astype(np.float32)
    a[:6] = [0.0, -0.0, -10.0, 5.5, -5.5, np.inf]
    t = torch.nn.functional.gelu(torch.tensor(a))
    e = ember.nn.functional.gelu(ember.tensor(a))
    bits_equal(t, e)
    # a strided input runs one by one on glibc's erff, which is not emulated
    t, e = (lib.nn.functional.gelu(lib.tensor(a)[::2]) for lib in (torch, ember))
    np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=2e-6, atol=1e-7)
    assert np.signbit(t.numpy()[:3]).tolist() == np.signbit(e.numpy()[:3]).tolist()


@pytest.mark.parametrize("name", ["sinh", "cosh"])
def test_sinh_cosh_overflow_like_torch(name):
    a = np.random.default_rng(7).uniform(-100, 100, 40003).astype(np.float32)
    for view in (lambda t: t, lambda t: t[::2]):
        t = view(getattr(torch, name)(torch.tensor(a))).numpy()
        e = view(getattr(ember, name)(ember.tensor(a))).numpy()
        assert np.array_equal(np.isinf(t), np.isinf(e))
        np.testing.assert_allclose(t[np.isfinite(t)], e[np.isfinite(t)], rtol=3e-7)


@pytest.mark.parametrize("shape", [(10, 7), (30, 100), (5, 1000), (200, 3), (7, 33), (4, 5, 17)])
def test_log_softmax_and_cross_entropy_float32_lastdim(shape):
    rng = np.random.default_rng(8)
    a = (rng.standard_normal(shape) * 3).astype(np.float32)
    outs = []
    for lib in (torch, ember):
        x = lib.tensor(a)
        outs.append((lib.log_softmax(x, -1), lib.log_softmax(x.transpose(0, -1), -1)))
    for t, e in zip(*outs):
        bits_equal(t, e)
