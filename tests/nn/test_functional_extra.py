"""Oracle tests of the extra functional ops against torch 2.13: embedding/ranking losses,
scaled dot-product attention, interpolate, unfold/fold."""

from __future__ import annotations

import numpy as np
import pytest

import ember
import ember.nn.functional as EF

from ..helpers import NC, arr, check, errors_alike, torch

TF = torch.nn.functional
DTYPES = ("float32", "float64")


def F(lib):
    return TF if lib is torch else EF


def gradcheck(fn, *arrays):
    ins = [ember.from_numpy(a.astype(np.float64)).requires_grad_() for a in arrays]
    assert ember.autograd.gradcheck(fn, tuple(ins))


# ============================================================================ losses

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("margin", [0.0, 0.3])
def test_cosine_embedding_loss(dtype, reduction, margin):
    a, b = arr((5, 4), dtype, 1), arr((5, 4), dtype, 2)
    t = np.array([1, -1, 1, -1, 0], dtype=dtype)
    check(lambda lib, x, y, z: F(lib).cosine_embedding_loss(x, y, z, margin=margin,
                                                            reduction=reduction),
          a, NC(b), t)
    check(lambda lib, x, y, z: F(lib).cosine_embedding_loss(x, y, z, margin, reduction=reduction),
          a[0], b[0], np.array(-1.0, dtype))


def test_cosine_embedding_loss_errors_and_grad():
    a = arr((3, 4), "float64", 1)
    t = np.array([1.0, -1.0, -1.0])
    check(lambda lib, x, y, z: F(lib).cosine_embedding_loss(x, y, z), a, a, a)
    check(lambda lib, x, y, z: F(lib).cosine_embedding_loss(x, y, z), a[0], a[0], t)
    check(lambda lib, x, y, z: F(lib).cosine_embedding_loss(x, y, z), a, a, np.array(t[0]))
    check(lambda lib, x, y, z: F(lib).cosine_embedding_loss(x, y, z, reduction="avg"), a, a, t)
    tt = ember.from_numpy(t)
    gradcheck(lambda x, y: EF.cosine_embedding_loss(x, y, tt, 0.1), a, arr((3, 4), "float64", 2))
    m = ember.nn.CosineEmbeddingLoss(margin=0.2, reduction="sum")
    tm = torch.nn.CosineEmbeddingLoss(margin=0.2, reduction="sum")
    e = m(ember.from_numpy(a), ember.from_numpy(a[::-1].copy()), tt)
    g = tm(torch.from_numpy(a), torch.from_numpy(a[::-1].copy()), torch.from_numpy(t))
    assert abs(e.item() - g.item()) < 1e-12


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_margin_ranking_loss(dtype, reduction):
    a, b = arr((4, 3), dtype, 1), arr((4, 3), dtype, 2)
    t = np.sign(arr((4, 3), dtype, 3))
    check(lambda lib, x, y, z: F(lib).margin_ranking_loss(x, y, z, margin=0.5,
                                                          reduction=reduction), a, NC(b), t)
    check(lambda lib, x, y, z: F(lib).margin_ranking_loss(x, y, z, reduction=reduction),
          a[0], b[0], t[0])
    check(lambda lib, x, y, z: F(lib).margin_ranking_loss(x, y, z),
          np.array(a[0, 0]), np.array(b[0, 0]), np.array(t[0, 0]))


def test_margin_ranking_loss_errors_and_grad():
    a = arr((4,), "float64", 1)
    check(lambda lib, x, y, z: F(lib).margin_ranking_loss(x, y, z), a, a, a[None])
    check(lambda lib, x, y, z: F(lib).margin_ranking_loss(x, y, z, reduction="x"), a, a, a)
    t = ember.from_numpy(np.array([1.0, -1.0, 1.0, -1.0]))
    gradcheck(lambda x, y: EF.margin_ranking_loss(x, y, t, 0.1), a, arr((4,), "float64", 5))
    e = ember.nn.MarginRankingLoss(0.1)(ember.from_numpy(a), ember.from_numpy(a * 2), t)
    g = torch.nn.MarginRankingLoss(0.1)(torch.from_numpy(a), torch.from_numpy(a * 2),
                                        torch.tensor([1.0, -1.0, 1.0, -1.0], dtype=torch.float64))
    assert abs(e.item() - g.item()) < 1e-12


# ============================================================================ attention

@pytest.mark.parametrize("dtype", DTYPES)
def test_sdpa_3d(dtype):
    q, k, v = arr((2, 3, 4), dtype, 1), arr((2, 5, 4), dtype, 2), arr((2, 5, 6), dtype, 3)
    sdpa = lambda lib, *a, **kw: F(lib).scaled_dot_product_attention(*a, **kw)  # noqa: E731
    check(lambda lib, a, b, c: sdpa(lib, a, b, c), q, k, v)
    check(lambda lib, a, b, c: sdpa(lib, a, b, c, scale=0.7), q, NC(k), v)
    check(lambda lib, a, b, c: sdpa(lib, a, b, c, scale=-0.3), q, k, v)
    mask = arr((3, 5), "bool", 4)
    mask[1] = False   # a fully-masked row gives zeros
    check(lambda lib, a, b, c, m: sdpa(lib, a, b, c, attn_mask=m), q, k, v, mask)
    check(lambda lib, a, b, c, m: sdpa(lib, a, b, c, attn_mask=m), q, k, v, arr((2, 3, 5), dtype))
    check(lambda lib, a, b, c: sdpa(lib, a, b, c, is_causal=True), q, k, v)


def _close(t, e, tol):
    np.testing.assert_allclose(e.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sdpa_4d_gqa_dropout(dtype):
    tol = 1e-5 if dtype == "float32" else 1e-10
    q, k, v = arr((2, 4, 3, 4), dtype, 1), arr((2, 2, 5, 4), dtype, 2), arr((2, 2, 5, 4), dtype, 3)
    for kw in ({"enable_gqa": True}, {"enable_gqa": True, "is_causal": True},
               {"enable_gqa": True, "dropout_p": 0.4}):
        outs = []
        for lib in (torch, ember):
            lib.manual_seed(3)
            ins = [lib.from_numpy(a.copy()).requires_grad_() for a in (q, k, v)]
            out = F(lib).scaled_dot_product_attention(*ins, **kw)
            (out * lib.from_numpy(arr(out.shape, dtype, 9))).sum().backward()
            outs.append([out] + [i.grad for i in ins])
        for t, e in zip(*outs):
            _close(t, e, tol)


def test_sdpa_errors_and_grad():
    q = arr((2, 3, 4), "float64", 1)
    errors_alike(lambda lib: F(lib).scaled_dot_product_attention(
        *[lib.from_numpy(q)] * 3, attn_mask=lib.ones(3, 3, dtype=lib.bool), is_causal=True))
    m = ember.from_numpy(arr((3, 3), "float64", 7))
    gradcheck(lambda a, b, c: EF.scaled_dot_product_attention(a, b, c, attn_mask=m), q,
              arr((2, 3, 4), "float64", 2), arr((2, 3, 4), "float64", 3))


# ============================================================================ interpolate

INTERP_CASES = [
    {"size": 7}, {"size": 3}, {"size": 10}, {"scale_factor": 2}, {"scale_factor": 1.7},
    {"scale_factor": 0.6}, {"scale_factor": 2.3}, {"scale_factor": 1.7,
                                                   "recompute_scale_factor": True},
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kw", INTERP_CASES)
@pytest.mark.parametrize("mode", ["nearest", "linear", "linear_ac"])
def test_interpolate_1d(dtype, kw, mode):
    kw = dict(kw)
    if mode == "linear_ac":
        mode, kw["align_corners"] = "linear", True
    check(lambda lib, x: F(lib).interpolate(x, mode=mode, **kw), arr((2, 3, 5), dtype, 1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kw", INTERP_CASES[:7] + [{"size": (3, 11)}, {"size": (1, 1)},
                                                   {"scale_factor": (0.6, 2.3)}])
@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bilinear_ac"])
def test_interpolate_2d(dtype, kw, mode):
    kw = dict(kw)
    if mode == "bilinear_ac":
        mode, kw["align_corners"] = "bilinear", True
    check(lambda lib, x: F(lib).interpolate(x, mode=mode, **kw), NC(arr((2, 3, 5, 7), dtype, 1)))


def test_interpolate_errors():
    x = arr((1, 2, 5, 6), "float32", 1)
    for kw in ({"size": 0}, {"size": (3, 0), "mode": "bilinear"}, {"size": 2, "scale_factor": 2},
               {}, {"size": (2,)}, {"size": (2.0, 3)}, {"scale_factor": (2, 2, 2)},
               {"size": 2, "align_corners": True}, {"size": 2, "mode": "linear"},
               {"size": 3, "recompute_scale_factor": True}, {"scale_factor": 0.1}):
        check(lambda lib, a, kw=kw: F(lib).interpolate(a, **kw), x)
    check(lambda lib, a: F(lib).interpolate(a, size=0), arr((1, 2, 5), "float32", 1))
    check(lambda lib, a: F(lib).interpolate(a, size=3, mode="bilinear"), arr((1, 2, 5), "float32"))
    check(lambda lib, a: F(lib).interpolate(a, size=3, mode="xyz"), arr((1, 2, 5), "float32"))
    check(lambda lib, a: F(lib).interpolate(a, size=3), arr((5, 2), "float32"))


def test_interpolate_gradcheck_and_modules():
    x = arr((1, 2, 3, 4), "float64", 1)
    for mode, ac in (("nearest", None), ("bilinear", False), ("bilinear", True)):
        gradcheck(lambda a, m=mode, ac=ac: EF.interpolate(a, size=(5, 3), mode=m, align_corners=ac),
                  x)
    assert ember.autograd.gradgradcheck(
        lambda a: EF.interpolate(a, scale_factor=1.5, mode="bilinear"),
        (ember.from_numpy(x).requires_grad_(),))
    for args in ({"scale_factor": 2}, {"size": (4, 5), "mode": "bilinear"}):
        assert repr(ember.nn.Upsample(**args)) == repr(torch.nn.Upsample(**args))
        t = torch.nn.Upsample(**args)(torch.from_numpy(x))
        e = ember.nn.Upsample(**args)(ember.from_numpy(x))
        _close(t, e, 1e-12)
    t = torch.nn.UpsamplingBilinear2d(scale_factor=2)(torch.from_numpy(x))
    _close(t, ember.nn.UpsamplingBilinear2d(scale_factor=2)(ember.from_numpy(x)), 1e-12)


# ============================================================================ unfold / fold

BLOCKS = [{"kernel_size": 2}, {"kernel_size": (2, 3), "stride": 2},
          {"kernel_size": (3, 2), "dilation": (2, 1), "padding": (1, 2), "stride": (2, 3)},
          {"kernel_size": 1, "padding": 1}]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kw", BLOCKS)
def test_unfold_fold(dtype, kw):
    x = arr((2, 3, 7, 8), dtype, 1)
    check(lambda lib, a: F(lib).unfold(a, **kw), x)
    check(lambda lib, a: F(lib).unfold(a, **kw), NC(x))
    check(lambda lib, a: F(lib).unfold(a, **kw), x[0])
    cols = TF.unfold(torch.from_numpy(x), **kw).numpy()
    check(lambda lib, a: F(lib).fold(a, (7, 8), **kw), cols)
    check(lambda lib, a: F(lib).fold(a, (7, 8), **kw), NC(cols))
    check(lambda lib, a: F(lib).fold(a, (7, 8), **kw), cols[0])


def test_unfold_fold_empty_and_errors():
    check(lambda lib, a: F(lib).unfold(a, 2), arr((0, 3, 4, 4)))
    check(lambda lib, a: F(lib).fold(a, (3, 3), 2), arr((0, 12, 4)))
    x = arr((2, 3, 5, 6))
    for args, kw in (((2,), {"stride": 0}), ((0,), {}), ((7,), {}), ((2,), {"dilation": 0}),
                     ((2,), {"padding": -1}), ((2,), {"padding": -1, "stride": 0})):
        check(lambda lib, a, args=args, kw=kw: F(lib).unfold(a, *args, **kw), x)
    for shape in ((5, 6), (6,), (2, 0, 4, 4), (0, 4, 4), (1, 2, 3, 4, 5)):
        check(lambda lib, a: F(lib).unfold(a, 2), arr(shape))
    for shape, args, kw in (((2, 12, 4), ((3, 3), 2), {}), ((2, 13, 4), ((3, 3), 2), {}),
                            ((2, 12, 5), ((3, 3), 2), {}), ((2, 12, 4, 1), ((3, 3), 2), {}),
                            ((2, 12, 1), ((1, 1), 2), {}), ((2, 12, 4), ((3, 3), 2),
                                                           {"stride": 0, "dilation": 0}),
                            ((2, 12, 4), ((3, 3), 2), {"dilation": 0, "padding": -1}),
                            ((2, 12, 4), ((3, 3), 0), {"stride": 0}), ((2, 0, 4), ((3, 3), 2), {}),
                            ((2, 12, 1), ((0, 0), 2), {"padding": 1})):
        check(lambda lib, a, args=args, kw=kw: F(lib).fold(a, *args, **kw), arr(shape))


def test_unfold_fold_gradcheck_and_modules():
    x = arr((1, 2, 4, 5), "float64", 1)
    kw = {"kernel_size": (2, 3), "dilation": (1, 2), "padding": 1, "stride": (2, 1)}
    gradcheck(lambda a: EF.unfold(a, **kw), x)
    cols = TF.unfold(torch.from_numpy(x), **kw).numpy()
    gradcheck(lambda a: EF.fold(a, (4, 5), **kw), cols)
    assert ember.autograd.gradgradcheck(lambda a: EF.unfold(a, **kw) ** 2,
                                        (ember.from_numpy(x).requires_grad_(),))
    for em, tm, inp in ((ember.nn.Unfold(**kw), torch.nn.Unfold(**kw), x),
                        (ember.nn.Fold((4, 5), **kw), torch.nn.Fold((4, 5), **kw), cols)):
        assert repr(em) == repr(tm)
        _close(tm(torch.from_numpy(inp)), em(ember.from_numpy(inp)), 1e-12)
