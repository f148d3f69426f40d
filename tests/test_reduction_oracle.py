"""Reductions against torch: sum, mean, prod, var/std (+ _mean), norm, vector_norm, logsumexp,
cumsum, cumprod, cummax, cummin, all, any, count_nonzero, nansum, nanmean; NaN, empty, 0-d."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import NC, Raw, arr, caught_warnings, check

NAN = float("nan")
FLOATS = ["float32", "float64"]
WITH_NAN = np.array([[1.0, NAN, 3.0], [2.0, 0.5, -1.0]], np.float32)
ZEROS = np.array([[1.0, 0.0, 3.0, 2.0], [0.0, 2.0, 0.0, 1.5], [1.5, -2.0, 0.5, 3.0]])
DIMS = [None, 0, 1, -1, (0, 1), (1,)]


def _dims(fn):
    """Call ``fn(dim, keepdim)`` for every dim form and keepdim."""
    for d in DIMS:
        for k in (False, True):
            fn(d, k)


@pytest.mark.parametrize("dtype", FLOATS)
def test_sum_mean(dtype):
    x = arr((3, 4), dtype)

    def run(d, k):
        if d is None:
            check(lambda t, a: a.sum(), x)
            check(lambda t, a: t.mean(a), x)
        else:
            check(lambda t, a: a.sum(d, keepdim=k), x)
            check(lambda t, a: t.mean(a, d, k), x)
    _dims(run)
    check(lambda t, a: a.sum(()), x)
    check(lambda t, a: a.sum(dtype=t.float64), x)
    check(lambda t, a: a.sum(0, dtype=t.float16), x)
    check(lambda t, a: a.mean(dtype=t.float64), x)
    check(lambda t, a: a.sum(1), NC(x))


def test_sum_mean_ints_and_errors():
    i = arr((3, 4), "int32")
    check(lambda t, a: a.sum(), i)
    check(lambda t, a: a.sum(0), arr((3,), "bool"))
    check(lambda t, a: a.sum(0), arr((3,), "uint8"))
    check(lambda t, a: a.sum(dtype=t.float32), i)
    check(lambda t, a: (a * 1.5).sum(dtype=t.int32), arr((3,)), grad=False)
    check(lambda t, a: a.mean(), i)
    check(lambda t, a: a.mean(dtype=t.float64), i)
    check(lambda t, a: a.sum(3), i)
    check(lambda t, a: a.sum((0, 0)), i)
    check(lambda t, a: a.mean(dim=[1, 1]), arr((2, 3)))


@pytest.mark.parametrize("dtype", FLOATS)
def test_prod(dtype):
    for x in (arr((3, 4), dtype), ZEROS.astype(dtype), NC(arr((3, 4), dtype, seed=2))):
        check(lambda t, a: a.prod(), x)
        for d in (0, 1, -1):
            check(lambda t, a, d=d: a.prod(d), x)
            check(lambda t, a, d=d: t.prod(a, d, True), x)
    check(lambda t, a: a.prod(dtype=t.float64), arr((3,), dtype))
    check(lambda t, a: a.prod(0), np.array([0.0, 0.0, 2.0], dtype))
    check(lambda t, a: a.prod(), np.array([0.0, 0.0, 2.0], dtype))
    check(lambda t, a: a.prod(), np.array([1.5, 0.0, 2.0], dtype))


def test_prod_ints_and_errors():
    check(lambda t, a: a.prod(), arr((2, 3), "int32"))
    check(lambda t, a: a.prod(1), arr((2, 3), "uint8"))
    check(lambda t, a: a.prod(), arr((3,), "bool"))
    check(lambda t, a: a.prod(0, dtype=t.float32), arr((2, 3), "int64"))
    check(lambda t, a: a.prod((0, 1)), arr((2, 3)))
    check(lambda t, a: a.prod(dim=None), arr((2, 3)))
    check(lambda t, a: a.prod(2), arr((2, 3)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("fn", ["var", "std"])
def test_var_std(dtype, fn):
    x = arr((3, 4), dtype)

    def run(d, k):
        check(lambda t, a: getattr(a, fn)(d, keepdim=k), x)
        check(lambda t, a: getattr(t, fn)(a, d, correction=0, keepdim=k), x)
    _dims(run)
    check(lambda t, a: getattr(a, fn)(0, False), x)
    check(lambda t, a: getattr(a, fn)(False), x)
    check(lambda t, a: getattr(a, fn)(unbiased=False), x)
    check(lambda t, a: getattr(a, fn)(1, True, True), NC(x))
    check(lambda t, a: getattr(a, fn)(dim=1, correction=2), x)
    check(lambda t, a: getattr(a, fn)(), np.full((2, 2), 3.0, dtype))      # std 0: grad 0
    check(lambda t, a: getattr(a, fn)(0), arr((3, 4), "int64"))
    check(lambda t, a: getattr(a, fn)(3), x)


def test_var_degrees_of_freedom():
    for fn in ("var", "std"):
        for x in (np.array([2.0]), np.array(2.0), np.zeros((0,)), np.zeros((0, 3))):
            check(lambda t, a, fn=fn: getattr(a, fn)(), x)
        check(lambda t, a, fn=fn: getattr(a, fn)(0, correction=2), arr((2, 3), "float64"))
        check(lambda t, a, fn=fn: getattr(a, fn)(0), np.zeros((0, 3)))
        check(lambda t, a, fn=fn: getattr(a, fn)(correction=0), np.array(2.0))
    from .helpers import torch
    w = [caught_warnings(lambda t: t.ones(2, 3).var(0, correction=2), lib)
         for lib in (torch, ember)]
    assert w[0] == w[1] and w[0]


@pytest.mark.parametrize("fn", ["var_mean", "std_mean"])
def test_var_std_mean(fn):
    x = arr((3, 4), "float64")
    check(lambda t, a: getattr(t, fn)(a), x)
    check(lambda t, a: getattr(t, fn)(a, 0), x)
    check(lambda t, a: getattr(t, fn)(a, (0, 1), keepdim=True), x)
    check(lambda t, a: getattr(t, fn)(a, 1, correction=0), NC(x))
    check(lambda t, a: getattr(t, fn)(a, unbiased=False), arr((4,)))
    check(lambda t, a: getattr(t, fn)(a)[0], x)
    check(lambda t, a: getattr(t, fn)(a, 0)[1], x)


@pytest.mark.parametrize("dtype", FLOATS)
def test_norms(dtype):
    x = arr((3, 4), dtype)
    z = ZEROS.astype(dtype)
    for p in (2, 1, 3, 0.5, 1.5, 0, float("inf"), float("-inf"), -1, "fro"):
        check(lambda t, a, p=p: a.norm(p), x)
        check(lambda t, a, p=p: t.norm(a, p, 1), x)
        check(lambda t, a, p=p: a.norm(p, (0, 1), True), z)
        check(lambda t, a, p=p: a.norm(p=p, dim=0), NC(z))
    check(lambda t, a: a.norm(dtype=t.float64), x)
    check(lambda t, a: a.norm(), np.zeros((2, 2), dtype))
    check(lambda t, a: a.norm(2, 0), np.zeros((2, 2), dtype))
    check(lambda t, a: a.norm(float("inf"), 1), np.array([[1.0, -3.0, 3.0]], dtype))


def test_vector_norm_and_errors():
    x = arr((3, 4), "float64")
    for ord_ in (2, 1, 3.5, float("inf"), 0):
        check(lambda t, a, o=ord_: t.linalg.vector_norm(a, o), x)
        check(lambda t, a, o=ord_: t.linalg.vector_norm(a, o, (0,), True), x)
    check(lambda t, a: a.norm(), arr((3,), "int64"))
    check(lambda t, a: a.norm(), np.zeros((0,), np.float32))
    check(lambda t, a: a.norm(float("inf")), np.zeros((0,), np.float32))
    check(lambda t, a: a.norm(float("inf"), 1), np.zeros((0, 3), np.float32))
    check(lambda t, a: a.norm(float("inf"), 0), np.zeros((0, 3), np.float32))
    check(lambda t, a: a.norm(2), np.array(3.0))
    check(lambda t, a: a.norm(dim=(0, 0)), x)
    check(lambda t, a: t.linalg.vector_norm(a, "fro"), x)


@pytest.mark.parametrize("dtype", FLOATS)
def test_logsumexp(dtype):
    x = arr((3, 4), dtype, low=-5, high=5)
    for d in (0, 1, -1, (0, 1)):
        check(lambda t, a, d=d: a.logsumexp(d), x)
        check(lambda t, a, d=d: t.logsumexp(a, d, keepdim=True), NC(x))
    check(lambda t, a: a.logsumexp(0), np.array([[np.inf, 1.0], [1.0, -np.inf]], dtype),
          grad=False)
    check(lambda t, a: a.logsumexp(0), np.array([-np.inf, -np.inf], dtype), grad=False)
    check(lambda t, a: a.logsumexp(0), np.zeros((0,), dtype))
    check(lambda t, a: a.logsumexp(0), np.array(1.5, dtype))
    check(lambda t, a: a.logsumexp(1), arr((2, 3), "int64"))
    check(lambda t, a: a.logsumexp(()), x)
    check(lambda t, a: t.logsumexp(a), x)


@pytest.mark.parametrize("dtype", FLOATS)
def test_cumsum_cumprod(dtype):
    x = arr((3, 4), dtype)
    z = ZEROS.astype(dtype)
    for d in (0, 1, -1):
        check(lambda t, a, d=d: a.cumsum(d), x)
        check(lambda t, a, d=d: t.cumprod(a, d), x)
        check(lambda t, a, d=d: a.cumprod(d), z)
        check(lambda t, a, d=d: a.cumsum(dim=d), NC(x))
    check(lambda t, a: a.cumsum(0, dtype=t.float64), x)
    check(lambda t, a: a.cumsum(0), np.array(2.0, dtype))
    check(lambda t, a: a.cumprod(0), np.zeros((0, 2), dtype))
    check(lambda t, a: a.cumprod(1), np.array([[0.0, 0.0, 2.0, 3.0]], dtype))
    check(lambda t, a: a.cumsum(0), np.array([1.0, NAN, 2.0], dtype))


def test_cum_ints_inplace_errors():
    check(lambda t, a: a.cumsum(1), arr((2, 3), "int32"))
    check(lambda t, a: a.cumsum(0), arr((3,), "bool"))
    check(lambda t, a: a.cumprod(0), arr((3,), "uint8"))
    check(lambda t, a: a.cumsum(2), arr((2, 3)))
    check(lambda t, a: a.cumsum(-3), arr((2, 3)))
    check(lambda t, a: (a * 1).cumsum_(0), arr((2, 3)))
    check(lambda t, a: (a * 1).cumprod_(1), arr((2, 3), "float64"))
    check(lambda t, a: t.cumsum(a, 0, out=t.empty(0)), arr((2, 3)), grad=False)


@pytest.mark.parametrize("fn", ["cummax", "cummin"])
def test_cummax_cummin(fn):
    ties = np.array([[1.0, 3.0, 3.0, 2.0, 3.0], [2.0, 2.0, 1.0, 1.0, 0.0]])
    nan = np.array([1.0, NAN, 0.0, NAN, 2.0])
    for x in (arr((3, 4)), ties, nan, NC(arr((3, 4), "float64"))):
        for d in (0, -1):
            check(lambda t, a, d=d: tuple(getattr(a, fn)(d)), x)
    check(lambda t, a: tuple(getattr(t, fn)(a, 0)), np.array(2.0))
    check(lambda t, a: tuple(getattr(a, fn)(0)), np.zeros((0,)))
    check(lambda t, a: tuple(getattr(a, fn)(1)), arr((2, 4), "int64"))
    check(lambda t, a: tuple(getattr(a, fn)(0)), arr((4,), "bool"))
    check(lambda t, a: getattr(a, fn)(2), arr((2, 4)))
    r = ember.tensor([1.0, 3.0]).cummax(0)
    assert repr(r).startswith("torch.return_types.cummax(\nvalues=tensor([1., 3.])")


def test_all_any_count_nonzero():
    x = np.array([[1.0, 0.0, 2.0], [3.0, 4.0, 5.0]], np.float32)
    for fn in ("all", "any"):
        for spec in (x, x.astype("int64"), x.astype("uint8"), x.astype(bool), NC(x)):
            check(lambda t, a, fn=fn: getattr(a, fn)(), spec, grad=False)
            check(lambda t, a, fn=fn: getattr(t, fn)(a, 0), spec, grad=False)
            check(lambda t, a, fn=fn: getattr(a, fn)(1, True), spec, grad=False)
            check(lambda t, a, fn=fn: getattr(a, fn)(dim=(0, 1)), spec, grad=False)
        check(lambda t, a, fn=fn: getattr(a, fn)(), np.zeros((0,)), grad=False)
        check(lambda t, a, fn=fn: getattr(a, fn)(0), np.array(0.0), grad=False)
        check(lambda t, a, fn=fn: getattr(a, fn)(), np.array([NAN]), grad=False)
        check(lambda t, a, fn=fn: getattr(a, fn)(2), x, grad=False)
    for spec in (x, x.astype(bool), np.array(3.0), np.zeros((0, 2))):
        check(lambda t, a: a.count_nonzero(), spec, grad=False)
    check(lambda t, a: a.count_nonzero(0), x, grad=False)
    check(lambda t, a: t.count_nonzero(a, dim=(0, 1)), x, grad=False)
    check(lambda t, a: a.count_nonzero(-1), NC(x), grad=False)


def test_nansum_nanmean():
    x = np.array([[1.0, NAN, 3.0], [NAN, NAN, -1.0]])
    for spec in (x, x.astype(np.float32), NC(x)):
        check(lambda t, a: a.nansum(), spec)
        check(lambda t, a: a.nanmean(), spec)
        for d in (0, 1, (0, 1)):
            check(lambda t, a, d=d: t.nansum(a, d), spec)
            check(lambda t, a, d=d: a.nanmean(d, keepdim=True), spec)
    check(lambda t, a: a.nansum(dtype=t.float64), x.astype(np.float32))
    check(lambda t, a: a.nansum(0), arr((2, 3), "int32"))
    check(lambda t, a: a.nansum(), arr((3,), "bool"))
    check(lambda t, a: a.nanmean(), arr((3,), "int64"))
    check(lambda t, a: a.nanmean(), np.zeros((0,)))
    check(lambda t, a: a.nansum(), np.zeros((0,)))
    check(lambda t, a: a.nansum(), np.array(NAN))


def test_max_min_nan_and_gradcheck():
    check(lambda t, a: a.max(), WITH_NAN)
    check(lambda t, a: a.min(), WITH_NAN)
    check(lambda t, a: tuple(a.max(1)), WITH_NAN)
    check(lambda t, a: tuple(a.min(0)), WITH_NAN)
    check(lambda t, a: a.amax(1), WITH_NAN, grad=False)
    check(lambda t, a: a.argmax(1), WITH_NAN, grad=False)
    check(lambda t, a: a.argmin(), WITH_NAN, grad=False)
    check(lambda t, a: a.max(), np.array(2.0))
    check(lambda t, a: tuple(a.max(0)), np.array(2.0))


def test_gradcheck():
    gc = ember.autograd.gradcheck
    x = ember.tensor(arr((3, 4), "float64", positive=True), requires_grad=True)
    z = ember.tensor(ZEROS, requires_grad=True)
    for f in (lambda a: a.prod(), lambda a: a.prod(1), lambda a: a.var(0), lambda a: a.std(),
              lambda a: ember.var_mean(a, 1), lambda a: ember.std_mean(a),
              lambda a: a.norm(), lambda a: a.norm(3, 1), lambda a: a.norm(1.5),
              lambda a: a.norm(0.5, 0), lambda a: a.norm(float("inf"), 1),
              lambda a: a.logsumexp(1), lambda a: a.cumsum(0), lambda a: a.cumprod(1),
              lambda a: a.cummax(1).values, lambda a: a.nansum(0), lambda a: a.nanmean()):
        assert gc(f, (x,))
    for f in (lambda a: a.prod(), lambda a: a.prod(0), lambda a: a.cumprod(1),
              lambda a: a.cumprod(0)):
        assert gc(f, (z,))
        assert ember.autograd.gradgradcheck(f, (z,))
    assert ember.autograd.gradgradcheck(lambda a: a.std(1), (x,))
    assert ember.autograd.gradgradcheck(lambda a: a.norm(3), (x,))


def test_out_forms():
    check(lambda t, a: t.prod(a, 0, out=t.empty(4)), arr((3, 4)), grad=False)
    check(lambda t, a: t.var(a, 1, out=t.empty(3)), arr((3, 4)), grad=False)
    check(lambda t, a: t.logsumexp(a, 1, out=t.empty(3)), arr((3, 4)), grad=False)
    check(lambda t, a: t.all(a, 1, out=t.empty(3, dtype=t.bool)), arr((3, 4)), grad=False)
    check(lambda t, a: t.norm(a, 2, 1, out=t.empty(3)), arr((3, 4)), grad=False)
    check(lambda t, a: t.nanmean(a, 0, out=t.empty(4)), arr((3, 4)), grad=False)


def test_raw_dim_forms():
    check(lambda t, a, d: a.sum(d), arr((2, 3)), Raw([0, 1]))
    check(lambda t, a, d: a.var(d), arr((2, 3)), Raw([1]))
