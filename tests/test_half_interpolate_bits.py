"""float16/bfloat16 ``F.interpolate`` and adaptive average pooling, bit for bit with torch.

torch's reduced-type kernels: the generic upsampling kernel stores its lambdas (cubic
coefficients) in the tensor's dtype and sums in float, rounding once; the channels-last
linear kernel keeps float lambdas (float16's scalar channels fuse from the second product);
every backward scatters into a float buffer rounded once. Adaptive average pooling sums and
divides in float in 2-d, in the type itself (each step rounded) in 3-d and in every
backward."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch

CASES = [  # (mode, spatial dims, (N, C), input size, keyword)
    ("nearest", 1, (2, 3), 7, dict(size=(11,))),
    ("nearest", 2, (2, 5), 7, dict(size=(11, 4))),
    ("nearest", 3, (1, 5), 5, dict(scale_factor=1.7)),
    ("nearest-exact", 2, (2, 3), 6, dict(scale_factor=2.0)),
    ("linear", 1, (2, 5), 7, dict(size=(11,))),
    ("linear", 1, (2, 3), 6, dict(scale_factor=1.7)),
    ("bilinear", 2, (2, 3), 6, dict(scale_factor=1.7)),
    ("bilinear", 2, (2, 5), 7, dict(size=(11, 9))),
    ("bilinear", 2, (1, 19), 9, dict(size=(4, 6))),
    ("bilinear", 2, (1, 40), 5, dict(scale_factor=2.0)),
    ("bilinear", 2, (1, 3), 40, dict(size=(70, 65))),       # the generic kernel (H + W > 128)
    ("bicubic", 2, (2, 5), 7, dict(size=(11, 11))),
    ("bicubic", 2, (1, 8), 9, dict(size=(4, 5))),
    ("trilinear", 3, (2, 5), 6, dict(scale_factor=1.7)),
    ("trilinear", 3, (1, 37), 4, dict(size=(5, 3, 6))),
    ("area", 1, (2, 5), 9, dict(size=(4,))),
    ("area", 2, (2, 5), 7, dict(size=(11, 3))),
    ("area", 2, (1, 37), 9, dict(size=(4, 4))),
    ("area", 3, (2, 3), 7, dict(size=(3, 5, 4))),
    ("area", 3, (1, 8), 9, dict(size=(4, 4, 4))),
]


def _run(lib, x, g, dtype, mode, nd, channels_last, align_corners, kw):
    t = lib.tensor(x).to(getattr(lib, dtype))
    if channels_last:
        t = t.contiguous(memory_format=lib.channels_last if nd == 2 else lib.channels_last_3d)
    t.requires_grad_()
    y = lib.nn.functional.interpolate(t, mode=mode, align_corners=align_corners, **kw)
    y.backward(lib.tensor(g).to(y.dtype))
    return y, t.grad


def _bits(t):
    return t.detach().float().numpy().tobytes(), tuple(t.stride())


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("mode,nd,nc,n_in,kw", CASES)
def test_half_interpolate_bits(mode, nd, nc, n_in, kw, dtype, align_corners, layout, threads):
    if layout == "channels_last" and nd == 1:
        pytest.skip("no channels-last layout for 3-d input")
    if align_corners and mode in ("nearest", "nearest-exact", "area"):
        pytest.skip("align_corners is for the interpolating modes")
    if threads == 2 and mode != "bilinear":
        pytest.skip("only bilinear's kernel choice depends on the thread count")
    rng = np.random.default_rng(nd * 1000 + n_in * 10 + nc[1])
    x = rng.standard_normal(nc + (n_in,) * nd).astype(np.float32)
    out_shape = torch.nn.functional.interpolate(
        torch.zeros(x.shape), mode=mode, align_corners=align_corners or None, **kw).shape
    g = rng.standard_normal(tuple(out_shape)).astype(np.float32)
    got = [_run(lib, x, g, dtype, mode, nd, layout == "channels_last",
                align_corners if mode not in ("nearest", "nearest-exact", "area") else None,
                kw) for lib in (torch, ember)]
    for t, e in zip(*got):
        assert str(t.dtype) == str(e.dtype)
        assert _bits(t) == _bits(e)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("channels", [3, 16, 40])
def test_half_bilinear_channels_last_vector_and_tail_bits(dtype, channels):
    """The channels-last kernel's full vectors, half vector and scalar channels."""
    rng = np.random.default_rng(channels)
    x = rng.standard_normal((2, channels, 5, 6)).astype(np.float32) * 3
    outs = []
    for lib in (torch, ember):
        t = lib.tensor(x).to(getattr(lib, dtype)).contiguous(memory_format=lib.channels_last)
        outs.append(lib.nn.functional.interpolate(t, size=(13, 7), mode="bilinear"))
    assert _bits(outs[0]) == _bits(outs[1])
