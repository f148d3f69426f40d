"""expm1, log1p, sinh, cosh, pow and gelu bit for bit against torch: Sleef's vector
kernels, torch's split between vectors and the scalar tail, strided inputs, special values."""

import numpy as np
import pytest
import torch

import ember

pytestmark = pytest.mark.usefixtures("same_threads")


def _values(dt, n=6000, seed=0):
    """Normal and wide-range values, the thresholds each kernel tests, and specials."""
    rng = np.random.default_rng(seed)
    fi = np.finfo(dt)
    emax = 38 if dt == np.float32 else 300
    wide = np.sign(rng.standard_normal(n)) * 10.0 ** rng.uniform(-emax - 6, emax, n)
    spec = [0.0, -0.0, fi.smallest_subnormal, -fi.smallest_subnormal, fi.tiny, -fi.tiny,
            np.inf, -np.inf, np.nan, fi.max, -fi.max, 1.0, -1.0, 0.5, -0.5, 2.0, 1e-8,
            88.72, 88.7228317, 89.0, 89.5, -16.6, -16.7, -36.7, -36.8, 8.66, 18.7, 103.9,
            -104.0, 709.7, 709.79, 710.5, -745.1, -1000.5, 1e38, 3e38, 1e307, 1e308,
            -0.9999999, -1.5]
    x = np.concatenate([rng.standard_normal(n) * 3, rng.standard_normal(n) * 40, wide,
                        np.array(spec * 20)])
    with np.errstate(over="ignore"):
        x = x.astype(dt)
    return x[rng.permutation(x.size)]


def _same(ref, got):
    r, g = ref.detach().numpy(), got.detach().numpy()
    assert r.dtype == g.dtype and r.shape == g.shape
    ints = np.uint32 if r.dtype == np.float32 else np.uint64
    eq = (r.view(ints) == g.view(ints)) | (np.isnan(r) & np.isnan(g))
    bad = np.flatnonzero(~eq.reshape(-1))
    assert bad.size == 0, (bad.size, r.reshape(-1)[bad[:5]], g.reshape(-1)[bad[:5]])


UNARY = {
    "expm1": lambda t, x: t.expm1(x),
    "log1p": lambda t, x: t.log1p(x),
    "sinh": lambda t, x: t.sinh(x),
    "cosh": lambda t, x: t.cosh(x),
    "pow 1.5": lambda t, x: x ** 1.5,
    "pow -0.75": lambda t, x: t.pow(x, -0.75),
    "pow 7": lambda t, x: x ** 7,
}


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(UNARY))
def test_contiguous(name, dt):
    x = _values(dt)
    fn = UNARY[name]
    _same(fn(torch, torch.tensor(x)), fn(ember, ember.tensor(x)))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(UNARY))
def test_tails_and_strides(name, dt):
    """Odd sizes (a scalar tail after the vectors), transposed and sliced views."""
    fn = UNARY[name]
    x = _values(dt, n=1200, seed=1)
    for n in (1, 7, 15, 17, 31, 1003):
        _same(fn(torch, torch.tensor(x[:n])), fn(ember, ember.tensor(x[:n])))
    a = x[:1001 * 3].reshape(1001, 3)
    tt, et = torch.tensor(a), ember.tensor(a)
    _same(fn(torch, tt.t()), fn(ember, et.t()))
    _same(fn(torch, tt[::2]), fn(ember, et[::2]))
    _same(fn(torch, tt[:, 1:]), fn(ember, et[:, 1:]))
    _same(fn(torch, torch.tensor(x[5])), fn(ember, ember.tensor(x[5])))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_pow_tensor(dt):
    x = _values(dt)
    y = np.roll(x, 1)
    tb, eb = torch.tensor(np.abs(x)), ember.tensor(np.abs(x))
    _same(tb ** torch.tensor(y), eb ** ember.tensor(y))
    _same(torch.tensor(x) ** torch.tensor(y), ember.tensor(x) ** ember.tensor(y))
    _same(torch.pow(tb[:1003], torch.tensor(y[:1003])),
          ember.pow(eb[:1003], ember.tensor(y[:1003])))


def test_gelu_tanh_float32():
    x = _values(np.float32)
    for n in (x.size, 1003, 9):
        _same(torch.nn.functional.gelu(torch.tensor(x[:n]), approximate="tanh"),
              ember.nn.functional.gelu(ember.tensor(x[:n]), approximate="tanh"))


def test_gelu_erf_float64():
    """Sleef's double erf in the vectors (the scalar tail is glibc's, not compared)."""
    x = _values(np.float64)
    x = x[:x.size // 16 * 16]
    _same(torch.nn.functional.gelu(torch.tensor(x)), ember.nn.functional.gelu(ember.tensor(x)))


def test_backward_uses_the_kernels():
    """SinhBackward0 is ``grad * cosh(x)``; PowBackward0 ``grad * e * x^(e-1)``."""
    x = _values(np.float32, n=500)
    x = x[np.isfinite(x) & (np.abs(x) < 80)]
    for lib, out in ((torch, []), (ember, [])):
        t = lib.tensor(x, requires_grad=True)
        t.sinh().sum().backward()
        out.append(t.grad)
        t = lib.tensor(np.abs(x), requires_grad=True)
        (t ** 2.5).sum().backward()
        out.append(t.grad)
        if lib is torch:
            ref = out
        else:
            got = out
    for r, g in zip(ref, got):
        _same(r, g)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_pow_plain_positive(dt):
    """Blocks with no special operand (x > 0 finite, y finite nonzero, x != 1) skip the
    fixups: still torch's bits, large arrays included."""
    rng = np.random.default_rng(5)
    x = np.exp(rng.uniform(-30, 30, 70000)).astype(dt)
    y = rng.uniform(-4, 4, 70000).astype(dt)
    tx, ex = torch.tensor(x), ember.tensor(x)
    _same(tx ** torch.tensor(y), ex ** ember.tensor(y))
    _same(tx ** 1.5, ex ** 1.5)
    _same(tx ** -0.75, ex ** -0.75)
