"""sort, argsort, msort, topk, kthvalue, median, nanmedian, mode, unique, unique_consecutive
against torch: values, indices (torch's tie and NaN rules), grads, grad_fns, errors."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import NC, arr, check

NAN = float("nan")
FLOATS = ["float32", "float64"]
TIES = np.array([[3.0, 1.0, 2.0, 1.0, 3.0, 2.0, 1.0], [2.0, 2.0, 2.0, 5.0, 5.0, 1.0, 1.0]])
WITH_NAN = np.array([[1.0, NAN, 0.0, NAN, 2.0], [4.0, 3.0, NAN, 3.0, 1.0]])
INTS = np.array([1, 3, 3, 1, 2, 1, 3], np.int64)


def _specs(dtype):
    return [arr((3, 5), dtype), TIES.astype(dtype), WITH_NAN.astype(dtype),
            NC(arr((4, 3), dtype, seed=4))]


@pytest.mark.parametrize("dtype", FLOATS)
def test_sort_argsort(dtype):
    for n, x in enumerate(_specs(dtype)):
        for d in (0, -1):
            for desc in (False, True):
                if n in (0, 3):     # no ties: the unstable sort's order is determined
                    check(lambda t, a, d=d, s=desc: tuple(a.sort(d, s)), x)
                check(lambda t, a, d=d, s=desc: tuple(t.sort(a, dim=d, descending=s,
                                                             stable=True)), x)
                check(lambda t, a, d=d, s=desc: a.argsort(dim=d, descending=s, stable=True), x,
                      grad=False)
    check(lambda t, a: a.msort(), arr((3, 4), dtype))
    check(lambda t, a: tuple(a.sort(stable=False)), arr((5,), dtype))


def test_sort_edge_cases():
    check(lambda t, a: tuple(a.sort()), np.array(3.0))
    check(lambda t, a: tuple(a.sort(0)), np.zeros((0, 3)))
    check(lambda t, a: tuple(a.sort(stable=True)), arr((4,), "bool"))
    check(lambda t, a: tuple(a.sort(descending=True, stable=True)), INTS)
    check(lambda t, a: tuple(a.sort(stable=True)), INTS.astype("int16"))
    check(lambda t, a: a.sort(2), arr((2, 3)))
    check(lambda t, a: a.argsort(), np.array(1.0), grad=False)


@pytest.mark.parametrize("dtype", FLOATS)
def test_topk(dtype):
    x = arr((3, 6), dtype)
    for k in (0, 1, 3, 6):
        check(lambda t, a, k=k: tuple(a.topk(k)), x)
        check(lambda t, a, k=k: tuple(t.topk(a, k, 0 if k <= 3 else 1, largest=False)), x)
    check(lambda t, a: tuple(a.topk(2, 0)), NC(arr((3, 4), dtype)))
    check(lambda t, a: tuple(a.topk(2)), np.array([1.0, NAN, 0.0, NAN, 2.0], dtype))
    check(lambda t, a: tuple(a.topk(2, largest=False)), np.array([1.0, NAN, 0.0, 2.0], dtype))
    check(lambda t, a: tuple(a.topk(1)), np.array(3.0, dtype))
    check(lambda t, a: tuple(a.topk(0)), np.array(3.0, dtype))
    check(lambda t, a: tuple(a.topk(0)), np.zeros((0,), dtype))
    check(lambda t, a: a.topk(4), arr((2, 3), dtype))
    check(lambda t, a: a.topk(2), np.array(3.0, dtype))
    check(lambda t, a: a.topk(1), arr((3,), "bool"))
    check(lambda t, a: tuple(a.topk(2, sorted=True)), arr((2, 5), "int32"))


@pytest.mark.parametrize("dtype", FLOATS)
def test_kthvalue(dtype):
    for x in _specs(dtype):
        for k in (1, 2, 3):
            check(lambda t, a, k=k: tuple(a.kthvalue(k, 0)), x)
            check(lambda t, a, k=k: tuple(t.kthvalue(a, k, -1, True)), x)
    big = np.random.default_rng(3).integers(0, 4, (5, 40)).astype(dtype)
    for k in (1, 7, 20, 33, 40):
        check(lambda t, a, k=k: tuple(a.kthvalue(k)), big)
    check(lambda t, a: tuple(a.kthvalue(5)), np.array([NAN, 1.0, NAN, NAN, 0.0, NAN], dtype))


def test_kthvalue_errors_and_edges():
    check(lambda t, a: tuple(a.kthvalue(1)), np.array(5.0))
    check(lambda t, a: tuple(a.kthvalue(1, 0)), np.zeros((3, 0)))
    check(lambda t, a: a.kthvalue(1), np.zeros((0,)))
    check(lambda t, a: a.kthvalue(0), arr((2, 3)))
    check(lambda t, a: a.kthvalue(4), arr((2, 3)))
    check(lambda t, a: a.kthvalue(2), np.array(5.0))
    check(lambda t, a: a.kthvalue(1), arr((3,), "bool"))
    check(lambda t, a: tuple(a.kthvalue(3)), INTS)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("fn", ["median", "nanmedian"])
def test_median(dtype, fn):
    for x in _specs(dtype) + [np.full((2, 3), NAN, dtype)]:
        check(lambda t, a: getattr(a, fn)(), x)
        for d in (0, -1):
            check(lambda t, a, d=d: tuple(getattr(a, fn)(d)), x)
            check(lambda t, a, d=d: tuple(getattr(t, fn)(a, d, keepdim=True)), x)
    check(lambda t, a: getattr(a, fn)(), np.zeros((0,), dtype))
    check(lambda t, a: getattr(a, fn)(), np.array(2.0, dtype))
    check(lambda t, a: tuple(getattr(a, fn)(0)), np.array(2.0, dtype))
    check(lambda t, a: tuple(getattr(a, fn)(1)), np.zeros((0, 3), dtype))
    check(lambda t, a: getattr(a, fn)(0), np.zeros((0, 3), dtype))
    check(lambda t, a: getattr(a, fn)(5), arr((2, 3), dtype))


def test_median_ints_bool():
    check(lambda t, a: tuple(a.median(0)), INTS)
    check(lambda t, a: a.median(), INTS)
    check(lambda t, a: a.median(), arr((3,), "bool"))
    check(lambda t, a: a.median(0), arr((3,), "bool"))


@pytest.mark.parametrize("dtype", FLOATS)
def test_mode(dtype):
    for x in (arr((3, 5), dtype), TIES.astype(dtype), NC(arr((4, 3), dtype, seed=4)),
              np.array([[1.0, 1.0, 2.0, 2.0, 3.0], [2.0, 2.0, 1.0, 1.0, 3.0]], dtype)):
        check(lambda t, a: tuple(a.mode()), x)
        check(lambda t, a: tuple(t.mode(a, 0, True)), x)
    check(lambda t, a: tuple(a.mode()), np.array(3.0, dtype))
    check(lambda t, a: tuple(a.mode(1)), np.zeros((0, 3), dtype))
    check(lambda t, a: a.mode(), np.zeros((0,), dtype))
    check(lambda t, a: tuple(a.mode()), INTS)
    check(lambda t, a: tuple(a.mode()), np.array([True, False, True]))


@pytest.mark.parametrize("spec", [np.array([3.0, 1, 2, 3, 5, 1, 4, NAN, NAN]),
                                  TIES, INTS, np.array([True, False, True]), np.array(3.0),
                                  np.zeros((0,))], ids=["nan", "ties", "ints", "bool", "0d",
                                                        "empty"])
def test_unique(spec):
    for inv in (False, True):
        for cnt in (False, True):
            check(lambda t, a, i=inv, c=cnt: t.unique(a, return_inverse=i, return_counts=c),
                  spec, grad=False)
            check(lambda t, a, i=inv, c=cnt: a.unique_consecutive(return_inverse=i,
                                                                  return_counts=c),
                  spec, grad=False)
    check(lambda t, a: a.unique(sorted=False), spec, grad=False)


def test_unique_dim_and_grad_fn():
    x = np.array([[1.0, 2.0], [1.0, 2.0], [0.0, 5.0], [1.0, 2.0]])
    for d in (0, 1, -1):
        check(lambda t, a, d=d: t.unique(a, dim=d, return_inverse=True, return_counts=True), x,
              grad=False)
        check(lambda t, a, d=d: a.unique_consecutive(dim=d, return_counts=True), x, grad=False)
    check(lambda t, a: a.unique(dim=0), np.zeros((0, 3)), grad=False)
    check(lambda t, a: a.unique(dim=0), np.array(3.0), grad=False)
    check(lambda t, a: a.unique(dim=2), x, grad=False)
    check(lambda t, a: a.unique(), x, grad=False)
    check(lambda t, a: a.unique(dim=1), x, grad=False)
    for f in (lambda t, a: a.unique(), lambda t, a: a.unique(dim=0),
              lambda t, a: a.unique_consecutive()):
        check(lambda t, a, f=f: f(t, a).sum().backward(), x)


def test_return_types_and_gradcheck():
    r = ember.tensor([[1.0, 2.0]]).sort(descending=True)
    assert repr(r) == ("torch.return_types.sort(\nvalues=tensor([[2., 1.]]),\n"
                       "indices=tensor([[1, 0]]))")
    assert type(r).__name__ == "sort" and r.indices.dtype is ember.int64
    for name in ("topk", "kthvalue", "median", "nanmedian", "mode"):
        out = getattr(ember.tensor([1.0, 2.0]), name)(*((1,) if name in ("topk", "kthvalue")
                                                        else (0,)))
        assert type(out).__name__ == name and len(out) == 2
    gc = ember.autograd.gradcheck
    x = ember.tensor(arr((3, 5), "float64"), requires_grad=True)
    for f in (lambda a: a.sort(1).values, lambda a: a.topk(2).values,
              lambda a: a.kthvalue(2, 0).values, lambda a: a.median(),
              lambda a: a.median(1).values, lambda a: a.nanmedian(0).values,
              lambda a: a.mode(1).values, lambda a: a.msort()):
        assert gc(f, (x,))
        assert ember.autograd.gradgradcheck(f, (x,))


@pytest.mark.parametrize("dtype", ["float32", "int64", "int16"])
def test_ties_follow_torch(dtype):
    """Unstable sort, topk and mode on tied rows give torch's indices (std::sort replay)."""
    rng = np.random.default_rng(7)
    for n in (7, 17, 70):
        x = rng.integers(0, 4, (3, n)).astype(dtype)
        if dtype == "float32":
            x[0, :3] = NAN
        for desc in (False, True):
            check(lambda t, a, s=desc: tuple(a.sort(descending=s)), x, grad=False)
            check(lambda t, a, s=desc: a.argsort(0, s), x, grad=False)
        for k in (1, 3, n // 2):
            for largest in (True, False):
                for srt in (True, False):
                    check(lambda t, a, k=k, g=largest, s=srt: tuple(a.topk(k, -1, g, s)), x,
                          grad=False)
        check(lambda t, a: tuple(a.mode()), x, grad=False)
