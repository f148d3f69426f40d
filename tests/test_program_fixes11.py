"""Fixes found by the eleventh batch of real-style programs (``tests/programs``), each checked
against torch bit for bit: ``multi_margin_loss`` adds each sample's hinges in class order in
the input's type and the samples' losses in double, one after another, as ATen's
``multi_margin_loss_cpu_kernel`` does."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch


def _same(a, b):
    a, b = np.asarray(a.detach().numpy()), np.asarray(b.detach().numpy())
    assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", [(150, 3), (37, 11), (13,)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_multi_margin_loss_sums_as_aten(p, reduction, weighted, shape, dtype):
    rng = np.random.default_rng(5)
    x = rng.standard_normal(shape).astype(dtype)
    c = shape[-1]
    y = rng.integers(0, c, shape[:-1])
    w = rng.uniform(0.2, 2.0, c).astype(dtype)
    got = []
    for L in (torch, ember):
        xt = L.tensor(x, requires_grad=True)
        loss = L.nn.functional.multi_margin_loss(
            xt, L.tensor(y), p=p, margin=0.7, weight=L.tensor(w) if weighted else None,
            reduction=reduction)
        loss.sum().backward()
        got.append((loss, xt.grad))
    for a, b in zip(*got):
        _same(a, b)
