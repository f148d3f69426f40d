"""The chained float32 fused multiply-adds and the Sleef kernels built on them give, bit for
bit, what the step-by-step reference (:func:`ember._ops._exact.fma` at every step) gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember._ops import _exact, _sleef

_f32 = np.float32


def _ref_fma(a, b, c):
    """The float32 fma from the exact sum's error (the definition the fast paths keep)."""
    p = a.astype(np.float64) * b
    s = p + c
    r = s.astype(np.float32)
    half = (s.view(np.int64) & 0x1FFFFFFF) == 0x10000000
    bb = s - p
    err = (p - (s - bb)) + (c - bb)
    nudged = np.where(err > 0, np.nextafter(s, np.inf), np.nextafter(s, -np.inf))
    return np.where(half & (err != 0), nudged.astype(np.float32), r)


def _same(a, b):
    a, b = np.asarray(a, _f32), np.asarray(b, _f32)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


floats = st.floats(width=32, allow_nan=False)
arrays = st.lists(st.tuples(floats, floats, floats), min_size=1, max_size=40)


def _midpoint_cases():
    """a * b + c whose double sum lies halfway between two floats, exactly or not."""
    h = 1 + 2.0 ** -12                  # h * h = 1 + 2^-11 + 2^-24, a midpoint
    a = np.array([h, h, h, h, 2 * h, h], _f32)
    b = np.array([h, h, -h, -h, h, h], _f32)
    c = np.array([2.0 ** -80, -(2.0 ** -80), -(2.0 ** -80), 2.0 ** -80, 2.0 ** -79, 0], _f32)
    return a, b, c


@settings(max_examples=300, deadline=None)
@given(arrays)
def test_fma_is_the_reference(rows):
    a, b, c = (np.array(col, _f32) for col in zip(*rows))
    with np.errstate(all="ignore"):
        assert _same(_exact.fma(a, b, c), _ref_fma(a, b, c))


@settings(max_examples=300, deadline=None)
@given(arrays)
def test_chain_is_the_reference_where_it_claims_no_midpoint(rows):
    a, b, c = (np.array(col, _f32) for col in zip(*rows))
    with np.errstate(all="ignore"):
        ch = _exact.FmaChain(a.shape, 3)
        r = [ch.fma(a, b, c), ch.fms(a, b, c), ch.nfma(a, b, c)]
        ref = [_ref_fma(a, b, c), _ref_fma(a, b, -c), _ref_fma(-a, b, c)]
        mid = ch.midpoints()
    ok = np.ones(a.shape, bool) if mid is None else ~mid
    for x, y in zip(r, ref):
        assert _same(x[ok], y[ok])


def test_chain_flags_the_double_roundings():
    a, b, c = _midpoint_cases()
    with np.errstate(all="ignore"):
        ch = _exact.FmaChain(a.shape, 1)
        r = ch.fma(a, b, c)
        ref = _ref_fma(a, b, c)
        assert _same(_exact.fma(a, b, c), ref)
    mid = ch.midpoints()                # inexact sums on a midpoint; not the exact one
    assert mid is not None and mid.tolist() == [True] * 5 + [False]
    wrong = r.view(np.int32) != ref.view(np.int32)      # the double roundings among them
    assert wrong.tolist() == [True, False, True, False, True, False]
    for op, ref_c in (("fms", -c), ("nfma", c)):
        ch = _exact.FmaChain(a.shape, 1)
        with np.errstate(all="ignore"):
            r = getattr(ch, op)(a, b, c) if op == "fms" else ch.nfma(-a, b, c)
        got = ch.midpoints()
        assert got is not None and got.tolist() == mid.tolist()
        assert _same(np.where(got, _ref_fma(a, b, ref_c), r), _ref_fma(a, b, ref_c))
    assert _exact.FmaChain(a.shape, 1).midpoints() is None


def _kernel_inputs(rng):
    bits = rng.integers(0, 2 ** 32, 20000, dtype=np.uint64).astype(np.uint32).view(_f32)
    typical = (rng.standard_normal(20000) * 30).astype(_f32)
    edges = np.array([0, -0.0, np.inf, -np.inf, np.nan, -104, -104.00001, 100, 100.00001,
                      -86, 87, -87.5, 88.7, 88.8, 1e-40, -1e-40, 1.1754944e-38, 3.4e38,
                      0.75, 1.5, 1, 2], _f32)
    return np.concatenate([bits, typical, np.abs(typical), edges])


@pytest.mark.parametrize("name", ["expf", "logf"])
def test_sleef_kernels_are_the_step_by_step_reference(name):
    fast, ref = getattr(_sleef, name), getattr(_sleef, f"_{name}_ref")
    x = _kernel_inputs(np.random.default_rng(0))
    assert _same(fast(x), ref(x))                               # several chunks
    for shape in [(128, 10), (7,), (), (0,), (3, 5, 2)]:
        y = x[:int(np.prod(shape, dtype=np.int64))].reshape(shape)
        assert _same(fast(y), ref(y))
    z = x[:600].reshape(20, 30)
    for view in (z.T, z[:, ::3], z[::-1]):
        r = fast(view)
        assert _same(r, ref(view)) and r.strides == ref(view).strides


@pytest.mark.parametrize("name", ["expf", "logf"])
def test_sleef_kernels_redo_the_flagged_elements(name, monkeypatch):
    """Every element flagged as a possible double rounding takes the reference."""
    x = _kernel_inputs(np.random.default_rng(1))[:5000]
    x = x[np.isfinite(x)]
    want = getattr(_sleef, f"_{name}_ref")(x)
    if name == "logf":          # a window over every double: every sum is suspect
        monkeypatch.setattr(_sleef, "_LOG_WIN", (np.int64(0), np.int64(1 << 29)))
    else:
        monkeypatch.setattr(_exact.FmaChain, "midpoints", lambda self: np.ones(x.shape, bool))
    assert _same(getattr(_sleef, name)(x), want)


@settings(max_examples=200, deadline=None)
@given(st.lists(floats | st.just(float("nan")), min_size=1, max_size=64))
def test_sleef_kernels_on_any_floats(vals):
    x = np.array(vals, _f32)
    for name in ("expf", "logf"):
        assert _same(getattr(_sleef, name)(x), getattr(_sleef, f"_{name}_ref")(x))


@pytest.fixture(params=["fused", "emulated"])
def fma_path(request, monkeypatch):
    """Each float64 fma test on both paths: NumPy's fused ``vecdot`` loop (where this NumPy
    has one) and the error-free emulation."""
    if request.param == "fused":
        if not _exact._fused_works():
            pytest.skip("this NumPy's vecdot does not fuse")
    monkeypatch.setattr(_exact, "_FUSED", [request.param == "fused"])
    return request.param


def test_float64_fused_fma_is_glibc_fma(fma_path):
    """Random operands whose product nearly cancels the addend (where a second rounding
    shows), over the whole exponent range: glibc's fma, bit for bit."""
    rng = np.random.default_rng(11)
    n = 20000
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    c = -(a * b) * (1 + rng.standard_normal(n) * 2.0 ** -45)
    c[::3] = rng.standard_normal(c[::3].size) * 2.0 ** rng.integers(-1074, 1000, c[::3].size)
    a[::7] *= 2.0 ** rng.integers(-600, 500, a[::7].size)
    with np.errstate(all="ignore"):
        assert _exact.fma(a, b, c).tobytes() == _c_fma(a, b, c).tobytes()


@pytest.mark.parametrize("scale_a,scale_b", [(1e305, 1.0), (1e300, 1e7), (1.0, 1e306)])
def test_float64_fma_near_the_largest_double(scale_a, scale_b, fma_path):
    """Splitting an operand near 1.8e308 overflows Dekker's product; the error term then
    comes from the mantissas, and the result is still the exactly rounded a * b + c."""
    from fractions import Fraction

    rng = np.random.default_rng(3)
    a = rng.uniform(-2, 2, 300) * scale_a
    b = rng.uniform(-1.5, 1.5, 300) * scale_b
    c = rng.standard_normal(300) * scale_a * scale_b * rng.choice([1, 1e-10, 1e-17], 300)
    got = _exact.fma(a, b, c)
    want = [float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)]
    np.testing.assert_array_equal(got, np.array(want))


def test_float64_fma_with_infinities_and_subnormal_products(fma_path):
    """An infinite product or addend gives IEEE's infinity or nan (not Dekker's inf - inf),
    and a product in the subnormals (whose error Dekker's split cannot hold) the exactly
    rounded result."""
    from fractions import Fraction

    inf = np.inf
    a = np.array([1e200, 2.0, 0.5, -inf, 3.0, 1e300, 0.0])
    b = np.array([1e200, inf, 1.0, 2.0, 4.0, -1e300, inf])
    c = np.array([1.0, -1.0, inf, inf, -inf, 5.0, 1.0])
    want = a * b + c
    with np.errstate(invalid="ignore"):
        got = _exact.fma(a, b, c)
    np.testing.assert_array_equal(got, want)
    rng = np.random.default_rng(5)
    x = rng.uniform(-40, -36, 200)
    tiny = np.exp(-x * x / 2) * 0.4
    c = np.where(rng.random(200) < 0.5, 0.0, tiny * rng.standard_normal(200))
    got = _exact.fma(x, tiny, c)
    want = [float(Fraction(p) * Fraction(q) + Fraction(r)) for p, q, r in zip(x, tiny, c)]
    np.testing.assert_array_equal(got, np.array(want))


def _c_fma(a, b, c):
    """glibc's ``fma``, correctly rounded whether or not the CPU fuses."""
    import ctypes
    import ctypes.util

    fn = ctypes.CDLL(ctypes.util.find_library("m")).fma
    fn.restype, fn.argtypes = ctypes.c_double, [ctypes.c_double] * 3
    return np.array(list(map(fn, a.tolist(), b.tolist(), c.tolist())))


def test_float64_fma_tiny_products_and_small_addends(fma_path):
    """Products under the subnormals' reach of Dekker's split, with addends of every size
    (zero, subnormal, the negated product, large enough to swallow it): the exactly
    rounded result, signed zeros included, and the tiny product's own rounding error."""
    rng = np.random.default_rng(8)
    n = 20000

    def spread(lo, hi):
        return np.sign(rng.standard_normal(n)) * np.exp2(rng.uniform(lo, hi, n))
    a, b = spread(-1100, 0), spread(-1100, 0)
    p = a * b
    c = rng.choice([0.0, -0.0, 5e-324, -5e-324, 2.0 ** -1022], n)
    c = np.where(rng.random(n) < 0.4, spread(-1150, -800), c)
    c = np.where(rng.random(n) < 0.2, -p * (1 + rng.integers(-3, 4, n) * 2.0 ** -52), c)
    a[:4], b[:4], c[:4] = 0.0, [1.0, -1.0, 1e-300, -0.0], [-0.0, -0.0, 0.0, -0.0]
    assert _exact.fma(a, b, c).tobytes() == _c_fma(a, b, c).tobytes()
    tiny = np.abs(p) < _exact._DEKKER_MIN
    pe = _exact._tiny_product_error(a[tiny], b[tiny], p[tiny])
    assert pe.tobytes() == _c_fma(a[tiny], b[tiny], -p[tiny]).tobytes()


def test_float64_fma_overflowing_product_infinite_addend(fma_path):
    a, b = np.array([-6.5, 3.0]), np.array([1.7976931348623157e308, -1e308])
    c = np.array([np.inf, -np.inf])
    with np.errstate(all="ignore"):
        assert _exact.fma(a, b, c).tolist() == [np.inf, -np.inf]
