"""lgamma, mvlgamma, hypot and logaddexp2 bit for bit against torch: Sleef's vector kernels,
torch's split between vectors and the scalar tail, strided inputs, special values."""

import numpy as np
import pytest
import torch

import ember

pytestmark = pytest.mark.usefixtures("same_threads")

DTYPES = [np.float32, np.float64]


def _same(ref, got):
    r, g = ref.detach().numpy(), got.detach().numpy()
    assert r.dtype == g.dtype and r.shape == g.shape
    ints = {2: np.uint16, 4: np.uint32, 8: np.uint64}[r.dtype.itemsize]
    eq = (r.view(ints) == g.view(ints)) | (np.isnan(r) & np.isnan(g))
    bad = np.flatnonzero(~eq.reshape(-1))
    assert bad.size == 0, (bad.size, r.reshape(-1)[bad[:5]], g.reshape(-1)[bad[:5]])


def _gamma_values(dt, n=100000, seed=0):
    """Values across lgamma's branches (tiny, reflection, the three polynomials, Stirling),
    near the poles and the zeros at 1 and 2, wide ranges and specials."""
    rng = np.random.default_rng(seed)
    fi = np.finfo(dt)
    emax = 38 if dt == np.float32 else 300
    k = n // 8
    poles = -rng.integers(1, 60, k) + rng.choice([-1, 1], k) * 10.0 ** rng.uniform(-12, -1, k)
    wide = np.sign(rng.standard_normal(k)) * 10.0 ** rng.uniform(-emax - 6, emax, k)
    spec = [
        0.0,
        -0.0,
        fi.smallest_subnormal,
        -fi.smallest_subnormal,
        fi.tiny,
        -fi.tiny,
        np.inf,
        -np.inf,
        np.nan,
        fi.max,
        -fi.max,
        1.0,
        2.0,
        -1.0,
        -2.0,
        0.5,
        -0.5,
        1.1,
        1.2,
        2.3,
        7.0,
        1e-30,
        -1e-30,
        1e-306,
        -1e-306,
        4096.5,
        -4096.5,
        2.0**28 + 0.5,
        -(2.0**28) - 0.5,
        2.0**52 + 1,
        1e36,
        4e36,
        2.5e305,
    ]
    x = np.concatenate(
        [
            rng.uniform(-12, 12, 3 * k),
            rng.uniform(0, 3, k),
            rng.uniform(-200, 200, k),
            poles,
            wide,
            1 + rng.standard_normal(k // 2) * 1e-3,
            2 + rng.standard_normal(k // 2) * 1e-3,
            np.array(spec * 10),
        ]
    )
    with np.errstate(over="ignore"):
        x = x.astype(dt)
    return x[rng.permutation(x.size)]


@pytest.mark.parametrize("dt", DTYPES)
def test_lgamma_values(dt):
    x = _gamma_values(dt)
    _same(torch.lgamma(torch.from_numpy(x)), ember.lgamma(ember.from_numpy(x)))


@pytest.mark.parametrize("dt", DTYPES)
def test_lgamma_layouts(dt):
    """Every element runs Sleef (vml's map computes the partial last vector too): odd
    lengths, 0-d, transposed, sliced and broadcast inputs, and the in-place form."""
    x = _gamma_values(dt, 4000, seed=1)
    for n in list(range(1, 40)) + [1000, 2049, 33001]:
        v = np.resize(x, n)
        _same(torch.from_numpy(v).lgamma(), ember.from_numpy(v).lgamma())
    m = x[: 37 * 29].reshape(37, 29)
    tm, em = torch.from_numpy(m), ember.from_numpy(m)
    for f in (
        lambda a: a.t(),
        lambda a: a[:, ::3],
        lambda a: a[::2].flip(0),
        lambda a: a[0],
        lambda a: a[3, 4],
        lambda a: a[:1].expand(5, 29),
    ):
        _same(f(tm).lgamma(), f(em).lgamma())
    t2, e2 = tm.t().clone(), em.t().clone()
    t2.lgamma_()
    e2.lgamma_()
    _same(t2, e2)


@pytest.mark.parametrize("dt", [np.float16])
def test_lgamma_half(dt):
    x = np.random.default_rng(2).uniform(-20, 20, 5000).astype(dt)
    _same(torch.from_numpy(x).lgamma(), ember.from_numpy(x).lgamma())


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("p", [1, 2, 3, 5, 8])
def test_mvlgamma(dt, p):
    x = np.random.default_rng(p).uniform(p, 40, (60, 17)).astype(dt)
    _same(torch.mvlgamma(torch.from_numpy(x), p), ember.mvlgamma(ember.from_numpy(x), p))
