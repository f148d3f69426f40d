"""The Sleef ports run in cache-sized blocks on large arrays: bit for bit the same as one
pass over the whole array (specials, subnormals and huge values mixed in)."""

import numpy as np
import pytest

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
    x = _data(dt, (3, 3 * S._BLOCK + 7), 1)
    _same(fn(x), fn.__wrapped__(x))


@pytest.mark.parametrize("name,dt", [("powf", np.float32), ("powf_scalar", np.float32),
                                     ("powd", np.float64)])
def test_pow_blocked(name, dt):
    fn = getattr(S, name)
    x = np.abs(_data(dt, (2 * S._BLOCK + 5, 3), 2))
    x.reshape(-1)[::97] *= -1
    y = _data(dt, x.shape, 3) / 100
    _same(fn(x, y), fn.__wrapped__(x, y))
    for e in (1.5, 2.0, -0.5, 3.0):
        _same(fn(x, dt(e)), fn.__wrapped__(x, dt(e)))
    _same(fn(x, y[:1]), fn.__wrapped__(x, y[:1]))     # broadcast operand
