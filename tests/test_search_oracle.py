"""max, min, amax, amin, argmax, argmin, maximum, minimum against torch."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import NC, arr, check

TIES = np.array([[1.0, 3.0, 3.0], [2.0, 0.0, 5.0]], np.float32)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("x", [arr((3, 4)), arr((2, 3, 4), seed=3), TIES], ids=["2d", "3d", "ties"])
def test_full_and_dim_reductions(dtype, x):
    x = x.astype(dtype)
    check(lambda t, a: a.max(), x)
    check(lambda t, a: a.min(), x)
    for dim in (0, 1, -1):
        for keepdim in (False, True):
            check(lambda t, a, d=dim, k=keepdim: tuple(a.max(d, keepdim=k)), x)
            check(lambda t, a, d=dim, k=keepdim: tuple(t.min(a, dim=d, keepdim=k)), x)
            check(lambda t, a, d=dim, k=keepdim: a.amax(d, keepdim=k), x)
            check(lambda t, a, d=dim, k=keepdim: t.amin(a, d, k), x)
            check(lambda t, a, d=dim, k=keepdim: a.argmax(d, keepdim=k), x, grad=False)
            check(lambda t, a, d=dim, k=keepdim: a.argmin(d, k), x, grad=False)
    check(lambda t, a: a.amax((0, 1)), x)
    check(lambda t, a: a.argmax(), x, grad=False)


def test_non_contiguous_and_elementwise():
    check(lambda t, a: a.max(0).values, NC(arr((3, 4))))
    check(lambda t, a, b: t.maximum(a, b), arr((3, 4)), arr((4,), seed=5))
    check(lambda t, a, b: t.minimum(a, b), arr((3, 1)), arr((1, 4), seed=5))
    check(lambda t, a, b: t.max(a, b), TIES, np.full((2, 3), 3.0, np.float32))


def test_errors_and_return_type():
    check(lambda t, a: a.max(3), arr((2, 3)))
    check(lambda t, a: t.empty(0).max(), arr((2,)))
    r = ember.tensor([[1.0, 2.0]]).max(1)
    assert repr(r) == "torch.return_types.max(\nvalues=tensor([2.]),\nindices=tensor([1]))"
    values, indices = r
    assert indices.dtype is ember.int64


def test_gradcheck():
    x = ember.tensor(arr((3, 4), "float64"), requires_grad=True)
    assert ember.autograd.gradcheck(lambda a: a.max(1).values, (x,))
    assert ember.autograd.gradcheck(lambda a: a.amin(0), (x,))
    assert ember.autograd.gradcheck(lambda a: a.max(), (x,))
