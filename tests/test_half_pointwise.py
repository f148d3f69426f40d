"""bfloat16/float16 pointwise ops as torch's reduced-type kernels read their operands:
``pow`` with a 0-d tensor exponent or a number base (the one-value operand cast to the type,
as a number exponent is), ``nan_to_num``'s defaults (the type's own extremes, not float's)."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch


def _same(a, b):
    assert str(a.dtype) == str(b.dtype)
    a, b = a.float().detach().numpy(), b.float().detach().numpy()
    assert (np.isnan(a) == np.isnan(b)).all()
    assert np.where(np.isnan(a), 0, a).tobytes() == np.where(np.isnan(b), 0, b).tobytes()


_X = np.random.default_rng(0).standard_normal(100).astype(np.float32) * 3


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("exponent", [1.7, 0.3, -1.3, 2.0, 0.5, 3])
def test_pow_zero_dim_tensor_exponent(dtype, exponent):
    base = np.abs(_X) + 0.1
    _same(*(L.tensor(base).to(getattr(L, dtype)) ** L.tensor(exponent) for L in (torch, ember)))
    _same(*(L.pow(L.tensor(_X).to(getattr(L, dtype)), L.tensor(exponent))
            for L in (torch, ember)))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("base", [0.3, 2.5, 2, 1.1, -0.7])
def test_number_to_the_reduced_tensor(dtype, base):
    _same(*(base ** L.tensor(_X).to(getattr(L, dtype)) for L in (torch, ember)))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("kw", [{}, {"nan": 0.3}, {"posinf": 1e3, "neginf": -7.1},
                                {"posinf": 1e39}, {"nan": 1.0, "neginf": -3.39e38}])
def test_nan_to_num_reduced(dtype, kw):
    y = _X.copy()
    y[::7] = np.nan
    y[1::9] = np.inf
    y[2::9] = -np.inf
    _same(*(L.nan_to_num(L.tensor(y).to(getattr(L, dtype)), **kw) for L in (torch, ember)))
    got = []
    for L in (torch, ember):
        t = L.tensor(y).to(getattr(L, dtype))[::2]
        t.nan_to_num_(**kw)
        got.append(t)
    _same(*got)


def test_nan_to_num_bfloat16_gradient():
    got = []
    for L in (torch, ember):
        x = L.tensor([float("nan"), float("inf"), 2.0, -float("inf")]).bfloat16()
        x.requires_grad_()
        L.nan_to_num(x, nan=0.3).sum().backward()
        got.append(x.grad)
    _same(*got)
