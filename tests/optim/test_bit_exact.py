"""Optimizers whose update has no square root reproduce torch bit for bit.

torch's CPU kernels fuse ``param + alpha * update`` into one rounding (``fmadd``); ember
emulates that fused multiply-add, so with the same gradients SGD (every option), Adamax and
RAdam give identical float32 parameters after every step. (The sqrt-based optimizers can
differ by an ulp: docs/differences.md.)
"""

from __future__ import annotations

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

CASES = [
    ("SGD", {"lr": 0.01}),
    ("SGD", {"lr": 0.01, "momentum": 0.9}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "dampening": 0.1, "maximize": True}),
    ("Adamax", {}),
    ("RAdam", {"weight_decay": 0.1}),
]


@pytest.mark.parametrize("name,kw", CASES)
def test_float32_trajectory_is_bit_identical(name, kw):
    rng = np.random.default_rng(0)
    start = rng.standard_normal((64, 80)).astype(np.float32)
    grads = [rng.standard_normal((64, 80)).astype(np.float32) for _ in range(20)]
    params = []
    for lib in (torch, ember):
        p = lib.nn.Parameter(lib.tensor(start.copy()))
        opt = getattr(lib.optim, name)([p], **kw)
        trail = []
        for g in grads:
            p.grad = lib.tensor(g.copy())
            opt.step()
            trail.append(p.detach().numpy().copy())
        params.append(trail)
    for step, (t, e) in enumerate(zip(*params)):
        np.testing.assert_array_equal(e, t, err_msg=f"step {step}")
