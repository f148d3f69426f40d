"""Adam and AdamW update small parameters in batches (``optimizer._Batch``): their arrays
concatenated, one elementwise update, the results written back. Every element must get the
bits torch's per-parameter kernels give it (vector body and scalar tail alike), the state
too, and the same bits as the unbatched update; parameters that share memory keep torch's
sequential order. SGD (updated parameter by parameter) runs the same parameter sets.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import ember
from ember._ops import _exact
from ember.optim import optimizer as _opt

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")

STEPS = 5
# sizes around the 8-float vector and the 32-element BLAS block, 0-d and empty, one large
# parameter updated on its own (over ``_BATCH_MAX``) and a float64 pair
SHAPES = [((), "f4"), ((1,), "f4"), ((7,), "f4"), ((8,), "f4"), ((15,), "f4"), ((16,), "f4"),
          ((17,), "f4"), ((0,), "f4"), ((3, 11), "f4"), ((33,), "f4"), ((90, 100), "f4"),
          ((5,), "f8"), ((4, 9), "f8"), ((), "f8")]

CASES = [
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}),
    ("Adam", {"lr": 0.01, "maximize": True, "betas": (0.6, 0.9)}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.01, "amsgrad": True, "eps": 1e-3}),
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.1, "momentum": 0.5, "dampening": 0.3, "maximize": True,
             "weight_decay": 0.2}),
]
IDS = [f"{n}-{i}" for i, (n, _) in enumerate(CASES)]


def _grads(shapes, seed=1, transposed=False):
    """Per step, one gradient per shape (None where ``skip`` says); with ``transposed``,
    2-d gradients are given as the transpose of a C-contiguous array (non-contiguous)."""
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal(s).astype(dt) for s, dt in shapes] for _ in range(STEPS)]


def _as_grad(lib, g, transposed):
    if transposed and g.ndim == 2:
        return lib.tensor(np.ascontiguousarray(g.T)).t()
    return lib.tensor(g)


def _trajectory(lib, name, kw, shapes, grads, transposed=False, skip=()):
    rng = np.random.default_rng(0)
    params = [lib.nn.Parameter(lib.tensor(rng.standard_normal(s).astype(dt)))
              for s, dt in shapes]
    opt = getattr(lib.optim, name)(params, **kw)
    out = []
    for step, gs in enumerate(grads):
        for i, (p, g) in enumerate(zip(params, gs)):
            p.grad = None if (step, i) in skip else _as_grad(lib, g, transposed)
        opt.step()
        out.append([p.detach().numpy().copy() for p in params])
    state = [{k: v.numpy().copy() for k, v in opt.state[p].items()} for p in params]
    return out, state


def _same_bits(x, y, what):
    x, y = np.asarray(x), np.asarray(y)
    assert x.dtype == y.dtype and x.shape == y.shape, what
    assert x.tobytes() == y.tobytes(), what


def _compare(a, b):
    (ta, sa), (tb, sb) = a, b
    for step, (pa, pb) in enumerate(zip(ta, tb)):
        for i, (x, y) in enumerate(zip(pa, pb)):
            _same_bits(x, y, f"step {step} param {i}")
    for i, (x, y) in enumerate(zip(sa, sb)):
        assert x.keys() == y.keys()
        for k in x:
            _same_bits(x[k], y[k], f"state {k} of param {i}")


@pytest.fixture
def batch_sizes(monkeypatch):
    """Records the number of parameters of each batched update."""
    sizes = []
    run = _opt._Batch.run

    def spy(self):
        sizes.extend(len(rows) for rows in self.queues.values())
        run(self)
    monkeypatch.setattr(_opt._Batch, "run", spy)
    return sizes


@pytest.mark.parametrize("name,kw", CASES, ids=IDS)
@pytest.mark.parametrize("transposed", [False, True], ids=["contiguous", "transposed-grads"])
def test_batched_update_matches_torch(name, kw, transposed, batch_sizes):
    grads = _grads(SHAPES)
    _compare(_trajectory(ember, name, kw, SHAPES, grads, transposed),
             _trajectory(torch, name, kw, SHAPES, grads, transposed))
    if name != "SGD":
        assert max(batch_sizes) >= 9      # the small float32 parameters went together


@pytest.mark.parametrize("name,kw", CASES[:5], ids=IDS[:5])
def test_batched_update_matches_unbatched(name, kw, monkeypatch, batch_sizes):
    grads = _grads(SHAPES, seed=3)
    batched = _trajectory(ember, name, kw, SHAPES, grads)
    assert max(batch_sizes) >= 9
    monkeypatch.setattr(_opt, "_BATCH_MAX", -1)
    batch_sizes.clear()
    single = _trajectory(ember, name, kw, SHAPES, grads)
    assert not batch_sizes
    _compare(batched, single)


@pytest.mark.parametrize("name,kw", [CASES[0], CASES[1], CASES[7]], ids=["Adam", "Adam-ams",
                                                                         "SGD-nesterov"])
def test_parameters_stepping_at_different_counts(name, kw):
    # a parameter without a gradient skips a step: its step count (Adam's bias corrections)
    # and momentum buffer lag behind the others'
    shapes = SHAPES[:8]
    grads = _grads(shapes, seed=5)
    skip = {(0, 2), (1, 2), (2, 5), (0, 0)}
    _compare(_trajectory(ember, name, kw, shapes, grads, skip=skip),
             _trajectory(torch, name, kw, shapes, grads, skip=skip))


@pytest.mark.parametrize("name,kw", [CASES[0], CASES[6], CASES[4]], ids=["Adam", "SGD", "AdamW"])
def test_parameters_sharing_memory_update_in_order(name, kw):
    # overlapping views of one buffer, and one tensor listed twice: torch updates them one
    # after the other, each seeing the previous one's writes (SGD's momentum buffers as they
    # were before the step: torch reads them all first)
    rng = np.random.default_rng(7)
    start = rng.standard_normal(24).astype(np.float32)
    grads = [rng.standard_normal(10).astype(np.float32) for _ in range(4 * STEPS)]
    result = []
    for lib in (torch, ember):
        base = lib.tensor(start.copy())
        p1 = base[:10].requires_grad_()
        p2 = base[6:16].requires_grad_()
        p3 = lib.nn.Parameter(lib.tensor(start[:10].copy()))
        with pytest.warns(UserWarning, match="duplicate parameters"):
            opt = getattr(lib.optim, name)([p1, p3, p2, p3], **kw)
        it = iter(grads)
        for _ in range(STEPS):
            for p in (p1, p2, p3):
                p.grad = lib.tensor(next(it))
            opt.step()
        result.append([base.numpy().copy(), p3.detach().numpy().copy()])
    for x, y in zip(*result):
        _same_bits(y, x, "shared memory")


def test_complex_parameters_next_to_batched_ones():
    shapes = [((3,), "f4"), ((4,), "c8"), ((2, 2), "f4")]
    rng = np.random.default_rng(2)
    grads = [[(rng.standard_normal(s) + (1j * rng.standard_normal(s) if dt == "c8" else 0))
              .astype(dt) for s, dt in shapes] for _ in range(STEPS)]
    _compare(_trajectory(ember, "Adam", {"lr": 0.01}, shapes, grads),
             _trajectory(torch, "Adam", {"lr": 0.01}, shapes, grads))


def test_fma32_into_rounds_double_midpoints_once():
    # (1 + 2^-23) * 64 (1 - 2^-23) = 64 - 2^-40: added to 2^30 + 128 in double it lands on
    # 2^30 + 192, halfway between two floats, where the exact sum lies just below it
    rng = np.random.default_rng(4)
    a = rng.standard_normal(40).astype(np.float32)
    b = rng.standard_normal(40).astype(np.float32)
    c = rng.standard_normal(40).astype(np.float32)
    for i in (0, 9, 33, 39):
        a[i], b[i], c[i] = 1 + 2.0 ** -23, 64 * (1 - 2.0 ** -23), 2.0 ** 30 + 128
    out = np.empty_like(c)
    _exact.fma32_into(a, b, c, out)
    want = torch.addcmul(torch.tensor(c), torch.tensor(a), torch.tensor(b)).numpy()
    _same_bits(out, want, "fma")
    assert out[9] == np.float32(2.0 ** 30 + 128)
    _same_bits(out, _exact.fma(a, b, c), "fma")
    _exact.fma32_into(a, b, c, c)          # in place
    _same_bits(c, want, "in place")



PIECED = [
    ("Adam", {"lr": 0.01, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.01, "amsgrad": True}),
    ("Adadelta", {"lr": 1.0, "weight_decay": 0.01}),
    ("Adadelta", {"maximize": True}),
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9, "centered": True, "weight_decay": 0.1}),
]


@pytest.mark.parametrize("name,kw", PIECED, ids=[f"{n}-{i}" for i, (n, _) in enumerate(PIECED)])
def test_large_parameters_update_in_pieces_as_torch(name, kw, monkeypatch):
    """A large parameter's update runs over cache-sized pieces (``optimizer._in_pieces``):
    torch's bits, the same as the whole arrays' update. A transposed gradient and a float64
    parameter take the whole-array update."""
    monkeypatch.setattr(_opt, "_PIECE", 1000)    # pieces of a test-sized parameter
    calls = []
    pieces = _opt._in_pieces

    def spy(update, key, written, read):
        calls.append(read.size >= 2 * _opt._PIECE and read.flags.c_contiguous)
        pieces(update, key, written, read)
    monkeypatch.setattr(_opt, "_in_pieces", spy)
    for module in ("adam", "adadelta", "rmsprop"):
        monkeypatch.setattr(importlib.import_module(f"ember.optim.{module}"), "_in_pieces", spy)
    shapes = [((91, 101), "f4"), ((9000,), "f8"), ((7,), "f4")]
    for transposed in (False, True):
        grads = _grads(shapes, seed=11)
        pieced = _trajectory(ember, name, kw, shapes, grads, transposed)
        _compare(pieced, _trajectory(torch, name, kw, shapes, grads, transposed))
        monkeypatch.setattr(_opt, "_PIECE", 1 << 40)
        _compare(pieced, _trajectory(ember, name, kw, shapes, grads, transposed))
        monkeypatch.setattr(_opt, "_PIECE", 1000)
    assert any(calls)
