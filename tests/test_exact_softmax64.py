"""The softmax family bit for bit against torch 2.13 CPU, float64 (Sleef's double vectors,
glibc's ``exp`` one by one) and float32: softmax and log_softmax over every dim with their
backward, sigmoid and silu with theirs, and nll_loss / cross_entropy reductions.

Inputs mix normal values with special ones (+-0, subnormals, +-inf, nan, huge, values that
overflow or underflow ``exp``); layouts cover contiguous, transposed and strided views, and
shapes cross the vector widths, the inner-dim chunking and the thread split.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import ember, torch

DTYPES = (np.float64, np.float32)


pytestmark = pytest.mark.usefixtures("same_threads")


def data(shape, dt, seed=0, special=0.0):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shape) * np.exp(rng.uniform(-3, 3, shape))).astype(dt)
    if special:
        fi = np.finfo(dt)
        vals = np.array([0.0, -0.0, fi.smallest_subnormal, fi.tiny, np.inf, -np.inf, np.nan,
                         fi.max, -fi.max, 1e4, -1e4, 709.7, -745.1, 88.7, -104.0], dt)
        m = rng.random(shape) < special
        a[m] = rng.choice(vals, int(m.sum()))
    return a


def same_bits(t, e):
    a = np.ascontiguousarray(t.detach().numpy()).reshape(-1)
    b = np.ascontiguousarray(e.detach().numpy()).reshape(-1)
    assert a.dtype == b.dtype and a.shape == b.shape
    nan = np.isnan(a)
    assert np.array_equal(nan, np.isnan(b))
    bad = np.flatnonzero(a[~nan].view(np.uint8).reshape(-1, a.itemsize)
                         != b[~nan].view(np.uint8).reshape(-1, a.itemsize))
    assert bad.size == 0, f"{bad.size} bytes differ of {a.size} elements"


SHAPES = [(7,), (4, 9), (64, 10), (300, 100), (3, 5, 20), (5, 100, 21), (2, 37, 11),
          (7, 33, 3), (3, 4, 1), (1, 5, 8), (2, 2000, 9), (40, 5, 300)]
VIEWS = {"contiguous": lambda t: t, "transposed": lambda t: t.transpose(0, -1),
         "strided": lambda t: t[..., ::2]}


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape", SHAPES)
def test_softmax_forward(dt, name, shape):
    arr = data(shape, dt, 1, special=0.02)
    for view in VIEWS.values():
        for d in range(len(shape)):
            t = getattr(torch.nn.functional, name)(view(torch.tensor(arr)), d)
            e = getattr(ember.nn.functional, name)(view(ember.tensor(arr)), d)
            same_bits(t, e)


@pytest.mark.parametrize("dt, name", [(np.float64, "softmax"), (np.float64, "log_softmax"),
                                      (np.float32, "softmax"), (np.float32, "log_softmax")])
@pytest.mark.parametrize("shape", [(4, 9), (64, 10), (3, 5, 20), (5, 100, 21), (7, 33, 3),
                                   (2, 3)])
def test_softmax_backward(dt, name, shape):
    arr, g = data(shape, dt, 1), data(shape, dt, 2)
    for d in range(len(shape)):
        grads = []
        for lib in (torch, ember):
            x = lib.tensor(arr, requires_grad=True)
            getattr(lib.nn.functional, name)(x, d).backward(lib.tensor(g))
            grads.append(x.grad)
        same_bits(*grads)


def _flat_inputs(dt):
    rng = np.random.default_rng(0)
    e = 300 if dt == np.float64 else 38
    x = np.concatenate([rng.standard_normal(20000) * 3,
                        np.sign(rng.standard_normal(10000)) * 10.0 ** rng.uniform(-e, e, 10000),
                        data((10001,), dt, 3, special=1.0)]).astype(dt)
    return x[rng.permutation(x.size)]


UNARY = {"sigmoid": lambda lib, t: t.sigmoid(),
         "silu": lambda lib, t: lib.nn.functional.silu(t)}
FLAT_VIEWS = {"flat": lambda t: t, "strided": lambda t: t[::3],
              "2d": lambda t: t[:40000].reshape(400, 100)[:, 3:97],
              "transposed": lambda t: t[:40000].reshape(400, 100).t(),
              "small": lambda t: t[:13], "0-d": lambda t: t[5]}


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("view", sorted(FLAT_VIEWS))
def test_sigmoid_silu(dt, name, view):
    x = _flat_inputs(dt)
    v, fn = FLAT_VIEWS[view], UNARY[name]
    same_bits(fn(torch, v(torch.tensor(x))), fn(ember, v(ember.tensor(x))))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("view", ["contiguous", "transposed", "strided"])
def test_sigmoid_silu_backward(dt, name, view):
    arr, g = data((300, 100), dt, 1, special=0.01), data((300, 100), dt, 2)
    v = {"contiguous": lambda t: t, "transposed": lambda t: t.t(),
         "strided": lambda t: t[:, ::3]}[view]
    grads = []
    for lib in (torch, ember):
        x = lib.tensor(arr, requires_grad=True)
        UNARY[name](lib, v(x)).backward(v(lib.tensor(g)))
        grads.append(x.grad)
    same_bits(*grads)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(1000, 100), (37, 5), (5000, 7), (1, 3), (4, 5, 6, 7),
                                   (5,)])
def test_nll_cross_entropy_reductions(dt, shape):
    rng = np.random.default_rng(3)
    x = data(shape, dt, 1)
    c = shape[0] if len(shape) == 1 else shape[1]
    tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
    target = rng.integers(0, c, tshape)
    ignored = target.copy()
    if ignored.ndim:
        ignored[rng.random(tshape) < 0.3] = -100
    w = (rng.random(c) + 0.5).astype(dt)
    for fn in ("cross_entropy", "nll_loss"):
        for tg, weight in ((target, None), (ignored, None), (target, w), (ignored, w)):
            for red in ("mean", "sum"):
                out = []
                for lib in (torch, ember):
                    kw = {} if weight is None else {"weight": lib.tensor(weight)}
                    out.append(getattr(lib.nn.functional, fn)(
                        lib.tensor(x), lib.tensor(tg), reduction=red, **kw))
                same_bits(*out)


@pytest.mark.parametrize("dt", DTYPES)
def test_logsumexp_within_an_ulp(dt):
    """torch's exp and log here are MKL's (VML), whose algorithms are not published: the
    max and the sum follow torch, the result is within one ulp."""
    a = data((300, 100), dt, 1)
    for d in (0, 1, (0, 1)):
        t = torch.tensor(a).logsumexp(d).numpy()
        e = ember.tensor(a).logsumexp(d).numpy()
        assert np.all(np.abs(t - e) <= np.spacing(np.abs(t)))
