"""Oracle tests of ``F.interpolate``'s modes against torch 2.13: bicubic, trilinear, area,
nearest-exact, 3-d nearest, antialias (bilinear/bicubic/lanczos), recompute_scale_factor; values
(bit-exact where torch's index arithmetic is mirrored), gradients, grad_fn names, errors."""

from __future__ import annotations

import numpy as np
import pytest

import ember
import ember.nn.functional as EF

from ..helpers import NC, arr, check, torch

TF = torch.nn.functional
DTYPES = ("float32", "float64")


def F(lib):
    return TF if lib is torch else EF


def _both(x, **kw):
    t = TF.interpolate(torch.from_numpy(x), **kw).numpy()
    e = EF.interpolate(ember.from_numpy(x), **kw).numpy()
    assert t.shape == e.shape
    return t, e


CASES_2D = [{"size": (7, 9)}, {"size": (3, 4)}, {"size": (1, 1)}, {"size": (5, 6)},
            {"scale_factor": 1.7}, {"scale_factor": (0.5, 3.3)},
            {"scale_factor": 1.7, "recompute_scale_factor": True}]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ac", [False, True])
@pytest.mark.parametrize("kw", CASES_2D)
def test_bicubic(dtype, ac, kw):
    check(lambda lib, x: F(lib).interpolate(x, mode="bicubic", align_corners=ac, **kw),
          NC(arr((2, 3, 5, 6), dtype, 1)))


CASES_3D = [{"size": (5, 7, 2)}, {"size": 4}, {"scale_factor": 1.7}, {"scale_factor": 0.6},
            {"scale_factor": (0.5, 3.3, 1.3)}, {"scale_factor": 2, "recompute_scale_factor": True}]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["trilinear", "trilinear_ac", "nearest", "nearest-exact", "area"])
@pytest.mark.parametrize("kw", CASES_3D)
def test_5d_modes(dtype, mode, kw):
    kw = dict(kw)
    if mode == "trilinear_ac":
        mode, kw["align_corners"] = "trilinear", True
    check(lambda lib, x: F(lib).interpolate(x, mode=mode, **kw), arr((1, 2, 3, 4, 5), dtype, 2))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["nearest-exact", "area"])
@pytest.mark.parametrize("case", [((2, 3, 9), {"scale_factor": 0.37}), ((2, 3, 5), {"size": 11}),
                                  ((2, 3, 5), {"size": 1}), ((1, 2, 9, 7), {"size": (4, 13)}),
                                  ((1, 2, 9, 7), {"scale_factor": (0.4, 2.6)}),
                                  ((1, 2, 9, 7), {"size": 1})])
def test_nearest_exact_and_area(dtype, mode, case):
    shape, kw = case
    check(lambda lib, x: F(lib).interpolate(x, mode=mode, **kw), arr(shape, dtype, 3))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
@pytest.mark.parametrize("kw", [{"size": (3, 2)}, {"size": (2, 5)}, {"size": (9, 4)},
                                {"size": (9, 13)}, {"scale_factor": 0.3},
                                {"scale_factor": (0.3, 2.5)}, {"size": 4, "align_corners": True}])
def test_antialias(dtype, mode, kw):
    if mode == "lanczos" and "align_corners" in kw:
        kw = {"size": 4}
    check(lambda lib, x: F(lib).interpolate(x, mode=mode, antialias=True, **kw),
          arr((2, 3, 9, 13), dtype, 4))


def test_bit_exact_float32():
    """Where torch's kernel is mirrored step by step, float32 results are bit-identical."""
    x = np.random.default_rng(0).standard_normal((2, 3, 5, 6)).astype(np.float32)
    x5 = np.random.default_rng(1).standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
    for ac in (False, True):
        for kw in ({"size": (7, 9)}, {"size": (11, 2)}, {"scale_factor": 1.7},
                   {"scale_factor": (0.5, 3.3)}):
            t, e = _both(x, mode="bicubic", align_corners=ac, **kw)
            np.testing.assert_array_equal(t, e)
        for kw in ({"size": (5, 7, 2)}, {"scale_factor": 1.7}, {"scale_factor": 2.0}):
            t, e = _both(x5, mode="trilinear", align_corners=ac, **kw)
            np.testing.assert_array_equal(t, e)
    for mode in ("nearest", "nearest-exact"):
        for kw in ({"size": (5, 7, 2)}, {"scale_factor": 1.7}, {"scale_factor": 0.37}):
            t, e = _both(x5, mode=mode, **kw)
            np.testing.assert_array_equal(t, e)
    for mode in ("bilinear", "bicubic"):    # antialiased: within one ulp of the output's scale
        t, e = _both(x, mode=mode, antialias=True, size=(3, 2))
        np.testing.assert_allclose(e, t, rtol=0, atol=2.5e-7)


def test_double_backward_names():
    x = arr((1, 2, 5, 6), "float64", 5)
    for kw, name in (({"mode": "bicubic"}, "UpsampleBicubic2DBackwardBackward0"),
                     ({"mode": "bicubic", "antialias": True},
                      "UpsampleBicubic2DAaBackwardBackward0"),
                     ({"mode": "bilinear", "antialias": True},
                      "UpsampleBilinear2DAaBackwardBackward0"),
                     ({"mode": "nearest-exact"}, "UpsampleNearestExact2DBackwardBackward0")):
        a = ember.from_numpy(x).requires_grad_()
        y = EF.interpolate(a, size=3, **kw)
        g, = ember.autograd.grad((y * y).sum(), a, create_graph=True)
        assert g.grad_fn.name() == name
    x5 = arr((1, 2, 3, 4, 5), "float64", 5)
    for mode, name in (("trilinear", "UpsampleTrilinear3DBackwardBackward0"),
                       ("nearest", "UpsampleNearest3DBackwardBackward0"),
                       ("area", "AdaptiveAvgPool3DBackwardBackward0")):
        a = ember.from_numpy(x5).requires_grad_()
        y = EF.interpolate(a, size=2, mode=mode)
        g, = ember.autograd.grad((y * y).sum(), a, create_graph=True)
        assert g.grad_fn.name() == name


def test_gradcheck():
    x = ember.from_numpy(arr((1, 2, 4, 5), "float64", 6)).requires_grad_()
    x5 = ember.from_numpy(arr((1, 1, 3, 2, 4), "float64", 6)).requires_grad_()
    for fn in (lambda a: EF.interpolate(a, size=(5, 3), mode="bicubic"),
               lambda a: EF.interpolate(a, size=(2, 7), mode="bicubic", align_corners=True),
               lambda a: EF.interpolate(a, size=(2, 3), mode="bicubic", antialias=True),
               lambda a: EF.interpolate(a, size=(3, 2), mode="bilinear", antialias=True),
               lambda a: EF.interpolate(a, size=(3, 7), mode="nearest-exact")):
        assert ember.autograd.gradcheck(fn, (x,))
        assert ember.autograd.gradgradcheck(fn, (x,))
    for fn in (lambda a: EF.interpolate(a, size=(4, 3, 5), mode="trilinear"),
               lambda a: EF.interpolate(a, size=(2, 3, 3), mode="area"),
               lambda a: EF.adaptive_avg_pool3d(a, (2, None, 3))):
        assert ember.autograd.gradcheck(fn, (x5,))
        assert ember.autograd.gradgradcheck(fn, (x5,))


def test_adaptive_avg_pool3d():
    for size in ((2, 3, 2), 1, (1, 1, 1), (None, 2, 5)):
        check(lambda lib, x, s=size: F(lib).adaptive_avg_pool3d(x, s),
              arr((2, 3, 5, 4, 6), "float32", 7))


def test_errors():
    x4 = arr((1, 2, 5, 6), "float32", 1)
    x3 = arr((1, 2, 5), "float32", 1)
    x5 = arr((1, 2, 3, 4, 5), "float32", 1)
    for x, kw in ((x3, {"size": 3, "mode": "bicubic"}), (x5, {"size": 3, "mode": "bicubic"}),
                  (x3, {"size": 3, "mode": "trilinear"}), (x4, {"size": 3, "mode": "trilinear"}),
                  (x5, {"size": 3, "mode": "bilinear"}), (x5, {"size": 3, "mode": "linear"}),
                  (x4, {"size": 3, "mode": "nearest", "antialias": True}),
                  (x5, {"size": 3, "mode": "trilinear", "antialias": True}),
                  (x4, {"size": 3, "mode": "lanczos"}),
                  (x4, {"size": 3, "mode": "lanczos", "antialias": True, "align_corners": True}),
                  (x4, {"size": 3, "mode": "area", "align_corners": False}),
                  (x4, {"size": 3, "mode": "nearest-exact", "align_corners": True}),
                  (x4, {"size": (3, 0), "mode": "bicubic"}),
                  (x5, {"size": (3, 0, 2), "mode": "trilinear"}),
                  (x5, {"size": 3, "scale_factor": 2, "mode": "area"})):
        check(lambda lib, a, kw=kw: F(lib).interpolate(a, **kw), x)


def test_upsample_module():
    x = arr((1, 2, 3, 4, 5), "float32", 8)
    for args in ({"scale_factor": 2, "mode": "trilinear"}, {"size": (2, 3, 4), "mode": "area"},
                 {"scale_factor": (1.5, 2, 0.5), "mode": "nearest-exact"}):
        assert repr(ember.nn.Upsample(**args)) == repr(torch.nn.Upsample(**args))
        check(lambda lib, a, args=args: lib.nn.Upsample(**args)(a), x)
    check(lambda lib, a: lib.nn.Upsample(scale_factor=1.5, mode="bicubic",
                                         recompute_scale_factor=True)(a), x[0])
