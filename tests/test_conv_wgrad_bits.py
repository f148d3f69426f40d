"""float32 weight (and bias) gradients of 1x1, depthwise and grouped convolutions give
torch's bits, on 1 and 2 threads, for random shapes:

* 1x1 (``jit_1x1``'s backward weights): per call an FMA chain from zero over a block of
  an image's positions, the calls of a thread added in order, the threads' sums after;
* depthwise taken by ``jit_dw`` (a kernel of at most 3 columns, a padding within half the
  kernel): one FMA chain per thread over image, 15-row block, 15-column block (outputs
  wider than 30), row, column;
* other depthwise (oneDNN's gemm convolution): per image an AVX gemv's 8-lane chains,
  summed pairwise and added to the running sum;
* grouped, where a group's channel counts share a block of 16 (``jit:avx512_core``) or 8
  (``jit:avx2``): each group's chains as one group's; where they do not, with 2 to 15
  output channels a group, the gemm convolution's ``smalln_tn``: 16 lanes of FMA chains,
  summed by a halving tree, image after image; and ATen's slow path group by group
  (float64; float32 1x1 kernels on one small sample and one thread);

and the depthwise input gradient (``jit_dw``'s backward data: per element an FMA chain
over the taps in order)."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _gemm, _onednn, _onednn_conv

from .helpers import torch

pytestmark = pytest.mark.skipif(
    not (_gemm.available(np.float32) and _onednn.avx512() and _onednn_conv._panel()),
    reason="needs MKL's runtime and an AVX512 CPU (oneDNN's jit kernels)")

CASES = 12


def _f(lib, nd):
    return lib.nn.functional.conv1d if nd == 1 else lib.nn.functional.conv2d


def _grads(lib, x, w, b, gy, kw, wrt_input=False):
    """(weight grad, bias grad or None, input grad or None) of ``conv(x, w, b)`` under
    the output gradient ``gy``."""
    xt = lib.from_numpy(x).requires_grad_(wrt_input)
    wt = lib.from_numpy(w).requires_grad_()
    bt = None if b is None else lib.from_numpy(b).requires_grad_()
    y = _f(lib, x.ndim - 2)(xt, wt, bt, **kw)
    y.backward(lib.from_numpy(gy))
    return (wt.grad.numpy(), None if bt is None else bt.grad.numpy(),
            xt.grad.numpy() if wrt_input else None)


def _same_bits(got, want):
    assert got.shape == want.shape
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), \
        f"{(got != want).sum()} of {want.size} differ"


def _compare(x, w, b, kw, wrt_input=False, seed=0):
    y = _f(torch, x.ndim - 2)(torch.from_numpy(x), torch.from_numpy(w), **kw)
    gy = np.random.default_rng(seed).standard_normal(tuple(y.shape)).astype(np.float32)
    want = _grads(torch, x, w, b, gy, kw, wrt_input)
    got = _grads(ember, x, w, b, gy, kw, wrt_input)
    for g, t in zip(got, want):
        if t is not None:
            _same_bits(g, t)


def _data(xs, ws, seed, bias=True):
    """Random float32 input, weight and (with ``bias``) bias of shapes ``xs`` and ``ws``,
    drawn in that order from ``seed``."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(ws).astype(np.float32)
    return x, w, rng.standard_normal(ws[0]).astype(np.float32) if bias else None


def _one_by_one(case):
    """A random 1x1 convolution that torch hands to oneDNN (a batch of 16 or more, or
    a stride)."""
    rng = np.random.default_rng(1000 + case)
    nd = 1 if case % 4 == 3 else 2
    stride = int(rng.integers(1, 3)) if case % 3 == 2 else 1
    n = int(rng.integers(16, 40)) if stride == 1 else int(rng.integers(1, 12))
    c, o = int(rng.integers(1, 70)), int(rng.integers(1, 70))
    sizes = tuple(int(rng.integers(1, 24)) * stride for _ in range(nd))
    if nd == 1:
        sizes = (int(rng.integers(10, 300)) * stride,)
    return (n, c) + sizes, o, stride


@pytest.mark.parametrize("case", range(CASES))
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_1x1_weight_grad_is_torchs_bits(case, bias, threads):
    xs, o, stride = _one_by_one(case)
    nd = len(xs) - 2
    x, w, b = _data(xs, (o, xs[1]) + (1,) * nd, case, bias)
    assert _onednn_conv.direct_backward_weights_1x1(x, w.shape, (stride,) * nd, (0,) * nd,
                                                    (1,) * nd, 1, threads)
    _compare(x, w, b, {"stride": stride}, seed=case)


# the shapes of the 1x1 forward tests, wide blocks of positions (past MKL's panel) among them
ONE_BY_ONE = [((16, 128, 14, 14), 64), ((16, 64, 56, 56), 64), ((32, 64, 8, 8), 256),
              ((16, 32, 40, 40), 32), ((20, 16, 33, 31), 24), ((96, 14, 8, 8), 12)]


@pytest.mark.parametrize("case", range(len(ONE_BY_ONE)))
def test_1x1_weight_grad_long_calls(case, threads):
    xs, o = ONE_BY_ONE[case]
    _compare(*_data(xs, (o, xs[1], 1, 1), case), {}, seed=case)


def _depthwise(case, jit_dw):
    """A random depthwise convolution that ``jit_dw``'s backward-weights kernel takes
    (``jit_dw``) or declines."""
    rng = np.random.default_rng(2000 + case + 100 * jit_dw)
    nd = 1 if case % 3 == 0 else 2
    n, c = int(rng.integers(1, 9)), int(rng.integers(2, 70))
    if jit_dw:
        # (a 1x1 kernel on a small batch and one thread is ATen's own path)
        k = tuple(int(rng.integers(1 if i < nd - 1 else 2, 4)) for i in range(nd))
        pad = tuple(int(rng.integers(0, kk // 2 + 1)) for kk in k)
        stride = tuple(int(rng.integers(1, kk + 1)) for kk in k)
        dil = (1,) * nd
    else:
        k = tuple(int(rng.integers(4, 8)) for _ in range(nd))
        pad = tuple(int(rng.integers(0, kk)) for kk in k)
        stride = tuple(int(rng.integers(1, 3)) for _ in k)
        dil = tuple(int(rng.integers(1, 3)) for _ in k)
    sizes = tuple(int(rng.integers(kk * d + 2, 3 * kk * d + 40)) for kk, d in zip(k, dil))
    if nd == 1:
        sizes = (int(rng.integers(k[0] * dil[0] + 2, 400)),)
    kw = {"stride": stride, "padding": pad, "dilation": dil, "groups": c}
    return (n, c) + sizes, k, kw


@pytest.mark.parametrize("case", range(CASES))
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
@pytest.mark.parametrize("jit_dw", [True, False], ids=["jit_dw", "gemm"])
def test_depthwise_weight_grad_is_torchs_bits(case, bias, jit_dw, threads):
    xs, k, kw = _depthwise(case, jit_dw)
    c = xs[1]
    x, w, b = _data(xs, (c, 1) + k, case, bias)
    gate = (_onednn_conv.direct_depthwise_weights if jit_dw
            else _onednn_conv.gemm_depthwise_weights)
    assert gate(x, w.shape, kw["stride"], kw["padding"], kw["dilation"], c, threads)
    _compare(x, w, b, kw, seed=case)


# jit_dw's column blocks (outputs wider than 30) and 15-row calls
WIDE = [((4, 16, 33, 35), 3, {}), ((2, 16, 20, 64), 3, {"padding": 1}),
        ((2, 16, 40, 61), 3, {"padding": 1, "stride": 2}), ((2, 32, 7, 45), 3, {"padding": 1}),
        ((2, 16, 3, 47), 2, {}), ((2, 24, 500), 3, {"padding": 1})]


@pytest.mark.parametrize("case", range(len(WIDE)))
def test_depthwise_weight_grad_column_blocks(case, threads):
    xs, k, kw = WIDE[case]
    c = xs[1]
    _compare(*_data(xs, (c, 1) + (k,) * (len(xs) - 2), case), dict(kw, groups=c), seed=case)


@pytest.mark.parametrize("case", range(CASES))
@pytest.mark.parametrize("jit_dw", [True, False], ids=["small_kernel", "large_kernel"])
def test_depthwise_input_grad_is_torchs_bits(case, jit_dw, threads):
    xs, k, kw = _depthwise(case, jit_dw)
    kw = dict(kw, dilation=1)                # a dilation takes another kernel
    c = xs[1]
    x, w, _ = _data(xs, (c, 1) + k, case + 50, bias=False)
    _compare(x, w, None, kw, wrt_input=True, seed=case)


def test_gates_decline_other_kernels():
    """The gates name only the shapes proven: a grouped convolution with more than one
    channel a group, a dilated jit_dw-sized kernel (gemm: another order), a 3x3 kernel
    for the 1x1 path, channels-last inputs, and more threads than depthwise groups."""
    x = np.zeros((4, 8, 10, 10), np.float32)
    assert not _onednn_conv.direct_depthwise_weights(x, (8, 2, 3, 3), (1, 1), (1, 1),
                                                     (1, 1), 4, 1)
    assert not _onednn_conv.direct_depthwise_weights(x, (8, 1, 3, 3), (1, 1), (1, 1),
                                                     (2, 2), 8, 1)
    assert _onednn_conv.gemm_depthwise_weights(x, (8, 1, 3, 3), (1, 1), (1, 1), (2, 2), 8, 1)
    assert not _onednn_conv.gemm_depthwise_weights(x[:, :2], (2, 1, 5, 5), (1, 1), (0, 0),
                                                   (1, 1), 2, 4)
    assert not _onednn_conv.direct_backward_weights_1x1(x, (8, 8, 3, 3), (1, 1), (0, 0),
                                                        (1, 1), 1, 1)
    last = np.zeros((4, 10, 10, 8), np.float32).transpose(0, 3, 1, 2)
    assert not _onednn_conv.direct_depthwise_weights(last, (8, 1, 3, 3), (1, 1), (1, 1),
                                                     (1, 1), 8, 1)


def test_plain_products_differ():
    """The orders matter: the general product (what these shapes took before) differs
    from torch in the last bits, so the tests above can fail."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((32, 48, 12, 12)).astype(np.float32)
    gy = rng.standard_normal((32, 40, 12, 12)).astype(np.float32)
    w = np.zeros((40, 48, 1, 1), np.float32)
    want = _grads(torch, x, w, None, gy, {})[0]
    plain = np.einsum("nohw,nchw->oc", gy, x).reshape(want.shape)
    assert not np.array_equal(plain, want)
    _same_bits(_grads(ember, x, w, None, gy, {})[0], want)


def _grouped(case):
    """A random grouped convolution whose groups share a block of 16 or 8 channels."""
    rng = np.random.default_rng(3000 + case)
    nd = 1 if case % 4 == 3 else 2
    g = int(rng.integers(2, 5))
    block = (8, 16)[case % 2]
    cg, og = block * int(rng.integers(1, 3)), block * int(rng.integers(1, 3))
    k = tuple(int(rng.integers(1, 4)) for _ in range(nd))
    pad = tuple(int(rng.integers(0, kk // 2 + 1)) for kk in k)
    stride = tuple(int(rng.integers(1, 3)) for _ in k)
    n = int(rng.integers(1, 9))
    sizes = tuple(int(rng.integers(kk + 2, 24)) for kk in k)
    return (n, g * cg) + sizes, (g * og, cg) + k, {"stride": stride, "padding": pad,
                                                  "groups": g}


@pytest.mark.parametrize("case", range(CASES))
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_grouped_weight_grad_is_torchs_bits(case, bias, threads):
    xs, ws, kw = _grouped(case)
    x, w, b = _data(xs, ws, case, bias)
    nd = len(xs) - 2
    if _onednn_conv.use_mkldnn(xs, ws, kw["stride"], (1,) * nd, kw["groups"], threads):
        assert _onednn_conv.direct_backward_weights(x, ws, kw["stride"], kw["padding"],
                                                    (1,) * nd, kw["groups"], threads)
    _compare(x, w, b, kw, seed=case)


def _gemm_grouped(case):
    """A random grouped convolution whose groups share no block of 8 channels, at most 15
    output channels a group (ResNeXt's 4 among them)."""
    rng = np.random.default_rng(4000 + case)
    nd = 1 if case % 4 == 3 else 2
    g = int(rng.integers(2, 9))
    cg, og = 4, 4
    while case and (cg, og) == (4, 4) or (cg, og) == (1, 1):
        cg, og = int(rng.integers(1, 13)), int(rng.integers(1, 16))
        if cg % 8 == 0 and og % 8 == 0:
            cg += 1
    k = tuple(int(rng.integers(1, 6)) for _ in range(nd))
    pad = tuple(int(rng.integers(0, kk)) for kk in k)
    stride = tuple(int(rng.integers(1, 3)) for _ in k)
    n = int(rng.integers(1, 6))
    sizes = tuple(int(rng.integers(kk + 2, 30)) for kk in k)
    return (n, g * cg) + sizes, (g * og, cg) + k, {"stride": stride, "padding": pad,
                                                  "groups": g}


@pytest.mark.parametrize("case", range(CASES))
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_gemm_grouped_weight_grad_is_torchs_bits(case, bias, threads):
    xs, ws, kw = _gemm_grouped(case)
    x, w, b = _data(xs, ws, case, bias)
    nd = len(xs) - 2
    assert _onednn_conv.gemm_grouped_weights(x, ws, kw["stride"], kw["padding"], (1,) * nd,
                                             kw["groups"], threads)
    _compare(x, w, b, kw, seed=case)


SLOW_GROUPED = [((4, 32, 10, 10), 64, 1, 4, {}), ((2, 8, 10, 10), 8, 3, 2, {"padding": 1}),
                ((2, 6, 9, 9), 6, 3, 3, {"stride": 2}), ((3, 4, 20), 8, 3, 2, {"padding": 1}),
                ((2, 8, 10, 10), 8, 3, 8, {"padding": 1}), ((3, 12, 9, 9), 6, 1, 3, {})]


@pytest.mark.parametrize("case", range(len(SLOW_GROUPED)))
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_grouped_slow_path_is_torchs_bits(case, dtype, threads):
    """ATen's slow path with groups (float64; float32 where ``use_mkldnn`` declines: a 1x1
    kernel, a small batch, one thread): each group's contiguous slices through the one-group
    path, forward and every gradient."""
    xs, o, k, g, kw = SLOW_GROUPED[case]
    nd = len(xs) - 2
    ws = (o, xs[1] // g) + (k,) * nd
    if dtype == np.float32 and _onednn_conv.use_mkldnn(xs, ws, (1,) * nd, (1,) * nd, g,
                                                       threads):
        pytest.skip("oneDNN's kernel in torch")
    rng = np.random.default_rng(case)
    x = rng.standard_normal(xs).astype(dtype)
    w = rng.standard_normal(ws).astype(dtype)
    b = rng.standard_normal(o).astype(dtype)
    res = []
    for lib in (torch, ember):
        xt = lib.from_numpy(x).requires_grad_()
        wt = lib.from_numpy(w).requires_grad_()
        bt = lib.from_numpy(b).requires_grad_()
        y = _f(lib, nd)(xt, wt, bt, groups=g, **kw)
        y.backward(lib.from_numpy(np.cos(np.arange(y.numel())).reshape(
            tuple(y.shape)).astype(dtype)))
        res.append([y.detach().numpy(), xt.grad.numpy(), wt.grad.numpy(), bt.grad.numpy()])
    for got, want in zip(res[1], res[0]):
        assert np.array_equal(got, want), f"{(got != want).sum()} of {want.size} differ"


@pytest.mark.parametrize("cfg", [
    dict(cin=1, cout=8, k=3, padding=1), dict(cin=8, cout=16, k=3, padding=1),
    dict(cin=8, cout=16, k=1, padding=0), dict(cin=8, cout=8, k=3, padding=1, groups=8),
    dict(cin=8, cout=16, k=3, padding=1, stride=2), dict(cin=3, cout=6, k=5, padding=0),
    dict(cin=16, cout=32, k=3, padding=1, groups=4)])
def test_weight_grad_strides_are_torchs(cfg):
    """The weight gradient comes out contiguous, as oneDNN's: ``autograd.grad`` shows
    torch's strides (and a parameter's ``.grad`` takes it without a copy)."""
    cfg = dict(cfg)
    cin, cout, k = cfg.pop("cin"), cfg.pop("cout"), cfg.pop("k")
    strides = []
    for lib in (ember, torch):
        lib.manual_seed(0)
        x = lib.randn(32, cin, 14, 14)
        conv = lib.nn.Conv2d(cin, cout, k, **cfg)
        gw, = lib.autograd.grad(conv(x).square().sum(), (conv.weight,))
        strides.append(gw.stride())
    assert strides[0] == strides[1]
