"""float16/bfloat16 pooling bit for bit with torch's CPU kernels.

Average pooling sums and divides in float, rounding once, in both layouts; its backward
divides each gradient in the type (``grad / divisor``) and adds it into the input's gradient
in the type, each step rounded, as the max pools' backward kernels add theirs. torch has no
half-precision ``avg_pool3d`` (nor one for integers but int64): the same NotImplementedError.
"""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch

CASES = [  # (name, input shape, call)
    ("avg1d", (2, 5, 37), lambda f, x: f.avg_pool1d(x, 3, 2, 1)),
    ("avg1d_ceil", (2, 5, 37), lambda f, x: f.avg_pool1d(x, 4, 3, 1, ceil_mode=True,
                                                        count_include_pad=False)),
    ("avg2d", (2, 19, 17, 15), lambda f, x: f.avg_pool2d(x, 3, 2, 1)),
    ("avg2d_ceil", (2, 19, 17, 15), lambda f, x: f.avg_pool2d(
        x, (3, 2), (2, 3), (1, 1), ceil_mode=True, count_include_pad=False)),
    ("avg2d_divisor", (2, 19, 17, 15), lambda f, x: f.avg_pool2d(x, 3, 2, 1,
                                                                divisor_override=5)),
    ("avg2d_big_divisor", (2, 19, 17, 15), lambda f, x: f.avg_pool2d(
        x, 3, 2, 1, divisor_override=3001)),           # not a float16 / bfloat16 integer
    ("avg2d_big_window", (1, 3, 40, 40), lambda f, x: f.avg_pool2d(
        x, 17, 3, 8, count_include_pad=False, ceil_mode=True)),  # 289: not a bfloat16
    ("avg2d_unbatched", (19, 17, 15), lambda f, x: f.avg_pool2d(x, 3, 1, 1)),
    ("max1d", (2, 5, 37), lambda f, x: f.max_pool1d(x, 3, 2, 1, ceil_mode=True)),
    ("max2d", (2, 19, 17, 15), lambda f, x: f.max_pool2d(x, 3, 2, 1)),
    ("max2d_apart", (2, 19, 17, 15), lambda f, x: f.max_pool2d(x, 2)),
    ("max2d_dilated_ceil", (2, 19, 17, 15), lambda f, x: f.max_pool2d(
        x, 3, 2, 1, dilation=2, ceil_mode=True)),
    ("max3d", (2, 5, 9, 8, 7), lambda f, x: f.max_pool3d(x, 3, 2, 1)),
    ("max3d_apart", (2, 5, 9, 8, 7), lambda f, x: f.max_pool3d(x, 2, ceil_mode=True)),
    ("adaptive_max1d", (2, 5, 37), lambda f, x: f.adaptive_max_pool1d(x, 7)),
    ("adaptive_max2d", (2, 19, 17, 15), lambda f, x: f.adaptive_max_pool2d(x, (5, 4))),
    ("adaptive_max3d", (2, 5, 9, 8, 7), lambda f, x: f.adaptive_max_pool3d(x, (3, 4, 2))),
]


def _run(lib, x, g, dtype, call, channels_last):
    t = lib.tensor(x).to(getattr(lib, dtype))
    if channels_last:
        t = t.contiguous(memory_format=lib.channels_last if x.ndim == 4
                         else lib.channels_last_3d)
    t.requires_grad_()
    y = call(lib.nn.functional, t)
    y.backward(lib.tensor(g).to(y.dtype))
    return y, t.grad


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name,shape,call", CASES, ids=[c[0] for c in CASES])
def test_half_pool_bits(name, shape, call, dtype, layout):
    if layout == "channels_last" and len(shape) < 4:
        pytest.skip("no channels-last layout below 4 dims")
    rng = np.random.default_rng(len(name))
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    out_shape = call(torch.nn.functional, torch.tensor(x)).shape
    g = rng.standard_normal(tuple(out_shape)).astype(np.float32)
    got = [_run(lib, x, g, dtype, call, layout == "channels_last") for lib in (torch, ember)]
    for t, e in zip(*got):
        assert str(t.dtype) == str(e.dtype)
        assert tuple(t.stride()) == tuple(e.stride())
        assert t.float().detach().numpy().tobytes() == e.float().detach().numpy().tobytes()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int32", "uint8", "bool",
                                   "complex64", "int64"])
@pytest.mark.parametrize("nd,channels_last", [(1, False), (2, False), (2, True), (3, False),
                                              (3, True)])
def test_avg_pool_dtype_errors(nd, channels_last, dtype):
    """The kernels' dtype coverage: torch's NotImplementedError names the kernel."""
    outs = []
    for lib in (torch, ember):
        x = lib.ones((1, 2) + (4,) * nd).to(getattr(lib, dtype))
        if channels_last:
            x = x.contiguous(memory_format=lib.channels_last if nd == 2
                             else lib.channels_last_3d)
        try:
            y = getattr(lib.nn.functional, f"avg_pool{nd}d")(x, 2)
            outs.append(("ok", str(y.dtype), y.float().numpy().tolist()))
        except NotImplementedError as err:
            outs.append(("NotImplementedError", str(err)))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("nd", [2, 3])
def test_adaptive_max_pool_channels_last_layouts(nd):
    """torch's 2-d kernel writes values and indices channels-last, its 3-d one contiguous."""
    x = np.random.default_rng(nd).standard_normal((2, 5) + (7,) * nd).astype(np.float32)
    got = []
    for lib in (torch, ember):
        t = lib.tensor(x).contiguous(
            memory_format=lib.channels_last if nd == 2 else lib.channels_last_3d)
        y, i = getattr(lib.nn.functional, f"adaptive_max_pool{nd}d")(t, (3,) * nd, True)
        got.append((y.stride(), i.stride(), y.numpy().tobytes(), i.numpy().tobytes()))
    assert got[0] == got[1]
