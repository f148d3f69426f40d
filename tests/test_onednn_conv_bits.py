"""float32 convolutions that torch hands to oneDNN's direct AVX512 kernel
(``jit:avx512_core``: one group, a kernel larger than 1x1, a batch or a large input) give
torch's bits: per output an FMA chain over each block of 16 input channels (all of them
below 16) in the order kernel row, kernel column, channel, the blocks' sums added after the
bias; 1-d convolutions as 2-d ones, on 1 and 2 threads."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _gemm, _onednn, _onednn_conv

from .helpers import torch

pytestmark = pytest.mark.skipif(
    not (_gemm.available(np.float32) and _onednn.avx512() and _onednn_conv._panel()),
    reason="needs MKL's runtime and an AVX512 CPU (oneDNN's jit:avx512_core)")

# (input, weight, keyword arguments)
FORWARD = [
    ((64, 1, 28, 28), (32, 1, 3, 3), {}),                       # MNIST, first layer
    ((16, 32, 26, 26), (64, 32, 3, 3), {}),                     # MNIST, second layer
    ((8, 3, 32, 32), (16, 3, 3, 3), {"padding": 1}),
    ((8, 16, 32, 32), (16, 16, 5, 5), {"stride": 2}),          # 400 taps: past MKL's panel
    ((8, 16, 16, 16), (16, 16, 3, 3), {"dilation": 2}),
    ((4, 48, 10, 10), (32, 48, 3, 3), {"padding": 1}),
    ((8, 24, 20, 20), (40, 24, 3, 3), {}),                      # channel tails
    ((8, 32, 20, 20), (48, 32, 5, 5), {"padding": 2}),
    ((4, 3, 64, 64), (64, 3, 7, 7), {"stride": 2, "padding": 3}),
    ((4, 3, 64, 64), (16, 3, 11, 11), {"stride": 4, "padding": 2}),
    ((8, 1, 20, 20), (6, 1, 5, 5), {}),                         # LeNet
    ((8, 6, 12, 12), (16, 6, 5, 5), {}),
    # input gradients of 400 taps into 3 and 10 channels: chains carried 4 and 12 wide
    ((4, 3, 12, 12), (16, 3, 5, 5), {"padding": 1}),
    ((4, 10, 12, 12), (16, 10, 5, 5), {}),
    ((2, 20, 3, 3), (7, 20, 3, 3), {"padding": 1}),             # fewer than 16 positions
    ((40, 1, 33, 51), (4, 1, 3, 3), {"padding": 1}),
    ((32, 8, 14, 14), (16, 8, 3, 3), {"padding": 1}),
    ((4, 64, 12, 12), (32, 64, 7, 7), {"padding": 3}),          # 784 taps
    ((2, 16, 9, 9), (16, 16, 3, 3), {"padding": (2, 1), "stride": (1, 2)}),
    ((1, 8, 60, 60), (8, 8, 3, 3), {"padding": 1}),             # one large sample
    # more than fits in cache: the images go a few at a time, the weight gradient's panels
    # a piece at a time (here in two groups of 64 output channels)
    ((4, 8, 30, 30), (128, 8, 3, 3), {"padding": 1}),
    ((8, 16, 100), (32, 16, 5), {}),                            # 1-d
    ((8, 16, 100), (32, 16, 5), {"padding": 2, "stride": 3, "dilation": 2}),
]


def _conv(lib, x, w, b, kw):
    f = lib.nn.functional.conv1d if x.ndim == 3 else lib.nn.functional.conv2d
    t = [None if a is None else lib.from_numpy(a) for a in (x, w, b)]
    return f(*t, **kw).numpy()


def _input_grad(lib, x, w, kw):
    """The input's gradient of ``conv(x, w, **kw)`` under a fixed cosine output gradient."""
    f = lib.nn.functional.conv1d if x.ndim == 3 else lib.nn.functional.conv2d
    xt = lib.from_numpy(x).requires_grad_()
    y = f(xt, lib.from_numpy(w), **kw)
    y.backward(lib.from_numpy(np.cos(np.arange(y.numel(), dtype=np.float32)).reshape(
        tuple(y.shape))))
    return xt.grad.numpy()


def _same_bits(got, want):
    assert got.shape == want.shape
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), \
        f"{(got != want).sum()} of {want.size} differ"


@pytest.mark.parametrize("case", range(len(FORWARD)))
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_forward_is_torchs_bits(case, bias, threads):
    xs, ws, kw = FORWARD[case]
    for seed in range(2):
        rng = np.random.default_rng(seed)
        x = rng.standard_normal(xs).astype(np.float32)
        w = (rng.standard_normal(ws) / np.sqrt(np.prod(ws[1:]))).astype(np.float32)
        b = rng.standard_normal(ws[0]).astype(np.float32) if bias else None
        want = _conv(torch, x, w, b, kw)
        got = _conv(ember, x, w, b, kw)
        _same_bits(got, want)


UNSTRIDED = [i for i, (_, _, kw) in enumerate(FORWARD)
             if np.all(np.asarray(kw.get("stride", 1)) == 1)]


@pytest.mark.parametrize("case", UNSTRIDED)
def test_input_grad_is_torchs_bits(case, threads):
    """The input's gradient: oneDNN's backward-data kernel at stride 1 (the same chains,
    the output channels as the blocks, the kernel's rows and columns ascending)."""
    xs, ws, kw = FORWARD[case]
    rng = np.random.default_rng(case)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal(ws) / np.sqrt(np.prod(ws[1:]))).astype(np.float32)
    _same_bits(_input_grad(ember, x, w, kw), _input_grad(torch, x, w, kw))


def _args(xs, kw):
    nd = len(xs) - 2

    def tup(v):
        return (v,) * nd if isinstance(v, int) else tuple(v)

    return tup(kw.get("stride", 1)), tup(kw.get("padding", 0)), tup(kw.get("dilation", 1))


# oneDNN's backward-weights kernels take a padding of at most half the kernel (AVX512's
# below 4 or from 16 input channels, jit:avx2's in between)
WEIGHTS = [i for i, (xs, ws, kw) in enumerate(FORWARD)
           if _onednn_conv.direct_backward_weights(np.zeros(xs, np.float32), ws,
                                                   *_args(xs, kw), 1, 2)]


@pytest.mark.parametrize("case", WEIGHTS)
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_weight_and_bias_grads_are_torchs_bits(case, bias, threads):
    """Weight and bias gradients: oneDNN's backward-weights kernel, one FMA chain (adds for
    the bias) per thread over its images or image rows, the threads' sums added."""
    xs, ws, kw = FORWARD[case]
    rng = np.random.default_rng(case + 100)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal(ws) / np.sqrt(np.prod(ws[1:]))).astype(np.float32)
    b = rng.standard_normal(ws[0]).astype(np.float32)
    grads = []
    for lib in (torch, ember):
        f = lib.nn.functional.conv1d if x.ndim == 3 else lib.nn.functional.conv2d
        wt = lib.from_numpy(w).requires_grad_()
        bt = lib.from_numpy(b).requires_grad_() if bias else None
        y = f(lib.from_numpy(x), wt, bt, **kw)
        y.backward(lib.from_numpy(np.sin(np.arange(y.numel(), dtype=np.float32)).reshape(
            tuple(y.shape))))
        grads.append([wt.grad.numpy()] + ([bt.grad.numpy()] if bias else []))
    for want, got in zip(*grads):
        _same_bits(got, want)


# 1x1 kernels: oneDNN's jit_1x1, blocks of 80, 256 or 512 input channels by the output's
# height (fewer where the input would alias in cache), the first block's chain from the bias
ONE_BY_ONE = [
    ((16, 128, 14, 14), 64, 1), ((16, 256, 7, 7), 128, 1), ((16, 384, 14, 14), 96, 1),
    ((16, 96, 28, 28), 32, 1), ((16, 256, 14, 14), 512, 2), ((16, 64, 56, 56), 64, 1),
    ((16, 24, 9, 9), 40, 1), ((32, 64, 8, 8), 256, 1), ((4, 64, 14, 14), 128, 2),
    ((8, 16, 16, 16), 32, 1), ((2, 1024, 7, 7), 64, 1), ((4, 3, 20, 20), 8, 1),
    ((16, 32, 50), 48, 1),
]


@pytest.mark.parametrize("case", range(len(ONE_BY_ONE)))
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_1x1_forward_is_torchs_bits(case, bias, threads):
    xs, o, stride = ONE_BY_ONE[case]
    rng = np.random.default_rng(case)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal((o, xs[1]) + (1,) * (len(xs) - 2)) / np.sqrt(xs[1])).astype(
        np.float32)
    b = rng.standard_normal(o).astype(np.float32) if bias else None
    want = _conv(torch, x, w, b, {"stride": stride})
    got = _conv(ember, x, w, b, {"stride": stride})
    _same_bits(got, want)


@pytest.mark.parametrize("case", [i for i, c in enumerate(ONE_BY_ONE) if c[2] == 1])
def test_1x1_input_grad_is_torchs_bits(case, threads):
    """1x1 input gradients at stride 1: jit_1x1's backward-data, the same blocked chains
    over the output channels."""
    xs, o, _ = ONE_BY_ONE[case]
    rng = np.random.default_rng(case + 50)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal((o, xs[1]) + (1,) * (len(xs) - 2)) / np.sqrt(xs[1])).astype(
        np.float32)
    _same_bits(_input_grad(ember, x, w, {}), _input_grad(torch, x, w, {}))


# groups on the direct kernel: per group, blocks of 16, 8 or 4 channels (the largest that
# divides both of a group's channel counts)
GROUPED = [
    ((8, 32, 16, 16), 32, 3, 4, {"padding": 1}), ((8, 16, 8, 8), 16, 3, 4, {"stride": 2}),
    ((8, 64, 12, 12), 64, 3, 2, {"padding": 1}), ((8, 32, 12, 12), 64, 3, 2, {}),
    ((4, 48, 10, 10), 48, 3, 3, {"padding": 1}), ((4, 24, 10, 10), 24, 3, 2, {"padding": 1}),
    ((4, 32, 40), 32, 5, 2, {"padding": 2}),
]


@pytest.mark.parametrize("case", range(len(GROUPED)))
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_grouped_forward_is_torchs_bits(case, bias, threads):
    xs, o, k, g, kw = GROUPED[case]
    rng = np.random.default_rng(case)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal((o, xs[1] // g) + (k,) * (len(xs) - 2)) / k).astype(np.float32)
    b = rng.standard_normal(o).astype(np.float32) if bias else None
    want = _conv(torch, x, w, b, dict(kw, groups=g))
    got = _conv(ember, x, w, b, dict(kw, groups=g))
    _same_bits(got, want)


@pytest.mark.parametrize("case", [i for i, c in enumerate(GROUPED) if "stride" not in c[4]])
def test_grouped_input_grad_is_torchs_bits(case, threads):
    xs, o, k, g, kw = GROUPED[case]
    rng = np.random.default_rng(case + 7)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal((o, xs[1] // g) + (k,) * (len(xs) - 2)) / k).astype(np.float32)
    kw = dict(kw, groups=g)
    _same_bits(_input_grad(ember, x, w, kw), _input_grad(torch, x, w, kw))


# depthwise: oneDNN's jit_dw, each output's chain from the bias over its channel's taps
DEPTHWISE = [
    ((8, 32, 16, 16), 3, {"padding": 1}), ((8, 64, 14, 14), 3, {"stride": 2, "padding": 1}),
    ((4, 16, 20, 20), 5, {"padding": 2}), ((8, 96, 7, 7), 3, {"padding": 1}),
    ((2, 48, 9, 9), 7, {"padding": 3}), ((16, 2, 8, 8), 3, {"padding": 1}),
    ((1, 32, 16, 16), 3, {"padding": 1, "dilation": 2}), ((4, 24, 30), 5, {"padding": 2}),
]


@pytest.mark.parametrize("case", range(len(DEPTHWISE)))
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_depthwise_forward_is_torchs_bits(case, bias, threads):
    xs, k, kw = DEPTHWISE[case]
    c = xs[1]
    rng = np.random.default_rng(case)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal((c, 1) + (k,) * (len(xs) - 2)) / k).astype(np.float32)
    b = rng.standard_normal(c).astype(np.float32) if bias else None
    want = _conv(torch, x, w, b, dict(kw, groups=c))
    got = _conv(ember, x, w, b, dict(kw, groups=c))
    _same_bits(got, want)


def test_forward_takes_onednns_path():
    """The cases above run the oneDNN kernel (not the general products, which would differ
    in the last bits only by chance)."""
    for xs, ws, kw in FORWARD:
        x, w = np.zeros(xs, np.float32), np.zeros(ws, np.float32)
        assert _onednn_conv.direct_forward(x, w, *_args(xs, kw), 1, 2)
    assert len(WEIGHTS) >= 18


def test_forward_declines_other_kernels():
    """1x1 kernels and depthwise convolutions (their own kernels below), groups with no
    common channel block (oneDNN's gemm kernel), channels-last data (brgemm) and ATen's
    own small cases are not the direct kernel's."""
    x = np.zeros((8, 16, 10, 10), np.float32)
    one = (1, 1)
    assert not _onednn_conv.direct_forward(x, np.zeros((8, 16, 1, 1), np.float32), one,
                                           (0, 0), one, 1, 2)
    assert not _onednn_conv.direct_forward(x, np.zeros((6, 8, 3, 3), np.float32), one,
                                           (0, 0), one, 2, 2)
    cl = np.zeros((8, 10, 10, 16), np.float32).transpose(0, 3, 1, 2)
    assert not _onednn_conv.direct_forward(cl, np.zeros((8, 16, 3, 3), np.float32), one,
                                           (0, 0), one, 1, 2)
    small = np.zeros((1, 3, 8, 8), np.float32)
    assert not _onednn_conv.direct_forward(small, np.zeros((4, 3, 3, 3), np.float32), one,
                                           (0, 0), one, 1, 2)


def test_nonfinite_long_chains_fall_back():
    """An infinite running sum cannot re-enter MKL's next panel: the general path then."""
    x = np.ones((2, 16, 8, 8), np.float32)
    x[0, 0, 3, 3] = np.inf
    w = np.ones((16, 16, 5, 5), np.float32)
    assert _onednn_conv.forward(x, w, None, (1, 1), (0, 0), (1, 1)) is None
    got = _conv(ember, x, w, None, {})
    want = _conv(torch, x, w, None, {})
    assert np.array_equal(np.isinf(got), np.isinf(want))


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_nonfinite_weight_gradient_falls_back(bad):
    """One value that is not finite spoils the carried sums of the weight gradient's chains;
    the result check sends the whole gradient to the general path, whose infinities and NaNs
    sit where torch's do."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 3, 12, 12)).astype(np.float32)
    x[1, 2, 5, 6] = bad
    w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    g = np.ones((4, 8, 12, 12), np.float32)
    assert _onednn_conv.backward_weights(x, g, w.shape, (1, 1), (1, 1), (1, 1), 2) is None
    grads = []
    for lib in (torch, ember):
        wt = lib.from_numpy(w).requires_grad_()
        lib.nn.functional.conv2d(lib.from_numpy(x), wt, padding=1).backward(lib.from_numpy(g))
        grads.append(wt.grad.numpy())
    got, want = grads[1], grads[0]
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(np.isinf(got), np.isinf(want))


def test_weight_gradient_panels_kept_between_calls():
    """The weight gradient's panel buffers are kept for the next gradient of the same sizes:
    one spoilt by a NaN, then others of those sizes and of sizes between them, all give
    torch's bits (nothing of an earlier call is read)."""
    rng = np.random.default_rng(8)
    w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    shapes = [(4, 3, 12, 12), (4, 3, 12, 12), (2, 3, 9, 9), (4, 3, 12, 12), (2, 3, 9, 9)]
    for i, xs in enumerate(shapes):
        x = rng.standard_normal(xs).astype(np.float32)
        g = rng.standard_normal((xs[0], 8) + xs[2:]).astype(np.float32)
        if i == 0:
            g[1, 2, 5, 6] = np.nan
            assert _onednn_conv.backward_weights(x, g, w.shape, (1, 1), (1, 1), (1, 1),
                                                 1) is None
            continue
        grads = []
        for lib in (torch, ember):
            wt = lib.from_numpy(w).requires_grad_()
            lib.nn.functional.conv2d(lib.from_numpy(x), wt, padding=1).backward(
                lib.from_numpy(g))
            grads.append(wt.grad.numpy())
        _same_bits(grads[1], grads[0])


@pytest.mark.parametrize("xs,ws", [
    ((32, 1, 28, 28), (8, 1, 3, 3)),                 # a small CNN's layers: a few pieces
    ((32, 8, 14, 14), (16, 8, 3, 3)),
    ((4, 8, 30, 30), (128, 8, 3, 3)),                # two groups of 64 channels
    ((3, 5, 7, 9), (20, 5, 3, 3)),                   # one piece, a short last panel
])
def test_weight_gradient_batched_panels_are_the_calls_bits(xs, ws, threads, monkeypatch):
    """The weight gradient's panel calls go as one strided batch of MKL products, each
    reading the sums the one before wrote: the batch gives the bits of the calls made one
    by one, and torch's (on 2 threads, each thread's share a batch of its own)."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal(xs).astype(np.float32)
    g = rng.standard_normal((xs[0], ws[0]) + xs[2:]).astype(np.float32)
    args = (ws, (1, 1), (1, 1), (1, 1), threads)
    if _onednn_conv._sgemm()[4] is None:
        pytest.skip("this MKL has no cblas_sgemm_batch_strided")
    batched = _onednn_conv.backward_weights(x, g, *args)
    assert any(_onednn_conv._BATCH_OK.values())
    with monkeypatch.context() as m:
        m.setattr(_onednn_conv, "_SGEMM", _onednn_conv._sgemm()[:4] + [None])
        one_by_one = _onednn_conv.backward_weights(x, g, *args)
    _same_bits(batched, one_by_one)
    wt = torch.from_numpy(np.zeros(ws, np.float32)).requires_grad_()
    torch.nn.functional.conv2d(torch.from_numpy(x), wt, padding=1).backward(
        torch.from_numpy(g))
    _same_bits(batched, wt.grad.numpy())


@pytest.mark.parametrize("xs,ws", [((32, 1, 28, 28), (8, 1, 3, 3)),
                                   ((6, 1, 40), (16, 1, 5)), ((5, 2, 11, 11), (24, 2, 2, 2))])
def test_weight_gradient_unpadded_taps_are_the_padded_bits(xs, ws, threads, monkeypatch):
    """Fewer than 16 taps (with the bias's row) go unpadded where MKL's narrower product
    was probed to chain: the bits of the taps padded to 16 rows, and torch's. Whether it
    chains depends on MKL's kernel for the CPU (on a Zen 4 it does for 6 to 10 rows, on a
    Xeon with AMX not for 6): the probe decides, and the result is torch's either way."""
    rng = np.random.default_rng(12)
    x = rng.standard_normal(xs).astype(np.float32)
    out = tuple(i - k + 1 for i, k in zip(xs[2:], ws[2:]))
    g = rng.standard_normal((xs[0], ws[0]) + out).astype(np.float32)
    nd = len(xs) - 2
    args = (ws, (1,) * nd, (0,) * nd, (1,) * nd, threads)
    assert _onednn_conv.direct_backward_weights(x, *args[:4], 1, threads)
    r = int(np.prod(ws[1:])) + 1
    narrow = _onednn_conv._narrow_rows(r, _onednn_conv._panel())
    asked = []
    probe = _onednn_conv._narrow_rows

    def spy(n, panel):
        asked.append(n)
        return probe(n, panel)

    with monkeypatch.context() as m:
        m.setattr(_onednn_conv, "_narrow_rows", spy)
        unpadded = _onednn_conv.backward_weights(x, g, *args)
    assert r in asked                    # the probe decides the path
    if narrow:
        with monkeypatch.context() as m:
            m.setattr(_onednn_conv, "_narrow_rows", lambda n, panel: False)
            padded = _onednn_conv.backward_weights(x, g, *args)
        _same_bits(unpadded, padded)
    f = torch.nn.functional.conv1d if nd == 1 else torch.nn.functional.conv2d
    wt = torch.from_numpy(np.zeros(ws, np.float32)).requires_grad_()
    f(torch.from_numpy(x), wt).backward(torch.from_numpy(g))
    _same_bits(unpadded, wt.grad.numpy())


def test_mkldnn_disabled_takes_atens_slow_path():
    """``backends.mkldnn.enabled = False`` sends float32 convolutions to ATen's slow path,
    in torch and here (its bits too)."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((8, 16, 12, 12)).astype(np.float32)
    w = rng.standard_normal((16, 16, 3, 3)).astype(np.float32)
    try:
        for lib in (torch, ember):
            lib.backends.mkldnn.enabled = False
        want = _conv(torch, x, w, None, {})
        got = _conv(ember, x, w, None, {})
    finally:
        for lib in (torch, ember):
            lib.backends.mkldnn.enabled = True
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_mkldnn_flag_read_at_each_call():
    """The same convolution with ``backends.mkldnn.enabled`` on, off and on again: each
    call takes the kernel the flag picks then (oneDNN's chains, ATen's slow path), with
    torch's bits, its input gradient too."""
    rng = np.random.default_rng(6)
    x = rng.standard_normal((4, 16, 10, 10)).astype(np.float32)
    w = rng.standard_normal((16, 16, 5, 5)).astype(np.float32)
    try:
        for enabled in (True, False, True):
            for lib in (torch, ember):
                lib.backends.mkldnn.enabled = enabled
            for f in (lambda lib: _conv(lib, x, w, None, {}),
                      lambda lib: _input_grad(lib, x, w, {})):
                want, got = f(torch), f(ember)
                assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), enabled
    finally:
        for lib in (torch, ember):
            lib.backends.mkldnn.enabled = True
