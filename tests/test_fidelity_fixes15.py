"""Differences from torch closed in the fifteenth fidelity pass (what ``tools/fuzz_ops.py``
found), each case compared with torch: bfloat16 gradients of cumprod, logcumsumexp, div,
pow, xlogy, logaddexp2 and ldexp composed of bfloat16 operations.
"""

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn, strides=True):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn), strides)


# ------------------------------------------------------------- bfloat16 gradients

_RNG = np.random.default_rng(1)
_A = (_RNG.standard_normal(64) * 2).astype(np.float32)
_B = (_RNG.standard_normal(64) * 2).astype(np.float32)
_POS = np.abs(_A) + 0.1

BINARY_BACKWARD = {
    "cumprod": (_A, _B, lambda L, x, y: L.cumprod(x.reshape(8, 8), 1)),
    "logcumsumexp": (_A, _B, lambda L, x, y: L.logcumsumexp(x.reshape(8, 8).T, 0)),
    "div": (_A, _B, lambda L, x, y: L.div(x, y)),
    "true_divide": (_A, _B, lambda L, x, y: L.true_divide(x, y)),
    "div by a number": (_A, _B, lambda L, x, y: x / 3.0 + y),
    "pow": (_POS, _B, lambda L, x, y: L.pow(x, y)),
    "pow of a number exponent": (_A, _B, lambda L, x, y: L.pow(x, -2) + y),
    "xlogy": (_POS, _POS, lambda L, x, y: L.xlogy(x, y)),
    "xlogy of a number self": (_POS, _POS, lambda L, x, y: L.xlogy(2.5, y) + x),
    "xlogy of a number other": (_POS, _POS, lambda L, x, y: L.xlogy(x, 2.5) + y),
    "logaddexp2": (_A, _B, lambda L, x, y: L.logaddexp2(x, y)),
    "ldexp": (_A, _B, lambda L, x, y: L.ldexp(x, y)),
}


@pytest.mark.parametrize("case", BINARY_BACKWARD)
def test_bfloat16_backward_composed_in_the_type(case):
    # derivatives.yaml's formulas run as bfloat16 ops, each rounding to bfloat16
    a, b, f = BINARY_BACKWARD[case]

    def fn(L):
        x = L.from_numpy(a.copy()).bfloat16().requires_grad_()
        y = L.from_numpy(b.copy()).bfloat16().requires_grad_()
        out = f(L, x, y)
        g = L.from_numpy(np.linspace(-3, 3, out.numel()).astype(np.float32))
        out.backward(g.reshape(out.shape).bfloat16())
        return x.grad, y.grad
    _same(fn)
