"""Float64 gradcheck for products, selections and conversions, and addmm against torch."""

from __future__ import annotations

import pytest

import ember
from ember.autograd import gradcheck

from .helpers import arr, check


def t(shape, seed=0):
    return ember.tensor(arr(shape, "float64", seed), requires_grad=True)


CASES = {
    "mm": (lambda a, b: a.mm(b), [(3, 4), (4, 2)]),
    "bmm": (lambda a, b: a.bmm(b), [(2, 3, 4), (2, 4, 2)]),
    "mv": (lambda a, v: a.mv(v), [(3, 4), (4,)]),
    "dot": (lambda a, b: a.dot(b), [(4,), (4,)]),
    "vdot": (lambda a, b: ember.vdot(a, b), [(4,), (4,)]),
    "outer": (lambda a, b: ember.outer(a, b), [(3,), (4,)]),
    "addmm": (lambda c, a, b: ember.addmm(c, a, b, beta=0.5, alpha=2.0), [(3, 2), (3, 4), (4, 2)]),
    "addmv": (lambda c, a, v: ember.addmv(c, a, v), [(3,), (3, 4), (4,)]),
    "baddbmm": (lambda c, a, b: ember.baddbmm(c, a, b), [(2, 3, 2), (2, 3, 4), (2, 4, 2)]),
    "diag": (lambda a: ember.diag(a), [(4, 4)]),
    "triu": (lambda a: a.triu(1), [(4, 4)]),
    "minimum": (lambda a, b: ember.minimum(a, b), [(3, 4), (4,)]),
    "min": (lambda a: a.min(1).values, [(3, 4)]),
    "cummin": (lambda a: a.cummin(1).values, [(3, 4)]),
    "vector_norm": (lambda a: ember.linalg.vector_norm(a, 3, dim=1), [(3, 4)]),
    "to": (lambda a: a.to(ember.float32).to(ember.float64) * 1.0, [(3,)]),
    "type_as": (lambda a, b: a.type_as(b), [(3,), (3,)]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_gradcheck(name):
    fn, shapes = CASES[name]
    inputs = tuple(t(s, seed=i + 1) for i, s in enumerate(shapes))
    if name == "to":
        assert gradcheck(fn, inputs, atol=1e-4, rtol=1e-3, eps=1e-3)
    else:
        assert gradcheck(fn, inputs)


def test_addmm_against_torch():
    check(lambda lib, c, a, b: lib.addmm(c, a, b), arr((3, 2)), arr((3, 4), seed=1),
          arr((4, 2), seed=2))
    check(lambda lib, c, a, b: lib.addmm(c, a, b, beta=0.5, alpha=2.0), arr((2,)),
          arr((3, 4), seed=1), arr((4, 2), seed=2))
