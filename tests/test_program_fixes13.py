"""Fixes found by the thirteenth batch of real-style programs (``tests/programs``), each
checked against torch: ``softshrink`` runs ATen's ``cpu_kernel_vec`` (AVX2 build): the vectors
mask the two branches, so a value inside ``[-lambd, lambd]`` gives ``+0`` and a NaN stays NaN,
the one-by-one tail returns ``x * 0`` (``-0`` for a negative input), and half / bfloat16
compute in float with ``lambd`` as a float."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch


def _same(a, b):
    """Equal bits, signed zeros included; NaNs (whose payload printing never shows) equal where
    both are NaN."""
    a, b = np.asarray(a.detach().float().numpy()), np.asarray(b.detach().float().numpy())
    assert a.dtype == b.dtype and a.shape == b.shape
    assert (np.isnan(a) == np.isnan(b)).all()
    a, b = np.where(np.isnan(a), 0, a), np.where(np.isnan(b), 0, b)
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("n", [1, 7, 36, 60, 101])
def test_softshrink_signed_zeros_nans_and_reduced_floats(dtype, n):
    rng = np.random.default_rng(n)
    data = rng.uniform(-1, 1, n).astype(np.float32)
    data[::5] = -0.0
    data[1::7] = np.nan
    data[2::6] = -1e-8
    got = [L.nn.functional.softshrink(L.tensor(data).to(getattr(L, dtype)), 0.3)
           for L in (torch, ember)]
    _same(*got)


def test_softshrink_of_linspace_as_the_activation_tour():
    got = [L.nn.Softshrink(0.3)(L.linspace(-2, 2, 7)) for L in (torch, ember)]
    _same(*got)
    got = [L.nn.functional.softshrink(L.linspace(-1, 1, 45).reshape(5, 9).t(), 0.5)
           for L in (torch, ember)]
    _same(*got)
