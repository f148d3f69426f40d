"""The Sleef ports run in cache-sized blocks on large arrays: bit for bit the same as one
pass over the whole array (specials, subnormals and huge values mixed in)."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ember._ops import _exact, _sleef
from ember._ops import _sleef_d as D
from ember._ops import _sleef_ext as S

UNARY = ["expm1f", "sinhf", "coshf", "tanhf", "log1pf",
         "expm1d", "sinhd", "coshd", "tanhd", "log1pd", "erfd"]
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 5e-324, 1e300, -1e300,
           88.7, -88.7, 89.5, 710.0, -1.0, -0.5, 3e38, -3e38, 1.0, 2.0]


def _data(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    with np.errstate(all="ignore"):
        x = (rng.standard_normal(shape) * np.exp(rng.uniform(-8, 8, shape))).astype(dtype)
        flat = x.reshape(-1)
        idx = rng.integers(0, flat.size, 400)
        flat[idx] = np.array(SPECIAL, dtype)[rng.integers(0, len(SPECIAL), 400)]
    return x


def _same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


@pytest.mark.parametrize("name", UNARY)
def test_unary_blocked(name):
    fn = getattr(S, name)
    dt = np.float32 if name.endswith("f") else np.float64
    x = _data(dt, (3, 3 * _sleef._CHUNK + 7), 1)
    _same(fn(x), fn.__wrapped__(x))


@pytest.mark.parametrize("name,dt", [("powf", np.float32), ("powf_scalar", np.float32),
                                     ("powd", np.float64)])
def test_pow_blocked(name, dt):
    fn = getattr(S, name)
    x = np.abs(_data(dt, (2 * _sleef._CHUNK + 5, 3), 2))
    x.reshape(-1)[::97] *= -1
    y = _data(dt, x.shape, 3) / 100
    _same(fn(x, y), fn.__wrapped__(x, y))
    for e in (1.5, 2.0, -0.5, 3.0):
        _same(fn(x, dt(e)), fn.__wrapped__(x, dt(e)))
    _same(fn(x, y[:1]), fn.__wrapped__(x, y[:1]))     # broadcast operand


_F64 = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True, width=64)


@settings(max_examples=200, deadline=None)
@given(st.lists(_F64, min_size=1, max_size=40), _F64, st.lists(_F64, min_size=1, max_size=40),
       st.booleans(), st.booleans())
@example(a=[9.461542815064822e+307], k=-1.9, c=[2.9517427735750333e+292],
         scalar_c=False, split=False)                  # the product overflows, the fma not
def test_fmak_in_place(a, k, c, scalar_c, split):
    """The in-place ``fma(a, constant, c)`` of the double kernels against the reference fma
    (specials, huge, tiny and subnormal operands)."""
    n = min(len(a), len(c))
    a = np.array(a[:n] * 3, np.float64)
    c = np.float64(c[0]) if scalar_c else np.array(c[:n] * 3, np.float64)
    with np.errstate(all="ignore"):
        ref = _exact.fma(a, np.full_like(a, k), c)
        got = D._fmak(a, k, c, D._split(a) if split else None)
    _same(np.asarray(got), np.asarray(ref))
