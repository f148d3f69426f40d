"""Rprop, ASGD, Adafactor, SparseAdam and Muon, swa_utils, and the scheduler namespace, against
torch 2.13: the same parameters and gradients give the same trajectory (bit for bit where the
update is elementwise), the same state dicts, the same errors."""

from __future__ import annotations

import copy
import math
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")

SHAPES = [(), (1,), (0,), (3, 4), (7,), (2, 3, 5)]


def _start(shapes, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


def _grads(shapes, dtype, steps, seed=1):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(steps):
        gs = [rng.standard_normal(s).astype(dtype) for s in shapes]
        if i % 3 == 2:   # some repeated signs, some zeros
            gs = [np.where(np.abs(g) < 0.3, 0, g).astype(dtype) for g in gs]
        out.append(gs)
    return out


def _run(lib, name, kw, starts, grads, noncontig=False):
    ps = [lib.nn.Parameter(lib.tensor(s.copy())) for s in starts]
    opt = getattr(lib.optim, name)(ps, **kw)
    trail = []
    for gs in grads:
        for p, g in zip(ps, gs):
            if noncontig and g.ndim == 2:
                p.grad = lib.tensor(np.ascontiguousarray(g.T)).t()
            else:
                p.grad = lib.tensor(g.copy())
        opt.step()
        trail.append([p.detach().numpy().copy() for p in ps])
    return opt, trail


def _same_state(st, se, exact=True):
    assert list(st["state"]) == list(se["state"])
    for i, s in st["state"].items():
        assert sorted(s) == sorted(se["state"][i])
        for k, v in s.items():
            w = se["state"][i][k]
            if isinstance(v, torch.Tensor):
                assert str(v.dtype)[6:] == str(w.dtype)[6:] and tuple(v.shape) == tuple(w.shape)
                if exact:
                    np.testing.assert_array_equal(w.numpy(), v.numpy(), err_msg=k)
                else:
                    np.testing.assert_allclose(w.numpy(), v.numpy(), rtol=1e-5, atol=1e-7)
            else:
                assert v == w, k
    assert st["param_groups"] == se["param_groups"]


def _compare(name, kw, shapes=SHAPES, dtype=np.float32, steps=12, exact=True, noncontig=False):
    # float64 fused multiply-adds are emulated unfused: within an ulp (docs/differences.md)
    exact = exact and dtype == np.float32
    starts, grads = _start(shapes, dtype), _grads(shapes, dtype, steps)
    ot, tt = _run(torch, name, kw, starts, grads, noncontig)
    oe, te = _run(ember, name, kw, starts, grads, noncontig)
    for step, (a, b) in enumerate(zip(tt, te)):
        for t, e in zip(a, b):
            assert t.dtype == e.dtype and t.shape == e.shape
            if exact:
                np.testing.assert_array_equal(e, t, err_msg=f"step {step}")
            else:
                tol = 1e-13 if dtype == np.float64 else 1e-5
                np.testing.assert_allclose(e, t, rtol=tol, atol=tol / 10, err_msg=f"step {step}")
    _same_state(ot.state_dict(), oe.state_dict(), exact)
    return ot, oe


RPROP = [{}, {"lr": 0.1}, {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2)},
         {"maximize": True}, {"foreach": True}, {"foreach": False, "lr": 0.5}]
ASGD = [{}, {"lr": 0.1, "weight_decay": 0.1}, {"lr": 0.05, "t0": 3, "lambd": 1e-2},
        {"lr": 0.1, "t0": 0, "alpha": 0.5, "maximize": True}, {"foreach": True, "t0": 5}]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kw", RPROP)
def test_rprop_is_bit_identical(kw, dtype):
    _compare("Rprop", kw, dtype=dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kw", ASGD)
def test_asgd_is_bit_identical(kw, dtype):
    _compare("ASGD", kw, dtype=dtype)


@pytest.mark.parametrize("name", ["Rprop", "ASGD"])
def test_noncontiguous_gradients(name):
    _compare(name, {"lr": 0.1}, shapes=[(3, 4), (5, 2)], noncontig=True)
