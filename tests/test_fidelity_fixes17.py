"""Differences from torch closed in the seventeenth fidelity pass (what ``tools/fuzz_ops.py``
found), each case compared with torch: the layout of an operand converted to the common
dtype, bfloat16 floor and trunc division.
"""

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn, strides=True):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn), strides)


def _bits(fn):
    """``fn``'s tensor results as bytes (signs of zero and NaN payloads aside, as torch's
    loops differ there), compared between the libraries."""
    def raw(lib):
        out = fn(lib)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        res = []
        for t in outs:
            a = t.detach().float().numpy() if t.dtype in (lib.bfloat16,) else \
                t.detach().resolve_conj().numpy()
            a = np.ascontiguousarray(a)
            if a.dtype.kind in "fc":
                a = np.where(np.isnan(a), 0, a)
            res.append((str(t.dtype), tuple(t.shape), a.tobytes()))
        return res
    assert raw(torch) == raw(ember)


# ------------------------------------------------------------- promoted operand layout

def test_promoted_expanded_operand_runs_torch_loop():
    """An expanded uint8 operand converted to float64 is copied contiguously (``Tensor.to``
    of a tensor that is not dense), so logaddexp2 runs its vector loop, not the scalar one."""
    a = np.arange(1, 9, dtype=np.uint8).reshape(1, 4, 2)
    b = np.random.default_rng(0).standard_normal((3, 4, 2)) * 3

    def fn(L):
        x = L.from_numpy(a.copy()).expand(3, 4, 2)
        return x.logaddexp2(L.from_numpy(b.copy())), x.double().stride(), (x + 0.5).stride()
    _same(fn)
    _bits(lambda L: L.from_numpy(a.copy()).expand(3, 4, 2).logaddexp2(L.from_numpy(b.copy())))


# ------------------------------------------------------------- bfloat16 floor/trunc division

@pytest.mark.parametrize("mode", ["floor", "trunc", "//"])
@pytest.mark.parametrize("divisor", ["tensor", "one element", "0-d float32", "number",
                                     "int64 dividend"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_low_precision_rounding_division(mode, divisor, dtype):
    """torch's ``Vectorized<BFloat16>`` floor/trunc division rounds each step to the type
    (the quotient before ``trunc``); a one-element divisor takes the float path, read at
    its own value."""
    rng = np.random.default_rng(3)
    n = 4000
    a = (rng.standard_normal(n) * rng.choice([1, 30, 1000], n)).astype(np.float32)
    b = (rng.standard_normal(n) * rng.choice([0.01, 1, 30], n)).astype(np.float32)

    def fn(L):
        dt = getattr(L, dtype)
        x, y = L.from_numpy(a).to(dt), L.from_numpy(b).to(dt)
        if divisor == "one element":
            y = y[:1]
        elif divisor == "0-d float32":
            y = L.tensor(0.3123456)
        elif divisor == "number":
            y = 0.3123456
        elif divisor == "int64 dividend":
            x = L.from_numpy(a.astype(np.int64))
        return x // y if mode == "//" else x.div(y, rounding_mode=mode)
    _bits(fn)
