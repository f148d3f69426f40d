"""Convolution and max pooling against torch across their geometry: the batched im2col
convolution (groups, stride, dilation, padding, transposed with output padding, 1-d/3-d),
max pooling's view-chain indices (ties, NaN, signed zeros, padding, ceil mode, overlapping
and non-overlapping windows) and its scatter backward, double backward included."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from ..helpers import NC, arr, check, torch

EF = ember.nn.functional

CONVS = [
    # (name, fn(F, x, w, b), x shape, w shape, bias?)
    ("basic_pad1", lambda F, x, w, b: F.conv2d(x, w, b, padding=1), (2, 3, 7, 6), (4, 3, 3, 3)),
    ("stride2_pad1", lambda F, x, w, b: F.conv2d(x, w, b, stride=2, padding=1),
     (2, 2, 7, 8), (3, 2, 3, 3)),
    ("stride_pad_asym", lambda F, x, w, b: F.conv2d(x, w, b, stride=(2, 3), padding=(0, 2)),
     (1, 2, 9, 8), (3, 2, 2, 3)),
    ("dilation", lambda F, x, w, b: F.conv2d(x, w, b, dilation=(2, 1), padding=(2, 1)),
     (2, 2, 7, 7), (2, 2, 3, 3)),
    ("groups", lambda F, x, w, b: F.conv2d(x, w, b, groups=2, padding=1),
     (2, 4, 5, 5), (6, 2, 3, 3)),
    ("depthwise_stride_dil", lambda F, x, w, b: F.conv2d(x, w, b, groups=3, stride=2,
                                                         dilation=2, padding=2),
     (2, 3, 9, 9), (3, 1, 3, 3)),
    ("kernel_1x1", lambda F, x, w, b: F.conv2d(x, w, b), (2, 3, 4, 5), (5, 3, 1, 1)),
    ("pad_beyond", lambda F, x, w, b: F.conv2d(x, w, b, stride=3, padding=2),
     (1, 1, 4, 4), (2, 1, 2, 2)),
    # stride 1 and little padding: the "wide" im2col on the padded grid's rows
    ("wide_pad1", lambda F, x, w, b: F.conv2d(x, w, b, padding=1), (2, 4, 10, 12), (3, 4, 3, 3)),
    ("wide_dil_groups", lambda F, x, w, b: F.conv2d(x, w, b, dilation=2, padding=2, groups=2),
     (1, 6, 20, 20), (2, 3, 3, 3)),
    ("wide_transposed_outpad", lambda F, x, w, b: F.conv_transpose2d(
        x, w, b, dilation=2, output_padding=1), (1, 2, 30, 30), (2, 3, 3, 3)),
    ("conv1d", lambda F, x, w, b: F.conv1d(x, w, b, stride=2, padding=1), (2, 3, 9), (4, 3, 3)),
    ("conv3d", lambda F, x, w, b: F.conv3d(x, w, b, padding=(1, 0, 1), stride=(1, 2, 1)),
     (1, 2, 4, 5, 4), (3, 2, 2, 3, 3)),
    ("transposed", lambda F, x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1,
                                                         output_padding=1),
     (2, 3, 4, 5), (3, 2, 3, 3)),
    ("transposed_groups_dil", lambda F, x, w, b: F.conv_transpose2d(
        x, w, b, stride=(2, 1), groups=2, dilation=(1, 2), padding=(0, 1)),
     (1, 4, 3, 4), (4, 3, 2, 3)),
    ("transposed1d", lambda F, x, w, b: F.conv_transpose1d(x, w, b, stride=3, output_padding=2),
     (2, 2, 4), (2, 3, 3)),
]


@pytest.mark.parametrize("case", CONVS, ids=[c[0] for c in CONVS])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_convolution(case, dtype):
    name, fn, xs, ws = case
    o = ws[1] * (2 if "groups" in name else 1) if "transposed" in name else ws[0]
    check(lambda L, x, w, b: fn(L.nn.functional, x, w, b),
          arr(xs, dtype, 1), arr(ws, dtype, 2), arr((o,), dtype, 3),
          rtol=1e-4 if dtype == "float32" else None, atol=1e-5 if dtype == "float32" else None)


def test_convolution_noncontiguous_and_nobias():
    check(lambda L, x, w: L.nn.functional.conv2d(x, w, padding=1), NC(arr((2, 3, 6, 5), seed=4)),
          NC(arr((4, 3, 3, 3), seed=5)), rtol=1e-4, atol=1e-5)


def test_convolution_empty_batch():
    check(lambda L, x, w, b: L.nn.functional.conv2d(x, w, b, padding=1),
          arr((0, 2, 5, 5)), arr((3, 2, 3, 3)), arr((3,)))


def test_convolution_double_backward():
    gen = np.random.default_rng(2)
    shapes = [(2, 4, 5, 5), (4, 2, 3, 3)]
    inputs = tuple(ember.tensor(gen.standard_normal(s), dtype=ember.float64,
                                requires_grad=True) for s in shapes)
    fn = lambda x, w: EF.conv2d(x, w, stride=2, padding=1, groups=2)  # noqa: E731
    assert ember.autograd.gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)
    assert ember.autograd.gradgradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)


POOLS = [
    ("k2", dict(kernel_size=2), (2, 3, 8, 8)),
    ("k2_odd", dict(kernel_size=2), (2, 2, 7, 9)),
    ("k2_ceil", dict(kernel_size=2, ceil_mode=True), (1, 2, 7, 9)),
    ("k3_s2_p1", dict(kernel_size=3, stride=2, padding=1), (2, 2, 9, 8)),
    ("k3_s1", dict(kernel_size=3, stride=1), (1, 2, 6, 6)),
    ("k2_s3", dict(kernel_size=2, stride=3), (1, 2, 8, 8)),
    ("k2x3_dil", dict(kernel_size=(2, 3), stride=(2, 1), dilation=(2, 1), padding=(1, 1)),
     (1, 2, 8, 7)),
    ("k3_ceil_pad", dict(kernel_size=3, stride=2, padding=1, ceil_mode=True), (1, 1, 8, 8)),
]


def _pool_fn(kw):
    def fn(L, x):
        v, i = L.nn.functional.max_pool2d(x, return_indices=True, **kw)
        return v, i
    return fn


@pytest.mark.parametrize("case", POOLS, ids=[c[0] for c in POOLS])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_max_pool2d(case, dtype):
    _, kw, shape = case
    check(_pool_fn(kw), arr(shape, dtype, 7))


@pytest.mark.parametrize("case", POOLS, ids=[c[0] for c in POOLS])
def test_max_pool2d_ties_and_zeros(case):
    """Integer-valued data (many ties) and signed zeros: torch keeps the first maximum."""
    _, kw, shape = case
    rng = np.random.default_rng(3)
    x = rng.integers(-1, 2, shape).astype(np.float32)
    x[rng.random(shape) < 0.3] = -0.0
    res = check(_pool_fn(kw), x)
    np.testing.assert_array_equal(np.signbit(res[0][0].detach().numpy()),
                                  np.signbit(res[1][0].detach().numpy()))


@pytest.mark.parametrize("case", POOLS[:4], ids=[c[0] for c in POOLS[:4]])
def test_max_pool2d_nan_and_inf(case):
    """NaN wins its window (the last NaN, in torch's scan); -inf everywhere in a padded window."""
    _, kw, shape = case
    x = arr(shape, "float32", 9)
    x.reshape(-1)[::5] = np.nan
    x.reshape(-1)[1::7] = np.nan
    check(_pool_fn(kw), x, grad=False)
    y = np.full(shape, -np.inf, np.float32)
    y.reshape(-1)[::3] = 1.0
    check(_pool_fn(kw), y, grad=False)


def test_max_pool_3d_and_noncontiguous():
    check(lambda L, x: L.nn.functional.max_pool3d(x, 2, return_indices=True),
          arr((1, 2, 4, 5, 4)))
    check(lambda L, x: L.nn.functional.max_pool3d(x, 3, 2, 1, return_indices=True),
          arr((1, 2, 5, 5, 4)))
    check(lambda L, x: L.nn.functional.max_pool2d(x, 2, return_indices=True),
          NC(arr((2, 3, 6, 8))))


@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1)])
def test_max_pool_double_backward(kw):
    gen = np.random.default_rng(5)
    x = ember.tensor(gen.standard_normal((2, 2, 6, 6)), dtype=ember.float64, requires_grad=True)
    fn = lambda x: EF.max_pool2d(x, **kw) ** 2  # noqa: E731
    assert ember.autograd.gradgradcheck(fn, (x,), eps=1e-6, atol=1e-5, rtol=1e-3)
    y = EF.max_pool2d(x, **kw)
    (g,) = ember.autograd.grad((y * y).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "MaxPool2DWithIndicesBackwardBackward0"
    tx = torch.tensor(x.detach().numpy(), requires_grad=True)
    ty = torch.nn.functional.max_pool2d(tx, **kw)
    (tg,) = torch.autograd.grad((ty * ty).sum(), tx, create_graph=True)
    assert tg.grad_fn.name() == g.grad_fn.name()
    np.testing.assert_array_equal(tg.detach().numpy(), g.detach().numpy())


def test_cnn_step_matches_torch():
    """The benchmark's small CNN: a few SGD steps follow torch's trajectory."""
    def run(lib):
        nn = lib.nn
        lib.manual_seed(0)
        model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Conv2d(4, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Flatten(), nn.Linear(6 * 3 * 3, 5))
        opt = lib.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        rng = np.random.default_rng(0)
        x = lib.tensor(rng.standard_normal((8, 1, 12, 12)).astype(np.float32))
        y = lib.tensor(rng.integers(0, 5, 8))
        losses = []
        for _ in range(4):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, [p.detach().numpy().copy() for p in model.parameters()]
    tl, tp = run(torch)
    el, ep = run(ember)
    np.testing.assert_allclose(el, tl, rtol=1e-5, atol=1e-6)
    for a, b in zip(ep, tp):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("fn", [
    lambda L, x: L.nn.functional.max_pool2d(x, 2),
    lambda L, x: L.nn.functional.max_pool2d(x, 3, stride=1, padding=1),
    lambda L, x: L.nn.functional.max_pool2d(x, 2, return_indices=True),
    lambda L, x: L.nn.functional.adaptive_max_pool2d(x, (2, 3), return_indices=True),
    lambda L, x: L.nn.functional.max_pool1d(x[0], 2),
    lambda L, x: L.nn.functional.max_pool3d(x[None], 2),
])
def test_unbatched_pooling_is_torchs_node(fn):
    """(C, H, W) input: torch's pooling node on the output itself, no squeeze around it."""
    x = np.random.default_rng(5).standard_normal((3, 6, 6))
    check(fn, x)
    check(lambda L, x: L.autograd.grad((_first(fn(L, x)) ** 2).sum(), x, create_graph=True)[0],
          x)


def _first(out):
    return out[0] if isinstance(out, tuple) else out
