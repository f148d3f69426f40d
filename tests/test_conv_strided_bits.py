"""The input gradient of a strided float32 convolution, which torch hands to oneDNN's
``brgconv_strided`` backward-data kernel, gives torch's bits (and so does a strided
transposed convolution's forward, that kernel under ``brg_deconv``): per input element
FMA chains over all the output channels of each kernel tap that reaches it, one chain a
call of the kernel, the calls' sums added in order; 1-d and 2-d, on 1 and 2 threads."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _gemm, _onednn, _onednn_conv

from .helpers import torch
from .test_onednn_conv_bits import _args, _input_grad, _same_bits

pytestmark = pytest.mark.skipif(
    not (_gemm.available(np.float32) and _onednn.avx512() and _onednn_conv._panel()),
    reason="needs MKL's runtime and an AVX512 CPU (oneDNN's brgconv_strided)")

# (input, weight, keyword arguments): widths the stride divides (the columns' calls split
# at the padding) and widths it does not (one call a phase, over a padded copy)
CASES = [
    ((8, 3, 64, 64), (64, 3, 4, 4), {"stride": 2, "padding": 1}),      # DCGAN discriminator
    ((8, 64, 32, 32), (128, 64, 4, 4), {"stride": 2, "padding": 1}),
    ((4, 128, 16, 16), (256, 128, 4, 4), {"stride": 2, "padding": 1}),  # a 1024-term chain
    ((2, 32, 8, 8), (32, 32, 3, 3), {"stride": 2, "padding": 1}),
    ((2, 16, 10, 10), (64, 16, 3, 3), {"stride": 2}),
    ((2, 16, 9, 9), (16, 16, 3, 3), {"stride": 2, "padding": 1}),       # odd sizes
    ((4, 24, 13, 12), (48, 24, 5, 5), {"stride": 2, "padding": 2}),
    ((2, 3, 11, 11), (16, 3, 5, 5), {"stride": 2, "padding": 2}),
    ((3, 8, 17, 16), (32, 8, 3, 3), {"stride": 3, "padding": 2}),
    ((2, 48, 12, 14), (40, 48, 4, 4), {"stride": 3}),                   # channel tails
    ((2, 16, 12, 12), (8, 16, 7, 7), {"stride": 3, "padding": 3}),
    ((2, 20, 10, 10), (3, 20, 3, 3), {"stride": 2, "padding": 3}),      # padding >= kernel
    ((4, 64, 9, 7), (256, 64, 1, 1), {"stride": 2}),                    # 1x1
    ((2, 16, 9, 9), (16, 16, 3, 3), {"padding": (2, 1), "stride": (1, 2)}),
    ((2, 16, 12, 13), (16, 16, 3, 3), {"padding": 1, "stride": (3, 2)}),
    ((4, 3, 64, 64), (64, 3, 7, 7), {"stride": 2, "padding": 3}),
    ((2, 1, 12, 12), (1, 1, 3, 3), {"stride": 2, "padding": 1}),
    ((4, 16, 100), (32, 16, 5), {"stride": 2, "padding": 2}),           # 1-d
    ((3, 64, 26), (64, 64, 5), {"stride": 3, "padding": 2}),
    ((2, 20, 127), (3, 20, 4), {"stride": 2, "padding": 3}),
    ((2, 16, 301), (32, 16, 5), {"stride": 2, "padding": 2}),         # a wide odd row
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_strided_input_grad_is_torchs_bits(case, threads):
    xs, ws, kw = CASES[case]
    stride, padding, dilation = _args(xs, kw)
    out = tuple((s + 2 * p - k) // t + 1 for s, k, t, p in zip(xs[2:], ws[2:], stride,
                                                                padding))
    grad = np.zeros((xs[0], ws[0]) + out, np.float32)
    assert _onednn_conv.direct_backward_data_strided(grad, xs, np.zeros(ws, np.float32),
                                                     stride, padding, dilation, 1, threads)
    rng = np.random.default_rng(case)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal(ws) / np.sqrt(np.prod(ws[1:]))).astype(np.float32)
    _same_bits(_input_grad(ember, x, w, kw), _input_grad(torch, x, w, kw))


# (input, weight, keyword arguments) of strided transposed convolutions
TRANSPOSED = [
    ((4, 100, 4, 4), (100, 64, 4, 4), {"stride": 2, "padding": 1}),    # DCGAN generator
    ((4, 64, 16, 16), (64, 3, 4, 4), {"stride": 2, "padding": 1}),     # to RGB
    ((2, 32, 7, 7), (32, 16, 3, 3), {"stride": 2, "padding": 1, "output_padding": 1}),
    ((2, 16, 9, 9), (16, 8, 5, 5), {"stride": 3, "padding": 2}),
    ((2, 32, 20), (32, 16, 4), {"stride": 2, "padding": 1}),           # 1-d
]


@pytest.mark.parametrize("case", range(len(TRANSPOSED)))
def test_strided_transposed_forward_is_torchs_bits(case, threads):
    xs, ws, kw = TRANSPOSED[case]
    rng = np.random.default_rng(case)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal(ws) / np.sqrt(np.prod(ws[1:]))).astype(np.float32)
    b = rng.standard_normal(ws[1]).astype(np.float32)
    stride, padding, dilation = _args(xs, kw)
    sizes = tuple((s - 1) * t - 2 * p + k + kw.get("output_padding", 0)
                  for s, t, p, k in zip(xs[2:], stride, padding, ws[2:]))
    assert _onednn_conv.strided_transposed(x, w, (xs[0], ws[1]) + sizes, stride, padding,
                                           dilation, 1, threads)

    def run(lib):
        f = lib.nn.functional.conv_transpose1d if x.ndim == 3 else \
            lib.nn.functional.conv_transpose2d
        return f(*(lib.from_numpy(a) for a in (x, w, b)), **kw).numpy()

    got, want = run(ember), run(torch)
    _same_bits(got, want)


def test_strided_gate_declines_other_kernels():
    """Groups and dilations take other kernels; where the stride divides the width, oneDNN
    may cut a row wider than 108 or whose images do not share out evenly between the
    threads in blocks (not followed); stride 1 is the direct kernel's."""
    w = np.zeros((16, 16, 3), np.float32)

    def takes(xs, stride, dilation=(1,), groups=1, threads=1, ws=w):
        out = (xs[2] + 2 - ws.shape[2] - (dilation[0] - 1) * 2) // stride[0] + 1
        g = np.zeros((xs[0], ws.shape[0], out), np.float32)
        return _onednn_conv.direct_backward_data_strided(g, xs, ws, stride, (1,), dilation,
                                                         groups, threads)

    assert takes((2, 16, 100), (2,))
    assert not takes((2, 16, 100), (1,))
    assert not takes((2, 16, 100), (2,), dilation=(2,))
    assert not takes((2, 32, 100), (2,), groups=2)
    assert not takes((2, 16, 220), (2,))            # a wide row: may be cut in blocks
    assert takes((2, 16, 221), (2,))                # a width the stride does not divide
    assert not takes((5, 16, 80), (2,), threads=2)
    assert takes((4, 16, 80), (2,), threads=2)
    assert takes((5, 16, 81), (2,), threads=2)
    # a shape oneDNN leaves to jit:avx512_core for its speed
    g = np.zeros((2, 128, 7, 7), np.float32)
    ws = np.zeros((128, 64, 4, 4), np.float32)
    assert not _onednn_conv.direct_backward_data_strided(g, (2, 64, 14, 14), ws, (2, 2),
                                                         (1, 1), (1, 1), 1, 1)
    assert _onednn_conv.direct_backward_data_strided(g, (2, 32, 14, 14), ws[:, :32],
                                                     (2, 2), (1, 1), (1, 1), 1, 1)


def test_uneven_images_fall_back_within_round_off(threads):
    """The gate's declined case (five images on two threads) still gives the gradient."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 32, 80)).astype(np.float32)
    w = (rng.standard_normal((64, 32, 5)) / 13).astype(np.float32)
    kw = {"stride": 2, "padding": 2}
    np.testing.assert_allclose(_input_grad(ember, x, w, kw), _input_grad(torch, x, w, kw),
                               rtol=1e-5, atol=1e-5)
