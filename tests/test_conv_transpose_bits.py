"""float32 transposed convolutions that torch hands to oneDNN's deconvolution give torch's
bits: at stride 1 the forward is the backward-data kernel of the convolution it transposes,
the input gradient that convolution's forward and the weight gradient its backward-weights
kernel (the roles of input and gradient swapped); the bias gradient of 4 or more channels
is one chain of adds per channel over image and position. The strided forward is
oneDNN's strided backward-data kernel (tests/test_conv_strided_bits.py).

Not yet reproduced (compared within round-off): the bias gradient of 1 to 3 channels (a
vectorised sum)."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _gemm, _onednn, _onednn_conv

from .helpers import torch

pytestmark = pytest.mark.skipif(
    not (_gemm.available(np.float32) and _onednn.avx512() and _onednn_conv._panel()),
    reason="needs MKL's runtime and an AVX512 CPU (oneDNN's jit:avx512_core)")

# (input, weight, keyword arguments, exact forward, exact bias gradient)
CASES = [
    ((8, 16, 10, 10), (16, 8, 3, 3), {"padding": 1}, True, True),
    ((4, 32, 7, 7), (32, 16, 3, 3), {}, True, True),
    ((16, 8, 12, 12), (8, 4, 5, 5), {"padding": 2}, True, True),
    ((4, 100, 1, 1), (100, 32, 4, 4), {}, True, True),          # a DCGAN generator's first
    ((64, 16, 8, 8), (16, 3, 3, 3), {"padding": 1}, True, False),  # to RGB
    ((8, 24, 30), (24, 12, 5), {"padding": 2}, True, True),    # 1-d
    ((2, 64, 4, 4), (64, 32, 4, 4), {"stride": 2, "padding": 1}, True, True),
    ((4, 8, 7, 7), (8, 4, 2, 2), {"stride": 2}, True, True),
]


def _run(lib, x, w, b, kw):
    f = lib.nn.functional.conv_transpose1d if x.ndim == 3 else \
        lib.nn.functional.conv_transpose2d
    xt, wt, bt = (lib.from_numpy(a).requires_grad_() for a in (x, w, b))
    y = f(xt, wt, bt, **kw)
    y.backward(lib.from_numpy(np.cos(np.arange(y.numel(), dtype=np.float32)).reshape(
        tuple(y.shape)) * np.float32(1.37)))
    return [a.detach().numpy() for a in (y, xt.grad, wt.grad, bt.grad)]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_transposed_convolution_is_torchs_bits(case, threads):
    xs, ws, kw, exact_forward, exact_bias = CASES[case]
    rng = np.random.default_rng(case)
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(ws).astype(np.float32)
    b = rng.standard_normal(ws[1]).astype(np.float32)
    got, want = _run(ember, x, w, b, kw), _run(torch, x, w, b, kw)
    for name, g, t, exact in zip(("output", "input grad", "weight grad", "bias grad"),
                                 got, want, (exact_forward, True, True, exact_bias)):
        assert g.shape == t.shape, name
        if exact:
            assert np.array_equal(g.view(np.uint32), t.view(np.uint32)), \
                f"{name}: {(g != t).sum()} of {t.size} differ"
        else:
            np.testing.assert_allclose(g, t, rtol=1e-5, atol=1e-5, err_msg=name)


def test_output_padding_and_small_inputs_take_the_general_path():
    """Output padding (here with a dilation at stride 1) and inputs ATen keeps off oneDNN
    (one small sample) are not the deconvolution's kernel."""
    x = np.zeros((1, 4, 5, 5), np.float32)
    w = np.zeros((4, 4, 3, 3), np.float32)
    one = (1, 1)
    assert not _onednn_conv.direct_transposed(x, w, (1, 4, 7, 7), one, (0, 0), one, (0, 0),
                                              1, 2)
    x8 = np.zeros((8, 4, 5, 5), np.float32)
    assert _onednn_conv.direct_transposed(x8, w, (8, 4, 7, 7), one, (0, 0), one, (0, 0),
                                          1, 2)
    assert not _onednn_conv.direct_transposed(x8, w, (8, 4, 10, 10), one, (0, 0), (2, 2),
                                              (1, 1), 1, 2)
