"""Float kernels bit for bit: ember's results must equal torch 2.13 CPU's to the last bit.

Each case runs the same op on the same data (contiguous, transposed and strided views) in
both libraries and compares the raw bits. Sizes cross torch's thresholds: vector width, the
cascade's block sizes, and the 32768-element grain where work is split between threads.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ember._ops import _exact
from tests.helpers import ember, torch

DTYPES = (np.float32, np.float64)


pytestmark = pytest.mark.usefixtures("same_threads")


def data(shape, dt, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * np.exp(rng.uniform(-4, 4, shape))).astype(dt)


def bits_equal(t, e):
    """Same shape, dtype and bits (a nan matches any nan: its sign and payload are not
    part of a result torch defines)."""
    a, b = t.detach().numpy(), e.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype
    a, b = np.ascontiguousarray(a).reshape(-1), np.ascontiguousarray(b).reshape(-1)
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    assert np.array_equal(nan, np.isnan(b) if b.dtype.kind == "f" else nan)
    ai, bi = a[~nan].view(np.uint8), b[~nan].view(np.uint8)
    if not np.array_equal(ai, bi):
        bad = np.flatnonzero((a != b) & ~nan)
        raise AssertionError(f"{bad.size} of {a.size} differ, e.g. {a.reshape(-1)[bad[:3]]} "
                             f"vs {b.reshape(-1)[bad[:3]]}")


VIEWS = {
    "contiguous": lambda lib, t: t,
    "transposed": lambda lib, t: t.permute(*range(t.dim() - 1, -1, -1)),
    "strided": lambda lib, t: t[..., ::2],
    "sliced": lambda lib, t: t[1:],
}


def both(arr, view, fn):
    tt = VIEWS[view](torch, torch.tensor(arr))
    te = VIEWS[view](ember, ember.tensor(arr))
    return fn(torch, tt), fn(ember, te)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [1, 3, 7, 8, 9, 15, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257,
                               1000, 4097, 32767, 32768, 32769, 70001, 600001])
def test_full_sum_and_mean(dt, n):
    a = data(n, dt, n)
    for fn in (lambda lib, t: t.sum(), lambda lib, t: t.mean(), lambda lib, t: t.nansum()):
        bits_equal(*both(a, "contiguous", fn))


SHAPES = [(3, 5), (7, 9), (16, 33), (33, 16), (100, 40), (257, 129), (5, 17, 9), (8, 8, 8),
          (3, 200, 7), (2, 3, 4, 5), (40000, 3), (3, 40000), (6000, 7, 5), (130, 300, 3)]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("view", list(VIEWS))
def test_sum_mean_every_dim_combination(dt, shape, view):
    a = data(shape, dt)
    nd = len(shape)
    for r in range(1, nd + 1):
        for dims in itertools.combinations(range(nd), r):
            for keep, name in itertools.product((False, True), ("sum", "mean")):
                bits_equal(*both(a, view, lambda lib, t, d=dims, k=keep, f=name:
                                 getattr(t, f)(d, keepdim=k)))
    bits_equal(*both(a, view, lambda lib, t: t.sum()))
    bits_equal(*both(a, view, lambda lib, t: t.mean()))


@pytest.mark.parametrize("dt", DTYPES)
def test_nansum_skips_nan_in_torch_order(dt):
    a = data((300, 70), dt)
    a[3, 4] = np.nan
    a[7, :] = np.nan
    a[:, 9] = np.nan
    for view in VIEWS:
        for dims in (None, 0, 1):
            bits_equal(*both(a, view, lambda lib, t, dims=dims: lib.nansum(t, dims)))


def test_signed_zero_and_specials():
    a = np.array([-0.0, -0.0, -0.0], np.float32)
    bits_equal(*both(a, "contiguous", lambda lib, t: t.sum()))
    b = np.array([np.inf, -np.inf, 1.0, np.nan, 2.0] * 5, np.float32)
    for fn in (lambda lib, t: t.sum(), lambda lib, t: t.nansum(), lambda lib, t: t.mean()):
        bits_equal(*both(b, "contiguous", fn))


@pytest.mark.parametrize("threads", [1, 3])
def test_other_thread_counts(threads):
    saved = _exact.get_num_threads()
    _exact.set_num_threads(threads)
    torch.set_num_threads(threads)
    try:
        for shape in [(70001,), (40000, 3), (3, 40000), (130, 300, 3)]:
            a = data(shape, np.float32)
            for view in VIEWS:
                for d in range(len(shape)):
                    bits_equal(*both(a, view, lambda lib, t, d=d: t.sum(d)))
                bits_equal(*both(a, view, lambda lib, t: t.sum()))
    finally:
        _exact.set_num_threads(saved)


def unit_data(shape, dt, seed=0):
    """Factors near 1, so that long products stay finite and every rounding shows."""
    rng = np.random.default_rng(seed)
    return (1 + rng.standard_normal(shape) * 0.05).astype(dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(5,), (31,), (32,), (33,), (100,), (1000,), (40000,),
                                   (70001,), (7, 9), (33, 40), (64, 70), (5, 17, 9),
                                   (3, 200, 7), (40000, 3), (300, 130)], ids=str)
@pytest.mark.parametrize("view", list(VIEWS))
def test_prod(dt, shape, view):
    if view == "sliced" and shape[0] < 2:
        return
    a = unit_data(shape, dt)
    bits_equal(*both(a, view, lambda lib, t: t.prod()))
    for d in range(len(shape)):
        bits_equal(*both(a, view, lambda lib, t, d=d: t.prod(d)))
        bits_equal(*both(a, view, lambda lib, t, d=d: t.prod(d, keepdim=True)))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(1,), (9,), (1000,), (7, 9), (40, 33), (5, 17, 9)], ids=str)
@pytest.mark.parametrize("view", list(VIEWS))
def test_cumsum_cumprod(dt, shape, view):
    if view == "sliced" and shape[0] < 2:
        return
    a, u = data(shape, dt), unit_data(shape, dt)
    for d in range(len(shape)):
        bits_equal(*both(a, view, lambda lib, t, d=d: t.cumsum(d)))
        bits_equal(*both(u, view, lambda lib, t, d=d: t.cumprod(d)))
    big = np.array([1e8, 1.0, -1e8], dt)
    bits_equal(*both(big, "contiguous", lambda lib, t: t.cumsum(0)))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(5,), (1000,), (40000,), (70001,), (7, 9), (100, 40),
                                   (5, 17, 9), (40000, 3)], ids=str)
@pytest.mark.parametrize("view", list(VIEWS))
def test_var_std_welford(dt, shape, view):
    if dt == np.float64 and shape == (40000, 3):
        return          # past reduction._WELFORD_MAX float64 outputs are within an ulp
    a = data(shape, dt) + 3
    nd = len(shape)
    for name in ("var", "std"):
        bits_equal(*both(a, view, lambda lib, t, f=name: getattr(t, f)()))
        bits_equal(*both(a, view, lambda lib, t, f=name: getattr(t, f)(correction=0)))
        for r in range(1, nd + 1):
            for dims in itertools.combinations(range(nd), r):
                bits_equal(*both(a, view, lambda lib, t, f=name, d=dims: getattr(t, f)(d)))
    if a.size < 40000:
        for fn in (lambda lib, t: lib.var_mean(t, 0), lambda lib, t: lib.std_mean(t, -1),
                   lambda lib, t: lib.var_mean(t)):
            rt, re_ = both(a, view, fn)
            bits_equal(rt[0], re_[0])
            bits_equal(rt[1], re_[1])


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(5,), (8,), (17,), (1000,), (70001,), (7, 9), (100, 40),
                                   (5, 17, 9), (40000, 3)], ids=str)
@pytest.mark.parametrize("view", list(VIEWS))
def test_vector_norm(dt, shape, view):
    a = data(shape, dt)
    nd = len(shape)
    dims = [None] + [c for r in range(1, nd + 1) for c in itertools.combinations(range(nd), r)]
    for p, d in itertools.product((2, 1, float("inf"), 0), dims):
        bits_equal(*both(a, view, lambda lib, t, p=p, d=d: lib.linalg.vector_norm(t, p, d)))
    bits_equal(*both(a, view, lambda lib, t: t.norm()))
    bits_equal(*both(a, view, lambda lib, t: t.norm(dim=-1)))
    for p in (3, 0.5):                  # pow one by one: glibc's, not NumPy's AVX512 loop
        bits_equal(*both(a, view, lambda lib, t, p=p: lib.linalg.vector_norm(t, p, -1)))


@pytest.mark.parametrize("dt", ["float32", "float64", "int64"])
def test_linspace_all_lengths(dt):
    for n in list(range(0, 70)) + [100, 1000, 4097, 40000, 100003]:
        for a, b in ((-3.7, 11.3), (0, 1), (5, -20), (1e6, -2.5)):
            if dt == "int64" and not float(a).is_integer():
                continue
            t = torch.linspace(a, b, n, dtype=getattr(torch, dt))
            e = ember.linspace(a, b, n, dtype=getattr(ember, dt))
            bits_equal(t, e)


@pytest.mark.parametrize("dt", DTYPES)
def test_pow_scalar_special_exponents(dt):
    x = data(1000, dt)
    x[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, -2.0]
    for e in (2, 3, -0.5, -1, -2, 2.0, -1.0):     # 0.5 is sqrt: see docs/differences.md
        bits_equal(*both(x, "contiguous", lambda lib, t, e=e: t ** e))
        bits_equal(*both(x, "contiguous", lambda lib, t, e=e: lib.pow(t, e)))


@pytest.mark.parametrize("shape", [(8,), (16,), (17,), (33,), (1000,), (40001,), (7, 9),
                                   (100, 37), (5, 17, 9), (300, 300)], ids=str)
@pytest.mark.parametrize("view", list(VIEWS))
def test_sigmoid_silu_float32(shape, view):
    """Sleef's expf in the vectors, glibc's in the scalar tail and on strided rows."""
    if view == "sliced" and shape[0] < 2:
        return
    a = data(shape, np.float32)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.7, -104.5, 1e-30]
    a.reshape(-1)[:8] = special[:min(8, a.size)]
    bits_equal(*both(a, view, lambda lib, t: t.sigmoid()))
    bits_equal(*both(a, view, lambda lib, t: lib.nn.functional.silu(t)))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_large_sums_in_slices(dt, view):
    """(1000, 1000): the first cascade level's large strided slices, added one at a time."""
    a = data((1000, 1000), dt, 3)
    for fn in (lambda lib, t: t.sum(), lambda lib, t: t.sum(1), lambda lib, t: t.sum(0),
               lambda lib, t: t.mean(), lambda lib, t: t.nansum(), lambda lib, t: t.var(1)):
        bits_equal(*both(a, view, fn))
    a[5, 7] = np.nan
    bits_equal(*both(a, view, lambda lib, t: t.nansum()))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(7, 64), (3, 1000), (2, 5, 200), (50, 77), (128, 10)],
                         ids=str)
def test_softmax_rows_with_specials(dt, shape):
    """Long last-dim rows run on the rows, short ones on the columns: both with inf, nan
    and rows that are -inf throughout."""
    rng = np.random.default_rng(5)
    a = (rng.standard_normal(shape) * rng.choice([1, 10, 100], shape)).astype(dt)
    a.flat[::37] = np.inf
    a.flat[5::41] = -np.inf
    a.flat[3::53] = np.nan
    a[0] = -np.inf
    for view in ("contiguous", "strided"):
        for name in ("softmax", "log_softmax"):
            bits_equal(*both(a, view, lambda lib, t, f=name: getattr(lib, f)(t, -1)))


@pytest.mark.parametrize("dt", (np.complex64, np.complex128))
@pytest.mark.parametrize("n", (1, 3, 8, 13, 30, 47))
@pytest.mark.parametrize("kind", ("contiguous", "row", "transposed", "strided", "number"))
def test_complex_mul(dt, n, kind):
    """Complex products: unfused in the vector steps, fused (NumPy's) in the loops the
    compiler contracts, unfused again where it leaves an element out of its pairs."""
    rng = np.random.default_rng(n)
    a, b = ((rng.standard_normal((37, n)) + 1j * rng.standard_normal((37, n))).astype(dt)
            for _ in range(2))
    got = []
    for lib in (ember, torch):
        x, y = lib.from_numpy(a), lib.from_numpy(b)
        x, y = {"contiguous": (x, y), "row": (x, y[:1]), "transposed": (x.T, y.T),
                "strided": (x[:, ::2], y[:, ::2]), "number": (x, 0.3 - 1.7j)}[kind]
        got.append((x * y).numpy())
    assert np.array_equal(got[0], got[1])


@pytest.mark.parametrize("dt", (np.complex64, np.complex128))
@pytest.mark.parametrize("shape,dims", [((3, 76, 16), (0, 1)), ((3, 76, 5), (0, 1)),
                                        ((100, 7), (0,)), ((4, 300, 33), (1,))])
def test_complex_sum_over_outer_dims(dt, shape, dims):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    got = [lib.from_numpy(a).sum(dims).numpy() for lib in (ember, torch)]
    assert np.array_equal(got[0], got[1])
