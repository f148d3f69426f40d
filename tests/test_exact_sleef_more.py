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


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_lgamma_half(half):
    """Vectorized<Half>/<BFloat16>: Sleef's float32 lgamma, rounded."""
    rng = np.random.default_rng(2)
    x = np.concatenate([rng.uniform(-20, 20, 20000), rng.uniform(-1000, 60000, 5000)])
    x = np.concatenate([x, [0, -0.0, np.inf, -np.inf, np.nan, 1, 2, -1]]).astype(np.float32)
    t = torch.from_numpy(x).to(getattr(torch, half)).lgamma()
    e = ember.from_numpy(x).to(getattr(ember, half)).lgamma()
    assert str(e.dtype) == str(t.dtype)
    _same(t.float(), e.float())


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("p", [1, 2, 3, 5, 8])
def test_mvlgamma(dt, p):
    x = np.random.default_rng(p).uniform(p, 40, (60, 17)).astype(dt)
    _same(torch.mvlgamma(torch.from_numpy(x), p), ember.mvlgamma(ember.from_numpy(x), p))


def _hypot_values(dt, n=100000, seed=3):
    """Pairs over the whole exponent range (one of them near the other's magnitude, where
    Sleef's and glibc's roundings part most often), subnormals and specials, all pairs."""
    rng = np.random.default_rng(seed)
    fi = np.finfo(dt)
    emax = 38 if dt == np.float32 else 307
    x = np.sign(rng.standard_normal(n)) * 10.0 ** rng.uniform(-emax - 7, emax, n)
    y = np.concatenate([x[: n // 2] * rng.uniform(0.3, 3, n // 2), rng.standard_normal(n // 2)])
    y = y * np.sign(rng.standard_normal(n))
    sp = np.array([0, -0.0, np.inf, -np.inf, np.nan, fi.max, fi.tiny, fi.smallest_subnormal, 1, 3])
    sx, sy = np.meshgrid(sp, sp)
    with np.errstate(over="ignore"):
        x = np.concatenate([x, sx.ravel()]).astype(dt)
        y = np.concatenate([y, sy.ravel()]).astype(dt)
    return x, y


@pytest.mark.parametrize("dt", DTYPES)
def test_hypot_values(dt):
    x, y = _hypot_values(dt)
    tx, ty, ex, ey = (m.from_numpy(v) for m in (torch, ember) for v in (x, y))
    _same(torch.hypot(tx, ty), ember.hypot(ex, ey))
    _same(torch.hypot(tx[:-7], ty[7:]), ember.hypot(ex[:-7], ey[7:]))


@pytest.mark.parametrize("dt", DTYPES)
def test_hypot_layouts(dt):
    """Sleef in the vectors, glibc's hypot on each row's tail and on strided rows."""
    x, y = _hypot_values(dt, 20000, seed=4)
    a, b = x[: 137 * 129].reshape(137, 129), y[: 137 * 129].reshape(137, 129)
    ta, tb, ea, eb = (m.from_numpy(v) for m in (torch, ember) for v in (a, b))
    cases = [
        lambda p, q: p.hypot(q),
        lambda p, q: p.t().hypot(q.t()),
        lambda p, q: p[:129].hypot(q[:129].t()),
        lambda p, q: p[:, 3:100].hypot(q[:, 3:100]),
        lambda p, q: p[:, ::2].hypot(q[:, ::2]),
        lambda p, q: p.hypot(q[0]),
        lambda p, q: p.hypot(q[:, :1]),
        lambda p, q: p.hypot(q[1, 1]),
        lambda p, q: p.reshape(-1)[:1001].hypot(q.reshape(-1)[:1001]),
        lambda p, q: p.reshape(-1)[:7].hypot(q.reshape(-1)[:7]),
    ]
    for f in cases:
        _same(f(ta, tb), f(ea, eb))
    t2, e2 = ta.clone(), ea.clone()
    t2.hypot_(tb)
    e2.hypot_(eb)
    _same(t2, e2)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex_abs(dt):
    """Sleef's hypot in steps of one vector (8 complex64, 4 complex128), glibc's hypot on
    the rest of each row and on strided rows; pairs where the two round apart."""
    fdt = np.float32 if dt == np.complex64 else np.float64
    x, y = _hypot_values(fdt, 100000, seed=5)
    z = np.empty(x.size, dt)
    z.real, z.imag = x, y
    tz, ez = torch.from_numpy(z), ember.from_numpy(z)
    _same(tz.abs(), ez.abs())
    for n in (1, 3, 4, 7, 8, 9, 15, 17, 31, 33):
        _same(tz[:n].abs(), ez[:n].abs())
    m = z[: 199 * 201].reshape(199, 201)
    tm, em = torch.from_numpy(m), ember.from_numpy(m)
    for f in (
        lambda a: a,
        lambda a: a.t(),
        lambda a: a[:, ::2],
        lambda a: a[:, 1:],
        lambda a: a[3],
    ):
        _same(f(tm).abs(), f(em).abs())


def _same_complex(ref, got):
    r, g = ref.detach().numpy(), got.detach().numpy()
    assert r.dtype == g.dtype and r.shape == g.shape
    r, g = np.ascontiguousarray(r).view(r.real.dtype), np.ascontiguousarray(g).view(g.real.dtype)
    assert ((r == g) | (np.isnan(r) & np.isnan(g))).all()


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex_sgn_and_abs_grad(dt):
    """sgn: each part over Sleef's hypot in steps of two vectors, times 1/hypot (c10's
    complex division by a real) one by one; abs's gradient is grad * sgn."""
    fdt = np.float32 if dt == np.complex64 else np.float64
    rng = np.random.default_rng(9)
    shape = (301, 303)
    z = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) * 10.0 ** rng.uniform(
        -3, 3, shape
    )
    z = z.astype(dt)
    fi = np.finfo(fdt)
    sp = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, 3, fi.max, fi.smallest_subnormal], fdt)
    spec = (sp[:, None] + 1j * sp[None, :]).astype(dt).ravel()
    z.reshape(-1)[: spec.size] = spec
    z.reshape(-1)[1000 : 1000 + spec.size] = spec
    tz, ez = torch.from_numpy(z), ember.from_numpy(z)
    for f in (
        lambda a: a,
        lambda a: a.t(),
        lambda a: a[:, ::2],
        lambda a: a[3],
        lambda a: a[:, :37],
    ):
        _same_complex(f(tz).sgn(), f(ez).sgn())
    for n in range(1, 40):
        _same_complex(tz.reshape(-1)[:n].sgn(), ez.reshape(-1)[:n].sgn())
    tg = torch.from_numpy(z[:, 100:]).requires_grad_()
    eg = ember.from_numpy(z[:, 100:]).requires_grad_()
    tg.abs().sum().backward()
    eg.abs().sum().backward()
    _same_complex(tg.grad, eg.grad)


def _pair_values(dt, n=100000, seed=11):
    rng = np.random.default_rng(seed)
    fi = np.finfo(dt)
    a = rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3, n)
    b = a + rng.standard_normal(n) * 10.0 ** rng.uniform(-5, 2, n)
    sp = np.array([0, -0.0, np.inf, -np.inf, np.nan, fi.max, -fi.max, fi.tiny])
    sp = np.concatenate([sp, [fi.smallest_subnormal, 1, -1, 200, -200, 1e4, -1e4]])
    sx, sy = np.meshgrid(sp, sp)
    wide = rng.uniform(-1e30, 1e30, (2, 1000))
    with np.errstate(over="ignore"):
        a = np.concatenate([a, sx.ravel(), wide[0]]).astype(dt)
        b = np.concatenate([b, sy.ravel(), wide[1]]).astype(dt)
    return a, b


@pytest.mark.parametrize("dt", DTYPES)
def test_logaddexp2(dt):
    """max + log1p(exp2(-|a - b|)) * (1 / ln 2), the last two fused: Sleef's exp2 and
    log1p in the vectors, glibc's one by one; its gradient divides by 1 + pow(2, ·)."""
    a, b = _pair_values(dt)
    ta, tb, ea, eb = (m.from_numpy(v) for m in (torch, ember) for v in (a, b))
    _same(torch.logaddexp2(ta, tb), ember.logaddexp2(ea, eb))
    m = 300 * 301
    tA, tB = ta[:m].reshape(300, 301), tb[:m].reshape(300, 301)
    eA, eB = ea[:m].reshape(300, 301), eb[:m].reshape(300, 301)
    cases = [
        lambda p, q: p.t().logaddexp2(q.t()),
        lambda p, q: p[:, ::2].logaddexp2(q[:, ::2]),
        lambda p, q: p.logaddexp2(q[0]),
        lambda p, q: p[:300, :300].logaddexp2(q[:300, :300].t()),
        lambda p, q: p.logaddexp2(q[2, 2]),
        lambda p, q: p[0, :7].logaddexp2(q[0, :7]),
    ]
    for f in cases:
        _same(f(tA, tB), f(eA, eB))
    g = np.random.default_rng(1).standard_normal(10007).astype(dt)
    tg = [torch.from_numpy(v[:10007].copy()).requires_grad_() for v in (a, b)]
    eg = [ember.from_numpy(v[:10007].copy()).requires_grad_() for v in (a, b)]
    torch.logaddexp2(*tg).backward(torch.from_numpy(g))
    ember.logaddexp2(*eg).backward(ember.from_numpy(g))
    for t, e in zip(tg, eg):
        _same(t.grad, e.grad)


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
def test_logaddexp_half(half, name):
    """float16/bfloat16: the float32 computation (vector or one by one), rounded."""
    a, b = _pair_values(np.float32, 50003, seed=13)
    ta, tb = (torch.from_numpy(v).to(getattr(torch, half)) for v in (a, b))
    ea, eb = (ember.from_numpy(v).to(getattr(ember, half)) for v in (a, b))
    for f in (lambda p: p, lambda p: p[:1001], lambda p: p[::3], lambda p: p[:77]):
        t, e = getattr(torch, name)(f(ta), f(tb)), getattr(ember, name)(f(ea), f(eb))
        assert str(e.dtype) == str(t.dtype)
        _same(t.float(), e.float())
