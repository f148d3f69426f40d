"""float16 ``elu``/``selu``/``celu`` backward as ATen's reduced-type ``elu_backward_kernel``:
in float with float coefficients, rounded once, vectors of float16 elements (the tail of
each row one by one with glibc's ``expf``)."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch

ACTS = [("elu", {}), ("elu", {"alpha": 0.3}), ("selu", {}), ("celu", {"alpha": 0.7}),
        ("celu", {})]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", [1, 7, 31, 33, 100, 1000])
@pytest.mark.parametrize("name,kw", ACTS)
def test_reduced_elu_family_backward_bits(name, kw, n, dtype):
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(n) * 3).astype(np.float32)
    x[::11] = 0.0
    go = rng.standard_normal(n).astype(np.float32)
    got = []
    for lib in (torch, ember):
        X = lib.tensor(x).to(getattr(lib, dtype)).requires_grad_()
        getattr(lib.nn.functional, name)(X, **kw).backward(lib.tensor(go).to(getattr(lib, dtype)))
        got.append(X.grad.float().numpy())
    assert got[0].tobytes() == got[1].tobytes()


@pytest.mark.parametrize("name,kw", ACTS)
def test_half_elu_family_backward_strided(name, kw):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((40, 24)) * 2).astype(np.float32)
    go = rng.standard_normal((24, 40)).astype(np.float32)
    got = []
    for lib in (torch, ember):
        X = lib.tensor(x).half().requires_grad_()
        y = getattr(lib.nn.functional, name)(X.t(), **kw)
        y.backward(lib.tensor(go).half())
        got.append(X.grad.float().numpy())
    assert got[0].tobytes() == got[1].tobytes()
