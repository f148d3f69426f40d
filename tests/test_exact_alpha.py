"""Pointwise ops with a scalar factor bit for bit against torch 2.13 CPU: ``add``/``sub``/
``rsub`` with ``alpha``, ``lerp`` and ``addcmul`` (one fused multiply-add per element, and
``add``'s hoisted product in the compiled tail of rows where ``other`` is broadcast), their
in-place and ``out=`` forms and gradients, on float32/float64 with special values, every
length around the vector steps, strided, transposed and broadcast layouts, and inputs large
enough for torch to split them between threads."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ember, torch
from tests.test_exact_kernels import bits_equal

pytestmark = pytest.mark.usefixtures("same_threads")

DTYPES = (np.float32, np.float64)
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-310, 5e-324, 3e38, -3e38, 1e308,
           -1.7976931348623157e308, 1.0, -104.0, 0.5]


def _data(dt, shape, seed, special=True):
    rng = np.random.default_rng(seed)
    with np.errstate(all="ignore"):
        x = (rng.standard_normal(shape) * np.exp(rng.uniform(-6, 6, shape))).astype(dt)
        if special and x.size > 8:
            flat = x.reshape(-1)
            idx = rng.integers(0, flat.size, max(1, flat.size // 10))
            flat[idx] = np.array(SPECIAL, dt)[rng.integers(0, len(SPECIAL), idx.size)]
    return np.asarray(x)


# layouts: (name, shape of the data, view of it); the views run in both libraries
LAYOUTS = {
    "contiguous": ((1000,), lambda t: t),
    "strided": ((2000,), lambda t: t[::2]),
    "transposed": ((37, 29), lambda t: t.t()),
    "rows": ((7, 45), lambda t: t[:, :37]),
    "offset": ((101,), lambda t: t[3:]),
    "0-d": ((), lambda t: t),
}
LENGTHS = list(range(1, 41)) + [63, 64, 65, 127, 129]


def _both(fn, arrays, views=None):
    """``fn(lib, *tensors)`` in torch and ember on the same data (``views`` applied)."""
    out = []
    for lib in (torch, ember):
        ts = [lib.tensor(a) for a in arrays]
        if views:
            ts = [v(t) for v, t in zip(views, ts)]
        out.append(fn(lib, *ts))
    return out


def _same(fn, arrays, views=None):
    t, e = _both(fn, arrays, views)
    bits_equal(t, e)


ADD = {
    "add": lambda lib, a, b: lib.add(a, b, alpha=-0.37),
    "sub": lambda lib, a, b: lib.sub(a, b, alpha=0.1),
    "rsub": lambda lib, a, b: lib.rsub(a, b, alpha=1.3),
    "method": lambda lib, a, b: a.add(b, alpha=3e-3),
    "sub method": lambda lib, a, b: a.sub(b, alpha=-1e-3),
    "add_": lambda lib, a, b: a.clone().add_(b, alpha=-1e-3),
    "sub_": lambda lib, a, b: a.clone().sub_(b, alpha=0.7),
    "out": lambda lib, a, b: lib.add(a, b, alpha=0.3, out=lib.empty(0, dtype=a.dtype)),
    "sub out": lambda lib, a, b: lib.sub(a, b, alpha=0.3, out=lib.empty(0, dtype=a.dtype)),
}


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", ADD)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_add_alpha_layouts(dt, name, layout):
    shape, view = LAYOUTS[layout]
    _same(ADD[name], [_data(dt, shape, 1), _data(dt, shape, 2)], [view, view])


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", ["add", "sub", "rsub", "add_", "out"])
def test_add_alpha_lengths(dt, name):
    for n in LENGTHS:
        _same(ADD[name], [_data(dt, n, n), _data(dt, n, n + 1)])


NUMBER = {
    "add number": lambda lib, a: lib.add(a, 1.7, alpha=0.3),
    "sub number": lambda lib, a: lib.sub(a, -2.5, alpha=0.3),
    "method number": lambda lib, a: a.add(0.1, alpha=0.37),
    "add_ number": lambda lib, a: a.clone().add_(0.1, alpha=-0.37),
    "rsub number": lambda lib, a: lib.rsub(a, 0.1, alpha=0.37),
    "int alpha": lambda lib, a: lib.add(a, 0.1, alpha=3),
}


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", NUMBER)
def test_add_alpha_number(dt, name):
    """A number ``other``: torch's compiled tail adds the rounded product in 16-byte
    vectors after one peeled element."""
    for n in LENGTHS:
        _same(NUMBER[name], [_data(dt, n, n)])
    for shape, view in LAYOUTS.values():
        _same(NUMBER[name], [_data(dt, shape, 3)], [view])


BROADCAST = [((37,), ()), ((37,), (1,)), ((5, 37), (5, 1)), ((5, 37), (1, 37)),
             ((5, 37), (1, 1)), ((3, 4, 21), (3, 1, 21)), ((3, 4, 21), (4, 1)),
             ((), (21,)), ((1,), (21,)), ((21, 1), (1, 21))]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shapes", BROADCAST, ids=str)
def test_add_alpha_broadcast(dt, shapes):
    a, b = _data(dt, shapes[0], 4), _data(dt, shapes[1], 5)
    for name in ("add", "sub", "rsub", "out"):
        _same(ADD[name], [a, b])
        _same(ADD[name], [b, a])
    if len(shapes[0]) == 2 and np.broadcast_shapes(*shapes) == shapes[0]:
        t = [lambda x: x.t().contiguous().t(), lambda x: x]      # column-major self
        _same(ADD["add"], [a, b], t)
        _same(ADD["add_"], [a, b], t)


@pytest.mark.parametrize("dt", DTYPES)
def test_add_alpha_threads(dt):
    """Inputs torch splits between threads: each thread's share has its own tail."""
    a = _data(dt, (100003,), 6)
    _same(NUMBER["add number"], [a])
    _same(ADD["add"], [a, _data(dt, (100003,), 7)])
    _same(ADD["add"], [_data(dt, (333, 301), 8), _data(dt, (333, 1), 9)])


def test_add_alpha_mixed_dtypes():
    """Integer and bool operands promote first; integer alphas stay exact."""
    f = _data(np.float32, (37,), 10)
    i = np.arange(-18, 19, dtype=np.int64)
    _same(lambda lib, a, b: lib.add(a, b, alpha=0.3), [f, i])
    _same(lambda lib, a, b: lib.add(a, b, alpha=0.3), [i, f])
    _same(lambda lib, a, b: lib.sub(a, b, alpha=3), [i, i[::-1].copy()])
    _same(lambda lib, a: lib.add(a, 0.5, alpha=3), [i])
    _same(lambda lib, a, b: lib.add(a, b, alpha=0.3), [f, np.arange(37) % 2 == 0])
    _same(lambda lib, a, b: lib.add(a, b, alpha=0.3), [f.astype(np.float64), f])
    _same(lambda lib, a, b: lib.add(a, b, alpha=True), [i % 2 == 0, i % 3 == 0])
    _same(lambda lib, a: lib.add(a > 0, a > 1, alpha=2), [i])
    for fn in (lambda lib, a: lib.add(a, a, alpha=0.5), lambda lib, a: lib.sub(a, 1, alpha=0.5),
               lambda lib, a: lib.add(a, True, alpha=True)):
        errs = []
        for lib in (torch, ember):
            with pytest.raises(RuntimeError) as ei:
                fn(lib, lib.tensor(i))
            errs.append(str(ei.value))
        assert errs[0] == errs[1]


@pytest.mark.parametrize("dt", DTYPES)
def test_add_alpha_gradients(dt):
    """``other``'s gradient is ``alpha * grad`` (``-alpha`` for sub), rounded as torch's."""
    a, b, g = _data(dt, 67, 11, False), _data(dt, 67, 12, False), _data(dt, 67, 13, False)
    for fn in (lambda lib, x, y: lib.add(x, y, alpha=-0.37),
               lambda lib, x, y: x.sub(y, alpha=0.1),
               lambda lib, x, y: lib.rsub(x, y, alpha=1.3),
               lambda lib, x, y: x.add(y[0], alpha=.3)):
        got = []
        for lib in (torch, ember):
            x, y = (lib.tensor(v, requires_grad=True) for v in (a, b))
            out = fn(lib, x, y)
            out.backward(lib.tensor(g))
            got.append((out, x.grad, y.grad, type(out.grad_fn).__name__))
        for t, e in zip(got[0][:3], got[1][:3]):
            bits_equal(t, e)
        assert got[0][3] == got[1][3]


LERP = {
    "0.3": lambda lib, a, b, w: lib.lerp(a, b, 0.3),
    "0.7": lambda lib, a, b, w: lib.lerp(a, b, 0.7),
    "-0.2": lambda lib, a, b, w: lib.lerp(a, b, -0.2),
    "0.5": lambda lib, a, b, w: lib.lerp(a, b, 0.5),
    "1.5": lambda lib, a, b, w: lib.lerp(a, b, 1.5),
    "tensor": lambda lib, a, b, w: lib.lerp(a, b, w),
    "0-d tensor": lambda lib, a, b, w: lib.lerp(a, b, w.reshape(-1)[0]),
    "method": lambda lib, a, b, w: a.lerp(b, 0.01),
    "lerp_": lambda lib, a, b, w: a.clone().lerp_(b, 0.99),
    "lerp_ tensor": lambda lib, a, b, w: a.clone().lerp_(b, w),
    "out": lambda lib, a, b, w: lib.lerp(a, b, 0.3, out=lib.empty(0, dtype=a.dtype)),
}


def _weights(dt, shape, seed):
    return np.random.default_rng(seed).uniform(-0.5, 1.5, shape).astype(dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", LERP)
@pytest.mark.parametrize("layout", [k for k in LAYOUTS if k != "0-d"])
def test_lerp(dt, name, layout):
    shape, view = LAYOUTS[layout]
    _same(LERP[name], [_data(dt, shape, 14), _data(dt, shape, 15), _weights(dt, shape, 16)],
          [view] * 3)
    if layout == "contiguous":
        for n in LENGTHS:
            _same(LERP[name], [_data(dt, n, n), _data(dt, n, n + 1), _weights(dt, n, n)])


ADDCMUL = {
    "1": lambda lib, a, b, c: lib.addcmul(a, b, c),
    "0.3": lambda lib, a, b, c: lib.addcmul(a, b, c, value=0.3),
    "method": lambda lib, a, b, c: a.addcmul(b, c, value=-2.5),
    "addcmul_": lambda lib, a, b, c: a.clone().addcmul_(b, c, value=0.1),
    "out": lambda lib, a, b, c: lib.addcmul(a, b, c, value=0.3, out=lib.empty(0, dtype=a.dtype)),
    "broadcast": lambda lib, a, b, c: lib.addcmul(a, b.reshape(-1)[:1], c, value=0.3),
}


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", ADDCMUL)
@pytest.mark.parametrize("layout", [k for k in LAYOUTS if k != "0-d"])
def test_addcmul(dt, name, layout):
    shape, view = LAYOUTS[layout]
    _same(ADDCMUL[name], [_data(dt, shape, 17), _data(dt, shape, 18), _data(dt, shape, 19)],
          [view] * 3)


@pytest.mark.parametrize("dt", DTYPES)
def test_lerp_addcmul_gradients(dt):
    a, b, c, g = (_data(dt, 45, s, False) for s in (20, 21, 22, 23))
    w = _weights(dt, 45, 24)
    fns = (lambda lib, x, y, z: lib.lerp(x, y, 0.3), lambda lib, x, y, z: lib.lerp(x, y, 0.8),
           lambda lib, x, y, z: lib.lerp(x, y, z),
           lambda lib, x, y, z: lib.addcmul(x, y, z, value=.3))
    for fn in fns:
        got = []
        for lib in (torch, ember):
            ts = [lib.tensor(v, requires_grad=True) for v in (a, b, w if fn is fns[2] else c)]
            out = fn(lib, *ts)
            out.backward(lib.tensor(g))
            got.append([out] + [t.grad for t in ts if t.grad is not None])
        assert len(got[0]) == len(got[1])
        for t, e in zip(*got):
            bits_equal(t, e)


_F64 = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True, width=64)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_F64, _F64, _F64), min_size=1, max_size=20))
def test_fused_float64_edges(triples):
    """float64 fused multiply-adds at the edges: ties broken by a tiny addend, products and
    sums near the largest double, subnormal products, signed zeros."""
    a, b, c = (np.array(v, np.float64) for v in zip(*triples))
    _same(lambda lib, x, y, z: lib.addcmul(z, x, y), [a, b, c])


def test_fused_float64_known_edges():
    a = np.array([-1e-3, 1.7976931348623157e308, -0.30000000000000004, 2.0])
    b = np.array([-104.0, 2.0, -1.7976931348623157e308, 1e-300])
    c = np.array([-6.297423018926616e-261, -1.7976931348623157e308,
                  -1.7976931348623157e308, -0.0])
    _same(lambda lib, x, y, z: lib.addcmul(z, x, y), [a, b, c])
    _same(lambda lib, x, y: lib.add(x, y, alpha=-1e-3), [c, np.full(4, -104.0)])


@pytest.mark.parametrize("dt", DTYPES)
def test_sgd_momentum_steps(dt):
    """The optimizers run the same kernels: SGD with momentum and weight decay, float64 too."""
    got = []
    for lib in (torch, ember):
        p = lib.nn.Parameter(lib.tensor(_data(dt, (13, 7), 25, False)))
        opt = lib.optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=1e-2, nesterov=True)
        for step in range(4):
            p.grad = lib.tensor(_data(dt, (13, 7), 26 + step, False))
            opt.step()
        got.append(p.detach())
    bits_equal(*got)
