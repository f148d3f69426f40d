"""Differential testing: random op programs run in ember and in torch must agree.

From a fixed seed, each program makes a few leaf tensors (float32/float64, random shapes),
then applies a chain of ops picked from a list — pointwise with broadcasting, reductions,
views and copies, indexing, occasional in-place ops on non-leaves — where any earlier value
(leaf or not) may be reused. After every step the two libraries must agree on values, shape,
dtype and on whether (and with which class) the step raised; at the end the gradient of a
weighted sum of every float result must agree for every leaf. Failures found this way are
kept below as regression tests.
"""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import assert_close, dtype_name, ember, torch

LIBS = (torch, ember)


def _dim(rng, nd, bad=0.03):
    if rng.random() < bad:
        return int(rng.choice([nd, -nd - 1])) if nd else 1
    return int(rng.integers(-nd, nd)) if nd else 0


def _bshape(rng, shape):
    """A shape that broadcasts against ``shape`` (dims dropped or set to 1)."""
    shape = list(shape)
    if shape and rng.random() < 0.3:
        shape = shape[int(rng.integers(0, len(shape) + 1)):]
    return tuple(1 if rng.random() < 0.3 else s for s in shape)


UNARY = ["exp", "tanh", "sin", "neg", "abs", "sigmoid", "relu", "cos"]
BINARY = ["add", "sub", "mul", "div", "maximum", "minimum"]


def _step(rng, pool):
    """One step: (name, callable(L, *operands), operand indices); shapes from torch's pool."""
    i = int(rng.integers(len(pool)))
    x = pool[i]
    nd, shape = x.dim(), tuple(x.shape)
    kind = rng.random()
    if kind < 0.22:
        op = str(rng.choice(UNARY))
        return op, (lambda L, a: getattr(a, op)()), (i,)
    if kind < 0.42:
        op = str(rng.choice(BINARY))
        cand = [k for k, t in enumerate(pool) if tuple(t.shape) == _bshape(rng, shape)]
        if cand and rng.random() < 0.7:
            j = int(rng.choice(cand))
            return op, (lambda L, a, b: getattr(L, op)(a, b)), (i, j)
        c = float(rng.normal())
        if op in ("maximum", "minimum"):     # tensor-only in torch
            op = "mul"
        return op + "_scalar", (lambda L, a: getattr(L, op)(a, c)), (i,)
    if kind < 0.50:
        d = _dim(rng, nd)
        kd = bool(rng.random() < 0.5)
        op = str(rng.choice(["sum", "mean", "amax", "prod"]))
        if op == "amax" and nd == 0:        # test_amax_0d (ember bug, owned elsewhere)
            op = "sum"
        return f"{op}({d},{kd})", (lambda L, a: getattr(a, op)(d, keepdim=kd)), (i,)
    if kind < 0.72:
        return _shape_step(rng, i, nd, shape)
    if kind < 0.86:
        return _index_step(rng, i, nd, shape)
    return _inplace_step(rng, pool, i, nd, shape)


def _shape_step(rng, i, nd, shape):
    ch = int(rng.integers(14))
    d, d2 = _dim(rng, nd), _dim(rng, nd)
    if ch == 0:
        return "transpose", (lambda L, a: a.transpose(d, d2)), (i,)
    if ch == 1:
        perm = [int(p) for p in rng.permutation(nd)]
        return f"permute{perm}", (lambda L, a: a.permute(*perm)), (i,)
    if ch == 2:
        return "reshape-1", (lambda L, a: a.reshape(-1)), (i,)
    if ch == 3:
        du = _dim(rng, nd + 1)
        return f"unsqueeze{du}", (lambda L, a: a.unsqueeze(du)), (i,)
    if ch == 4:
        return "squeeze", (lambda L, a: a.squeeze()), (i,)
    if ch == 5:
        return f"flip{d}", (lambda L, a: a.flip(d)), (i,)
    if ch == 6:
        s = int(rng.integers(-3, 4))
        return f"roll{s},{d}", (lambda L, a: a.roll(s, d)), (i,)
    if ch == 7:
        return f"cat{d}", (lambda L, a: L.cat([a, a * 2], d)), (i,)
    if ch == 8:
        return f"stack{d}", (lambda L, a: L.stack([a, a.sin()], d)), (i,)
    if ch == 9:
        k = int(rng.integers(1, 4))
        return f"split{k},{d}[-1]", (lambda L, a: a.split(k, d)[-1]), (i,)
    if ch == 10:
        k = int(rng.integers(1, 4))
        return f"chunk{k},{d}[0]", (lambda L, a: a.chunk(k, d)[0]), (i,)
    if ch == 11:
        return f"unbind{d}[0]", (lambda L, a: a.unbind(d)[0]), (i,)
    if ch == 12:
        reps = [int(r) for r in rng.integers(1, 3, nd)]
        return f"repeat{reps}", (lambda L, a: a.repeat(*reps) if reps else a.repeat(())), (i,)
    return f"movedim{d},{d2}", (lambda L, a: a.movedim(d, d2)), (i,)


def _index_step(rng, i, nd, shape):
    ch = int(rng.integers(7))
    if nd == 0:
        return "ellipsis", (lambda L, a: a[...]), (i,)
    d = _dim(rng, nd)
    n = shape[d if d >= 0 else d + nd] if -nd <= d < nd else 1
    if ch == 0:
        k = int(rng.integers(-n - 1, n + 1)) if n else 0
        return f"[{k}]", (lambda L, a: a[k]), (i,)
    if ch == 1:
        lo = int(rng.integers(-n, n + 1)) if n else 0
        st = int(rng.integers(1, 3))
        return f"[:, {lo}::{st}]", (lambda L, a: a[:, lo::st] if a.dim() > 1 else a[lo::st]), (i,)
    if ch == 2:
        idx = [int(v) for v in rng.integers(-n, n, 3)] if n else []
        return f"[{idx}]", (lambda L, a: a[idx]), (i,)
    if ch == 3:
        idx = np.asarray(rng.integers(0, max(n, 1), 2))
        return f"index_select{d}", (lambda L, a: a.index_select(d, L.from_numpy(idx))), (i,)
    if ch == 4:
        return "mask", (lambda L, a: a[a > 0]), (i,)
    if ch == 5:
        return "masked_fill", (lambda L, a: a.masked_fill(a < 0, 0.5)), (i,)
    idx = np.asarray(rng.integers(0, max(n, 1), shape))
    return f"gather{d}", (lambda L, a: a.gather(d, L.from_numpy(idx))), (i,)


def _inplace_step(rng, pool, i, nd, shape):
    ch = int(rng.integers(4))
    c = float(rng.normal())

    def clone_then(f):
        def run(L, a):
            b = a * 1           # a non-leaf to modify
            f(L, b)
            return b
        return run
    if ch == 0:
        return "add_", clone_then(lambda L, b: b.add_(c)), (i,)
    if ch == 1:
        return "view.mul_", clone_then(lambda L, b: b[0].mul_(c) if b.dim() else b.mul_(c)), (i,)
    if ch == 2:
        return "setitem", clone_then(lambda L, b: b.__setitem__(..., c) if not b.dim() else
                                     b.__setitem__((slice(None, None, 2),), c)), (i,)
    return "exp_", clone_then(lambda L, b: b.exp_()), (i,)


def _leaf(L, a):
    return L.from_numpy(a.copy()).requires_grad_()


def _run_program(seed):
    rng = np.random.default_rng(seed)
    dtype = str(rng.choice(["float32", "float64"]))
    nleaves = int(rng.integers(1, 3))
    leaves = []
    for _ in range(nleaves):
        shape = tuple(int(s) for s in rng.integers(1, 4, int(rng.integers(0, 4))))
        leaves.append(rng.uniform(-2, 2, shape).astype(dtype))
    pools = {L: [_leaf(L, a) for a in leaves] for L in LIBS}
    log = []
    for _ in range(int(rng.integers(2, 7))):
        name, fn, idx = _step(rng, pools[torch])
        log.append(name)
        outs, errs = {}, {}
        for L in LIBS:
            try:
                outs[L] = fn(L, *[pools[L][k] for k in idx])
            except Exception as e:  # noqa: BLE001
                errs[L] = e
        where = f"seed {seed} steps {log}"
        if torch in errs or ember in errs:
            assert torch in errs, f"{where}: ember raised {errs[ember]!r}, torch did not"
            assert ember in errs, f"{where}: torch raised {errs[torch]!r}, ember did not"
            te, ee = errs[torch], errs[ember]
            assert isinstance(ee, type(te)) or type(te).__name__ == type(ee).__name__, \
                f"{where}: {ee!r} vs torch {te!r}"
            break
        t, e = outs[torch], outs[ember]
        assert tuple(t.shape) == tuple(e.shape), f"{where}: shape {t.shape} vs {e.shape}"
        assert str(t.dtype) == str(e.dtype), f"{where}: dtype {t.dtype} vs {e.dtype}"
        assert t.requires_grad == e.requires_grad, f"{where}: requires_grad"
        assert_close(t.detach().numpy(), e.detach().numpy(), dtype_name(t.dtype), where,
                     rtol=1e-4 if dtype == "float32" else None,
                     atol=1e-5 if dtype == "float32" else None)
        pools[torch].append(t)
        pools[ember].append(e)
    grads = {}
    for L in LIBS:
        loss = 0
        for k, v in enumerate(pools[L][nleaves:]):
            if v.requires_grad:
                w = np.random.default_rng(seed + k).standard_normal(tuple(v.shape))
                loss = loss + (v * L.from_numpy(w.astype(dtype))).sum()
        if isinstance(loss, int):
            return
        loss.backward()
        grads[L] = [leaf.grad for leaf in pools[L][:nleaves]]
    for k, (tg, eg) in enumerate(zip(grads[torch], grads[ember])):
        where = f"seed {seed} steps {log}: grad of leaf {k}"
        assert (tg is None) == (eg is None), where
        if tg is not None:
            assert_close(tg.numpy(), eg.numpy(), dtype, where,
                         rtol=1e-3 if dtype == "float32" else 1e-8,
                         atol=1e-4 if dtype == "float32" else 1e-10)


@pytest.mark.parametrize("block", range(16))
def test_random_programs(block):
    """16 blocks x 150 programs x 2-6 steps: about ten thousand op cases."""
    for seed in range(block * 150, (block + 1) * 150):
        _run_program(seed)


# ----------------------------------------------------------------------------- regressions
# Each failure the random programs found, kept as a plain test.

def _both(fn, *arrays, grad=True):
    from .helpers import check
    return check(fn, *arrays, grad=grad)


def test_movedim_0d():
    _both(lambda L, a: a.movedim(0, 0), np.array(1.5))


def test_transpose_0d():
    _both(lambda L, a: a.transpose(0, -1), np.array(1.5))


def test_permute_without_dims():
    _both(lambda L, a: a.permute(), np.ones((2, 3)))


def test_scalar_maximum_is_tensor_only():
    _both(lambda L, a: L.maximum(a, 0.5), np.ones(3))


def test_amax_0d():
    _both(lambda L, a: a.amax(0), np.array(1.5))


def test_transpose_and_flip_of_0d_check_dims():
    _both(lambda L, a: a.transpose(0, 1), np.array(1.5))
    _both(lambda L, a: a.flip(1), np.array(1.5))


def test_relu_backward_masks_nan():
    _both(lambda L, a: (lambda z: (z / z).mean(0).sin())(
        a.relu().repeat(2).index_select(0, L.tensor([0, 1, 2, 4]))), np.array([0.7, -0.3, -1.2]))


def test_inplace_on_view_of_fortran_ordered_base():
    def fn(L, a):
        b = a.t().clone().t() * 1       # a base whose memory is not C-ordered
        b[:, 0].mul_(2.0)
        return b
    _both(fn, np.arange(6.0).reshape(2, 3))


def test_relu_backward_is_threshold_backward():
    """NaN inputs pass their gradient (``self <= 0`` is false); double backward is
    ThresholdBackwardBackward0 whose ``self`` edge points at the relu."""
    big = np.resize(np.array([np.nan, 1.0, -1.0, 0.0, -0.0, 2.5, -3.0, np.inf]), (64, 80))
    for dtype in ("float32", "float64", "float16"):
        x = np.array([[np.nan, 1.0, -1.0, 0.0], [-0.0, 2.5, -3.0, np.inf]], dtype)
        _both(lambda L, a: a.relu(), x)
        _both(lambda L, a: a.relu(), big.astype(dtype))              # the masked-bits path
        _both(lambda L, a: L.relu(a.t()), x)
        _both(lambda L, a: a.relu(), x[0, 1])                # 0-d

    def second(L, a):
        g, = L.autograd.grad(L.relu(a).sum(), a, create_graph=True)
        return g, g.grad_fn.name(), type(g.grad_fn.next_functions[1][0]).__name__
    _both(second, np.array([np.nan, 1.0, -1.0, 0.0]), grad=False)
    _both(lambda L, a: L.autograd.grad((L.relu(a * 2) * a).sum(), a, create_graph=True)[0],
          np.array([0.5, -1.0, 2.0]))


def test_reflected_remainder_is_not_differentiable():
    """``2.0 % y`` is torch's remainder(Scalar, Tensor): a NotImplemented node."""
    _both(lambda L, a: (2.0 % a, (2.0 % a).grad_fn.name()), np.array([1.5, -2.5]), grad=False)
    _both(lambda L, a: (2.0 % a).sum().backward(), np.array([1.5, -2.5]))
    _both(lambda L, a: 7 % a.long(), np.array([3.0, -4.0]), grad=False)
