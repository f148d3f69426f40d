"""Differences found by comparing the programs' output byte for byte with torch's (rather
than within the tolerance of ``test_real_programs``), each checked against torch bit for bit:
``quantile``/``nanquantile`` compute their ranks and weights in ``q``'s dtype (float32 for
float32 input), as torch's ``quantile_compute`` does, not in float64."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch

QUANTILES = {
    "linear_tail": lambda L, x: L.quantile(x, L.tensor([0.05, 0.5, 0.95])),
    "dim": lambda L, x: L.quantile(x.reshape(50, 10), L.tensor([0.333, 0.9]), dim=0),
    "scalar_q": lambda L, x: L.quantile(x, 0.77),
    "midpoint": lambda L, x: L.quantile(x, L.tensor([0.95]), interpolation="midpoint"),
    "nearest": lambda L, x: L.quantile(x, L.tensor([0.95, 0.05]), interpolation="nearest"),
    "nanquantile": lambda L, x: L.nanquantile(L.where(x > 3e4, x, L.nan), L.tensor([0.95])),
    "float64": lambda L, x: L.quantile(x.double(), L.tensor([0.95], dtype=L.float64)),
}


@pytest.mark.parametrize("name", sorted(QUANTILES))
def test_quantile_ranks_in_q_dtype(name):
    got = []
    for L in (ember, torch):
        L.manual_seed(0)
        x = L.exp(L.randn(500) * 0.6 + 10.5)
        x[7] = 1e7
        got.append(QUANTILES[name](L, x).numpy())
    assert got[0].dtype == got[1].dtype and np.array_equal(got[0], got[1])
