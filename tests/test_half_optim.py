"""Optimizers on float16/bfloat16 parameters follow torch's single-tensor CPU path bit for bit:
each elementwise op runs in float and rounds once to the parameter's type, reading its
number unrounded (``mul``, ``div``, ``lerp``, ``addcmul``, ``addcdiv``; ``add`` of a number
rounds the number to the type), and a large parameter is updated whole, since ``add``'s
tails, which fall at the end of each thread's share, round differently."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch

CASES = [
    ("Adam", {}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.05, "amsgrad": True}),
    ("Adam", {"maximize": True, "betas": (0.8, 0.99)}),
    ("AdamW", {}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}),
    ("RMSprop", {}),
    ("RMSprop", {"lr": 0.001, "alpha": 0.9}),
    ("RMSprop", {"momentum": 0.9, "centered": True, "weight_decay": 0.1}),
    ("Adagrad", {}),
    ("Adagrad", {"lr_decay": 0.01, "weight_decay": 0.1, "maximize": True}),
    ("Adamax", {}),
    ("Adamax", {"lr": 0.01, "weight_decay": 0.1}),
    ("NAdam", {}),
    ("NAdam", {"decoupled_weight_decay": True, "weight_decay": 0.1}),
    ("RAdam", {}),
    ("RAdam", {"weight_decay": 0.1}),
    ("Adadelta", {}),
    ("Adadelta", {"lr": 0.5, "weight_decay": 0.1}),
    ("ASGD", {"lr": 0.05, "weight_decay": 0.1}),
    ("Rprop", {}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.1}),
]


def _trajectory(lib, name, kw, dtype, n, steps, seed=0):
    rng = np.random.default_rng(seed)
    start = rng.standard_normal(n).astype(np.float32)
    grads = [rng.standard_normal(n).astype(np.float32) * 0.1 for _ in range(steps)]
    p = lib.tensor(start).to(getattr(lib, dtype)).requires_grad_()
    opt = getattr(lib.optim, name)([p], **kw)
    trail = []
    for g in grads:
        p.grad = lib.tensor(g).to(getattr(lib, dtype))
        opt.step()
        trail.append(p.detach().float().numpy().copy())
    return trail


def _same(a, b):
    """Equal bits; NaNs (whose payload printing never shows) equal where both are NaN."""
    assert (np.isnan(a) == np.isnan(b)).all()
    assert np.where(np.isnan(a), 0, a).tobytes() == np.where(np.isnan(b), 0, b).tobytes()


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("name,kw", CASES)
def test_reduced_type_trajectory_is_torchs(name, kw, dtype):
    for t, e in zip(*(_trajectory(lib, name, kw, dtype, 300, 6) for lib in (torch, ember))):
        _same(t, e)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("name,kw", [
    ("Adam", {"lr": 0.01, "weight_decay": 0.1}),
    ("RMSprop", {"momentum": 0.9, "centered": True, "weight_decay": 0.1})])
def test_reduced_type_large_parameter_is_updated_whole(name, kw, dtype, threads):
    saved = torch.get_num_threads(), ember.get_num_threads()
    torch.set_num_threads(threads)
    ember.set_num_threads(threads)
    try:
        got = [_trajectory(lib, name, kw, dtype, 270_000, 3) for lib in (torch, ember)]
    finally:
        torch.set_num_threads(saved[0])
        ember.set_num_threads(saved[1])
    for t, e in zip(*got):
        _same(t, e)


FOREACH = [case for case in CASES if case[0] not in ("NAdam", "RAdam")]


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("name,kw", FOREACH)
def test_reduced_type_foreach_trajectory_is_torchs(name, kw, dtype):
    """``foreach=True``: torch's multi-tensor path, whose in-place ``_foreach_mul_`` reads
    its number in the type (Adagrad also scales the gradient before ``addcdiv``)."""
    kw = {**kw, "foreach": True}
    for t, e in zip(*(_trajectory(lib, name, kw, dtype, 300, 6) for lib in (torch, ember))):
        _same(t, e)
