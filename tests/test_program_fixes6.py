"""Regression tests for what the sixth round of real programs found, each against torch 2.13:
hardswish's gradient is 0 at ``x = -3`` and 1 at ``x = 3`` (torch's kernel takes the slope
branch only on the open interval ``-3 < x < 3``)."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_hardswish_grad_at_the_kinks(dtype):
    values = [-4.0, -3.0, -3.0001, -2.9999, 0.0, 2.9999, 3.0, 3.0001, 4.0]
    grads = []
    for lib in (ember, torch):
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
        lib.nn.functional.hardswish(x).backward(lib.full((len(values),), 2.0, dtype=x.dtype))
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(*grads)
