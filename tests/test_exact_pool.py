"""Pooling and resampling bit for bit against torch 2.13 CPU, forward and backward.

avg_pool (padding, ceil_mode, count_include_pad, divisor_override), max_pool's gradient
through overlapping windows, adaptive average pooling (1/2/3-d, contiguous and
channels-last: the vectorised kernel divides differently), lp_pool, and interpolate in every
mode (nearest, nearest-exact, linear, bilinear, bicubic, trilinear, area, and the
antialiased bilinear, bicubic and lanczos), including the channels-last bilinear kernel
torch picks for small outputs and channels-last inputs, on float32 and float64, odd sizes,
C = 1, 3, 4, 16, 19 and non-contiguous inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import ember, torch
from tests.test_exact_kernels import bits_equal
from tests.test_exact_norms import data, layout

pytestmark = pytest.mark.usefixtures("same_threads")

DTYPES = (np.float32, np.float64)


def check(fn, shape, dt, how="contiguous", grad_how="contiguous"):
    """``fn(lib, x)`` forward and backward (with a random gradient) equal in every bit."""
    a = data(shape, dt)
    res = []
    for lib in (torch, ember):
        x = layout(lib, a, how).requires_grad_()
        y = fn(lib, x)
        g = data(tuple(y.shape), dt, seed=1)
        y.backward(layout(lib, g, grad_how))
        res.append((y, x.grad))
    bits_equal(res[0][0], res[1][0])
    bits_equal(res[0][1], res[1][1])


def F(lib):
    return lib.nn.functional


AVG2D = [((2, 4, 8, 8), dict(kernel_size=2)),
         ((2, 4, 9, 7), dict(kernel_size=3, stride=2, padding=1)),
         ((2, 3, 9, 7), dict(kernel_size=3, stride=2, padding=1, count_include_pad=False)),
         ((1, 3, 10, 11), dict(kernel_size=(3, 2), stride=(2, 1), padding=1, ceil_mode=True)),
         ((1, 2, 10, 11), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True,
                               count_include_pad=False)),
         ((2, 3, 7, 9), dict(kernel_size=3, stride=1, padding=1, divisor_override=7)),
         ((2, 19, 6, 5), dict(kernel_size=2, stride=1))]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,kw", AVG2D)
@pytest.mark.parametrize("how", ["contiguous", "channels_last", "strided"])
def test_avg_pool2d(dt, shape, kw, how):
    check(lambda lib, x: F(lib).avg_pool2d(x, **kw), shape, dt, how)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,kw", [((1, 2, 4, 4, 6), dict(kernel_size=2)),
                                      ((1, 3, 5, 7, 6), dict(kernel_size=3, stride=2,
                                                             padding=1, ceil_mode=True)),
                                      ((2, 2, 5, 4, 5), dict(kernel_size=(2, 3, 2), stride=1,
                                                             count_include_pad=False,
                                                             padding=1))])
def test_avg_pool3d(dt, shape, kw):
    check(lambda lib, x: F(lib).avg_pool3d(x, **kw), shape, dt)


@pytest.mark.parametrize("dt", DTYPES)
def test_avg_pool1d_and_lp_pool(dt):
    check(lambda lib, x: F(lib).avg_pool1d(x, 3, 2, 1), (2, 4, 17), dt)
    check(lambda lib, x: F(lib).lp_pool2d(x, 2, 2), (2, 4, 8, 8), dt)
    check(lambda lib, x: F(lib).lp_pool2d(x, 3, 3, 2, ceil_mode=True), (2, 3, 9, 8), dt)


def test_avg_pool2d_integers_truncate():
    a = np.arange(-8, 17).reshape(1, 1, 5, 5)
    for kw in (dict(kernel_size=2, stride=1, padding=1, count_include_pad=False),
               dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, divisor_override=4)):
        bits_equal(F(torch).avg_pool2d(torch.tensor(a), **kw),
                   F(ember).avg_pool2d(ember.tensor(a), **kw))


@pytest.mark.parametrize("dt", DTYPES)
def test_unbatched_pools(dt):
    check(lambda lib, x: F(lib).avg_pool2d(x, 3, 2, 1), (3, 9, 7), dt)
    check(lambda lib, x: F(lib).adaptive_avg_pool2d(x, (4, 3)), (3, 9, 7), dt)
    check(lambda lib, x: F(lib).max_pool2d(x, 3, 2), (3, 9, 7), dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,kw", [((2, 4, 9, 7), dict(kernel_size=3, stride=2)),
                                      ((2, 3, 10, 9), dict(kernel_size=3, stride=1,
                                                           padding=1)),
                                      ((1, 2, 11, 12), dict(kernel_size=3, stride=2,
                                                            dilation=2, ceil_mode=True))])
def test_max_pool2d_backward(dt, shape, kw):
    check(lambda lib, x: F(lib).max_pool2d(x, **kw), shape, dt)


def test_max_pool2d_repeated_sizes():
    """Pools of sizes seen before (their windows and offsets are kept): values and indices
    are torch's whatever the data, ties, NaNs and padded windows whose maximum is -inf."""
    rng = np.random.default_rng(5)
    for step in range(6):
        a = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
        if step % 3 == 1:
            a[0, 1, 2:4, 2:6] = 1.5                 # ties: the first in scan order
            a[1, 2, 5, 5] = np.nan
        elif step % 3 == 2:
            a[:, :, :2, :2] = -np.inf               # a padded window whose maximum is -inf
        for kw in (dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1)):
            got, want = (F(lib).max_pool2d(lib.from_numpy(a), return_indices=True, **kw)
                         for lib in (ember, torch))
            bits_equal(want[0], got[0])
            assert np.array_equal(got[1].numpy(), want[1].numpy())


@pytest.mark.parametrize("dt", ["bfloat16", "float16"])
def test_max_pool2d_reduced_types(dt):
    """bfloat16 and float16 inputs (NaN, and padded windows whose maximum is -inf): torch's
    values, indices and gradient."""
    a = data((2, 3, 7, 7), np.float32)
    a[0, 0, :2, :2] = -np.inf
    a[1, 2, 3, 3] = np.nan
    for kw in (dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1)):
        res = []
        for lib in (torch, ember):
            x = lib.from_numpy(a.copy()).to(getattr(lib, dt)).requires_grad_()
            y, idx = F(lib).max_pool2d(x, return_indices=True, **kw)
            y.backward(lib.ones_like(y))
            assert y.dtype == x.dtype and x.grad.dtype == x.dtype
            res.append((y.float(), idx, x.grad.float()))      # (widened exactly)
        for want, got in zip(*res):
            bits_equal(want, got)


def test_max_pool_backward_of_negative_zeros():
    """torch adds each window's gradient onto +0 (-0 arrives as +0), where max_unpool stores
    its values as they are (-0 stays -0)."""
    a = data((2, 3, 6, 6), np.float32)
    res = []
    for lib in (torch, ember):
        x = lib.from_numpy(a.copy()).requires_grad_()
        y, idx = F(lib).max_pool2d(x, 2, return_indices=True)
        y.backward(lib.full(tuple(y.shape), -0.0))
        res.append((x.grad, F(lib).max_unpool2d(lib.full(tuple(y.shape), -0.0), idx, 2)))
    bits_equal(res[0][0], res[1][0])
    bits_equal(res[0][1], res[1][1])


@pytest.mark.parametrize("dt", DTYPES)
def test_max_pool3d_and_adaptive_max_backward(dt):
    check(lambda lib, x: F(lib).max_pool3d(x, 3, 1, 1), (1, 2, 5, 6, 5), dt)
    check(lambda lib, x: F(lib).adaptive_max_pool2d(x, (5, 4)), (2, 3, 9, 7), dt)


ADAPTIVE2D = [((2, 4, 9, 7), (4, 3)), ((1, 3, 10, 13), (3, 5)), ((2, 19, 9, 7), (4, 3)),
              ((2, 16, 5, 6), (7, 9)), ((2, 4, 7, 7), 1), ((1, 1, 8, 8), (None, 3)),
              ((1, 12, 9, 7), (4, 3)), ((1, 28, 6, 5), (4, 4))]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,size", ADAPTIVE2D)
@pytest.mark.parametrize("how", ["contiguous", "channels_last", "strided"])
def test_adaptive_avg_pool2d(dt, shape, size, how):
    check(lambda lib, x: F(lib).adaptive_avg_pool2d(x, size), shape, dt, how)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("c", [4, 12, 19])
def test_adaptive_avg_pool2d_channels_last_grad(dt, c):
    check(lambda lib, x: F(lib).adaptive_avg_pool2d(x, (4, 3)), (2, c, 9, 7), dt,
          "channels_last", "channels_last")


@pytest.mark.parametrize("dt", DTYPES)
def test_adaptive_avg_pool1d_3d(dt):
    check(lambda lib, x: F(lib).adaptive_avg_pool1d(x, 5), (2, 4, 17), dt)
    check(lambda lib, x: F(lib).adaptive_avg_pool1d(x, 1), (2, 4, 17), dt)
    check(lambda lib, x: F(lib).adaptive_avg_pool3d(x, (2, 3, 2)), (1, 2, 5, 7, 5), dt)
    for c in (4, 19):
        check(lambda lib, x: F(lib).adaptive_avg_pool3d(x, (3, 2, 4)), (1, c, 5, 7, 5), dt,
              "channels_last", "channels_last")


INTERP = [("nearest", (2, 4, 5, 6), dict(size=(10, 12))),
          ("nearest", (2, 4, 9, 7), dict(size=(4, 3))),
          ("nearest", (2, 3, 5), dict(scale_factor=2.3)),
          ("nearest", (1, 2, 3, 4, 5), dict(size=(5, 6, 7))),
          ("nearest-exact", (2, 4, 5, 6), dict(size=(13, 7))),
          ("nearest-exact", (1, 2, 3, 4, 5), dict(scale_factor=1.7)),
          ("area", (2, 4, 9, 7), dict(size=(4, 3))),
          ("area", (2, 3, 17), dict(size=5)),
          ("linear", (2, 3, 7), dict(size=16, align_corners=False)),
          ("linear", (2, 3, 17), dict(scale_factor=0.4, align_corners=True)),
          ("bilinear", (2, 1, 5, 6), dict(size=(10, 12), align_corners=False)),
          ("bilinear", (2, 1, 5, 6), dict(size=(70, 80), align_corners=False)),
          ("bilinear", (2, 3, 9, 7), dict(size=(70, 80), align_corners=True)),
          ("bilinear", (2, 4, 9, 7), dict(scale_factor=2.5, align_corners=False)),
          ("bilinear", (1, 16, 9, 7), dict(size=(4, 5), align_corners=True)),
          ("bilinear", (1, 19, 9, 7), dict(size=(12, 11), align_corners=False)),
          ("bilinear", (1, 12, 5, 6), dict(size=(64, 65), align_corners=False)),
          ("bicubic", (2, 3, 5, 6), dict(size=(80, 70), align_corners=False)),
          ("bicubic", (1, 2, 9, 7), dict(size=(4, 5), align_corners=True)),
          ("bicubic", (1, 2, 5, 6), dict(scale_factor=1.5)),
          ("bicubic", (2, 3, 12, 14), dict(size=(43, 45), align_corners=True)),
          ("bicubic", (1, 2, 10, 3), dict(size=(39, 76), align_corners=False)),
          ("trilinear", (1, 5, 3, 4, 5), dict(size=(5, 6, 7), align_corners=False)),
          ("trilinear", (1, 2, 5, 4, 6), dict(scale_factor=0.6, align_corners=True))]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("mode,shape,kw", INTERP)
@pytest.mark.parametrize("how", ["contiguous", "strided"])
def test_interpolate(dt, mode, shape, kw, how):
    check(lambda lib, x: F(lib).interpolate(x, mode=mode, **kw), shape, dt, how)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("c", [1, 3, 4, 5, 8, 16, 19, 28])
@pytest.mark.parametrize("how", ["contiguous", "channels_last"])
def test_bilinear_channels(dt, c, how):
    """Every split of the channels between full vectors, the half-vector and the scalar tail,
    in torch's channels-last kernel (small outputs or channels-last input) and the generic
    one (large contiguous outputs)."""
    for size in ((10, 12), (70, 80)):
        check(lambda lib, x, size=size: F(lib).interpolate(x, size=size, mode="bilinear"),
              (2, c, 5, 6), dt, how)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("c", [3, 4, 19])
def test_trilinear_channels_last(dt, c):
    check(lambda lib, x: F(lib).interpolate(x, size=(7, 3, 9), mode="trilinear"),
          (1, c, 4, 5, 6), dt, "channels_last")


def test_double_backward_names():
    x = ember.tensor(data((1, 2, 6, 5), np.float64), requires_grad=True)
    for fn, name in ((lambda t: F(ember).avg_pool2d(t, 3, 2, 1), "AvgPool2DBackward0"),
                     (lambda t: F(ember).adaptive_avg_pool2d(t, (4, 3)),
                      "AdaptiveAvgPool2DBackward0"),
                     (lambda t: F(ember).interpolate(t, size=(9, 7), mode="bilinear"),
                      "UpsampleBilinear2DBackward0")):
        y = fn(x)
        assert type(y.grad_fn).__name__ == name
        gy = ember.ones_like(y).requires_grad_()
        (g,) = ember.autograd.grad(y, x, gy, create_graph=True)
        assert type(g.grad_fn).__name__ == name.replace("Backward0", "BackwardBackward0")


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("c", [4, 16, 19])
@pytest.mark.parametrize("mode,size,shape", [("bilinear", (13, 17), (2, 5, 6)),
                                             ("trilinear", (4, 7, 9), (1, 3, 5, 6)),
                                             ("nearest", (13, 17), (2, 5, 6))])
def test_channels_last_gradients(dt, c, mode, size, shape):
    """torch's channels-last backward kernels (taken for a channels-last gradient) add in
    the same order as the planar ones."""
    full = shape[:1] + (c,) + shape[1:]
    check(lambda lib, x: F(lib).interpolate(x, size=size, mode=mode), full, dt,
          "channels_last", "channels_last")


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
@pytest.mark.parametrize("shape,size", [((2, 3, 20, 17), (7, 9)), ((1, 2, 5, 6), (11, 13)),
                                        ((1, 3, 33, 21), (50, 8)), ((2, 2, 16, 16), (16, 5)),
                                        ((2, 2, 20, 19), (38, 1)), ((1, 2, 9, 1), (4, 1))])
def test_antialias(dt, mode, shape, size):
    """Windows of 2 to 12 taps: the compiled loop fuses only the steps after its blocks;
    a width-1 output repeats its first row (torch's height pass)."""
    check(lambda lib, x: F(lib).interpolate(x, size=size, mode=mode, antialias=True), shape,
          dt)
