"""fmod/remainder, the special functions and the Bessel family bit for bit against torch:
Sleef's vectors and the C library one by one, special values (inf, nan, zero divisors,
signed zeros), broadcasting and strided operands, and gradients."""

import numpy as np
import pytest
import torch

import ember

pytestmark = pytest.mark.usefixtures("same_threads")


def _values(dt, n=3000, seed=0):
    rng = np.random.default_rng(seed)
    fi = np.finfo(dt)
    emax = 38 if dt == np.float32 else 300
    wide = np.sign(rng.standard_normal(n)) * 10.0 ** rng.uniform(-emax - 6, emax, n)
    spec = [0.0, -0.0, fi.smallest_subnormal, -fi.smallest_subnormal, fi.tiny, -fi.tiny,
            np.inf, -np.inf, np.nan, fi.max, -fi.max, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0,
            1e-8, 1e30, -1e30, 7.5, -7.5, 30.0, -30.0, 700.0, 1e4]
    x = np.concatenate([rng.standard_normal(n) * 3, wide, np.array(spec * 30)])
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


def _both(fn, *arrays):
    return fn(torch, *[torch.tensor(a) for a in arrays]), \
        fn(ember, *[ember.tensor(a) for a in arrays])


MODS = {
    "fmod": lambda t, a, b: t.fmod(a, b),
    "remainder": lambda t, a, b: t.remainder(a, b),
    "fmod scalar": lambda t, a, b: t.fmod(a, 1e-30),
    "remainder scalar": lambda t, a, b: t.remainder(a, -3.5),
    "% operator": lambda t, a, b: a % b,
    "remainder rows": lambda t, a, b: t.remainder(a.reshape(-1, 50), b.reshape(-1, 50)[:1]),
    "fmod column": lambda t, a, b: t.fmod(a.reshape(-1, 50), b.reshape(-1, 50)[:, :1]),
    "fmod strided": lambda t, a, b: t.fmod(a.reshape(-1, 50)[:, :37], b.reshape(-1, 50)[:, 3:40]),
    "remainder transposed": lambda t, a, b: t.remainder(a.reshape(-1, 50).T, b.reshape(-1, 50).T),
}


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(MODS))
def test_mod_values(name, dt):
    x = _values(dt)
    x = x[: x.size // 50 * 50]
    y = x[::-1].copy()
    _same(*_both(MODS[name], x, y))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_mod_special_pairs(dt):
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.5, -2.5, 1e-45, 3e38],
                  dt)
    x, y = (a.reshape(-1) for a in np.meshgrid(sp, sp))
    x, y = np.tile(x, 20), np.tile(y, 20)     # vectors and the scalar tail both
    for fn in ("fmod", "remainder"):
        _same(*_both(lambda t, a, b, fn=fn: getattr(t, fn)(a, b), x, y))
        _same(*_both(lambda t, a, b, fn=fn: getattr(t, fn)(a[:3], b[:3]), x, y))


@pytest.mark.parametrize("fn", ["fmod", "remainder"])
def test_mod_grads(fn):
    rng = np.random.default_rng(3)
    x = rng.uniform(-5, 5, 40)
    y = rng.uniform(0.5, 2, 40) * np.sign(rng.standard_normal(40))
    out = []
    for lib in (torch, ember):
        a = lib.tensor(x, requires_grad=True)
        b = lib.tensor(y, requires_grad=True)
        getattr(lib, fn)(a, b).sum().backward()
        out.append((a.grad, b.grad))
    _same(out[0][0], out[1][0])
    _same(out[0][1], out[1][1])


SPECIAL = {
    "ndtri": lambda t, x: t.special.ndtri(x),
    "log_ndtr": lambda t, x: t.special.log_ndtr(x),
    "i0": lambda t, x: t.i0(x),
    "special.i0": lambda t, x: t.special.i0(x),
    "Tensor.i0": lambda t, x: x.i0(),
    "i0e": lambda t, x: t.special.i0e(x),
    "i1": lambda t, x: t.special.i1(x),
    "i1e": lambda t, x: t.special.i1e(x),
    "erfcx": lambda t, x: t.special.erfcx(x),
}


def _special_inputs(name, dt):
    x = _values(dt)
    rng = np.random.default_rng(5)
    x = np.concatenate([x, (rng.standard_normal(3000) * 12).astype(dt)])
    if name == "ndtri":
        with np.errstate(all="ignore"):
            u = np.concatenate([rng.random(3000), 10.0 ** rng.uniform(-40, 0, 2000),
                                1 - 10.0 ** rng.uniform(-16, 0, 2000)]).astype(dt)
        x = np.concatenate([x, u])
    if name == "erfcx":       # the continued fraction above 50, the overflow below -26.7
        x = np.concatenate([x, (10.0 ** rng.uniform(1.7, 8, 2000)).astype(dt),
                            rng.uniform(-30, 0, 1000).astype(dt)])
    return x


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(SPECIAL))
def test_special_values(name, dt):
    x = _special_inputs(name, dt)
    _same(*_both(lambda t, a: SPECIAL[name](t, a), x))
    _same(*_both(lambda t, a: SPECIAL[name](t, a[::3]), x))      # strided


@pytest.mark.parametrize("name", list(SPECIAL))
def test_special_grads(name):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(64) * 4
    if name == "ndtri":
        x = rng.random(64)
    x[:3] = (0.0, 1e-17, -1e-17) if name != "ndtri" else (0.5, 1e-300, 1 - 1e-12)
    grads, outs = [], []
    for lib in (torch, ember):
        a = lib.tensor(x, requires_grad=True)
        y = SPECIAL[name](lib, a)
        outs.append(y.grad_fn.name())
        grads.append(lib.autograd.grad(y.sum(), a)[0])
    assert outs[0] == outs[1]
    _same(*grads)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "bool", "int64", "complex64"])
@pytest.mark.parametrize("name", ["ndtri", "log_ndtr", "i0", "i0e", "i1", "i1e", "erfcx"])
def test_special_dtypes_and_errors(name, dtype):
    got = []
    for lib in (torch, ember):
        x = lib.tensor([0.5, 2.0]).to(getattr(lib, dtype))
        try:
            got.append(str(SPECIAL[name](lib, x).dtype).split(".")[-1])
        except NotImplementedError as e:
            got.append(str(e))
    assert got[0] == got[1]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_angle_real(dt):
    x = _values(dt)
    _same(*_both(lambda t, a: t.angle(a), x))
    _same(*_both(lambda t, a: a.angle(), x[::2]))
    for dtype in ("int64", "bool", "uint8", "float16"):
        r, g = _both(lambda t, a, dtype=dtype: t.angle(a.to(getattr(t, dtype))), x[:50])
        assert str(r.dtype).split(".")[-1] == str(g.dtype).split(".")[-1]
        np.testing.assert_array_equal(r.numpy(), g.numpy())


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_angle_complex(dt):
    rng = np.random.default_rng(2)
    re, im = rng.standard_normal((2, 500)) * 3
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0])
    re = np.concatenate([re, np.repeat(sp, sp.size)])
    im = np.concatenate([im, np.tile(sp, sp.size)])
    z = (re + 1j * im).astype(dt)
    z.real, z.imag = re, im
    r, g = _both(lambda t, a: t.angle(a), z)
    assert r.dtype == getattr(torch, "float32" if dt == np.complex64 else "float64")
    np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=2e-7 if dt == np.complex64 else 1e-15)
    grads = []
    for lib in (torch, ember):
        a = lib.tensor(z[:500], requires_grad=True)
        grads.append(lib.autograd.grad(lib.angle(a).sum(), a)[0].numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-5)


def test_angle_real_grad():
    for lib in (torch, ember):
        a = lib.tensor([-1.0, 0.0, 2.0], requires_grad=True)
        y = lib.angle(a)
        assert y.grad_fn.name() == "AngleBackward0"
        assert lib.autograd.grad(y.sum(), a)[0].tolist() == [0.0, 0.0, 0.0]


LAE = {
    "logaddexp": lambda t, a, b: t.logaddexp(a, b),
    "logaddexp rows": lambda t, a, b: t.logaddexp(a.reshape(-1, 50), b.reshape(-1, 50)[:1]),
    "logaddexp strided": lambda t, a, b: t.logaddexp(a[::3], b[::3]),
}


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(LAE))
def test_logaddexp_values(name, dt):
    x = _values(dt)
    x = x[: x.size // 50 * 50]
    _same(*_both(LAE[name], x, x[::-1].copy()))


def test_logaddexp_grads():
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal((2, 40)) * 5
    grads = []
    for lib in (torch, ember):
        a, b = lib.tensor(x, requires_grad=True), lib.tensor(y, requires_grad=True)
        grads.append(lib.autograd.grad(lib.logaddexp(a, b).sum(), (a, b)))
    _same(grads[0][0], grads[1][0])
    _same(grads[0][1], grads[1][1])


ATAN2 = {
    "atan2": lambda t, a, b: t.atan2(a, b),
    "atan2 rows": lambda t, a, b: t.atan2(a.reshape(-1, 50), b.reshape(-1, 50)[:1]),
    "atan2 strided": lambda t, a, b: t.atan2(a[::3], b[::3]),
    "atan2 scalar tensor": lambda t, a, b: t.atan2(a, b[:1]),
}


ATAN2_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 3.0, -2.5, 5e-324, -5e-324,
                 2.2250738585072014e-308, 1e-310, -1e-200, 1e-30, 1e30, -1e300,
                 1.7976931348623157e308]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(ATAN2))
def test_atan2(name, dt):
    x = _values(dt)
    x = x[: x.size // 50 * 50]
    _same(*_both(ATAN2[name], x, x[::-1].copy()))
    with np.errstate(over="ignore"):
        sp = np.array(ATAN2_SPECIAL, dt)
    a, b = (v.reshape(-1) for v in np.meshgrid(sp, sp))
    _same(*_both(ATAN2["atan2"], np.tile(a, 4), np.tile(b, 4)))


def test_atan2_float64_ratios():
    """Quotients over the whole range: subnormal and huge ratios, x < 0 on both sides of
    the diagonal, small integers and dyadic values (exact quotients)."""
    rng = np.random.default_rng(12)
    n = 4000
    wide = [np.sign(rng.standard_normal(n)) * 10.0 ** rng.uniform(-323, 308, n) for _ in "yx"]
    ints = [rng.integers(-300, 300, n).astype(np.float64) for _ in "yx"]
    dyadic = [rng.integers(-2 ** 20, 2 ** 20, n) * 2.0 ** rng.integers(-40, 40, n) for _ in "yx"]
    tiny_x = [rng.standard_normal(n),
              np.sign(rng.standard_normal(n)) * 10.0 ** rng.uniform(-323, -300, n)]
    y, x = (np.concatenate(v) for v in zip(wide, ints, dyadic, tiny_x))
    _same(*_both(ATAN2["atan2"], y, x))
    _same(*_both(ATAN2["atan2 strided"], y, x))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_atan2_lengths(dt):
    """Each length splits into full steps of two vectors and a tail that runs one by one."""
    x = _values(dt, n=100)
    y = np.roll(x, 7)
    for n in list(range(1, 40)) + [63, 64, 65, 127, 129]:
        _same(*_both(ATAN2["atan2"], x[:n], y[:n]))
    _same(*_both(lambda t, a, b: t.atan2(a.reshape(-1, 1), b[:17]), x[:60], y))


def test_atan2_threads():
    """Above the grain torch splits the elements between threads, each with its own tail."""
    x = _values(np.float64, n=25000)[:70001]
    _same(*_both(ATAN2["atan2"], x, x[::-1].copy()))


def test_atan2_grads():
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal((2, 60)) * 3
    grads = []
    for lib in (torch, ember):
        a, b = lib.tensor(x, requires_grad=True), lib.tensor(y, requires_grad=True)
        grads.append(lib.autograd.grad(lib.atan2(a, b).sum(), (a, b)))
    _same(grads[0][0], grads[1][0])
    _same(grads[0][1], grads[1][1])


EXP2 = {
    "exp2": lambda t, x: t.exp2(x),
    "exp2 strided": lambda t, x: t.exp2(x[::3]),
    "exp2 rows": lambda t, x: t.exp2(x.reshape(-1, 37)[:, :30]),
    "special.exp2": lambda t, x: t.special.exp2(x),
}


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(EXP2))
def test_exp2(name, dt):
    rng = np.random.default_rng(9)
    x = np.concatenate([_values(dt), rng.uniform(-1100, 1100, 2000).astype(dt),
                        rng.uniform(-160, 130, 2000).astype(dt)])
    x = x[: x.size // 37 * 37]
    _same(*_both(EXP2[name], x))
    grads = []
    for lib in (torch, ember):
        a = lib.tensor(x[:100], requires_grad=True)
        grads.append(lib.autograd.grad(lib.exp2(a).sum(), a)[0])
    _same(*grads)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_digamma(dt):
    rng = np.random.default_rng(11)
    x = np.concatenate([_values(dt), (rng.standard_normal(3000) * 10).astype(dt),
                        rng.uniform(0, 3, 2000).astype(dt), -np.arange(5, dtype=dt)])
    _same(*_both(lambda t, a: t.digamma(a), x))
    _same(*_both(lambda t, a: t.special.psi(a[::2]), x))
    grads = []
    for lib in (torch, ember):
        a = lib.tensor(rng.uniform(0.5, 20, 50), requires_grad=True) if lib is torch else \
            lib.tensor(grads[0][1], requires_grad=True)
        grads.append((lib.autograd.grad(lib.digamma(a).sum(), a)[0], a.detach().numpy()))
    np.testing.assert_allclose(grads[1][0].numpy(), grads[0][0].numpy(), rtol=1e-12)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1])
def test_polygamma_low_orders(dt, n):
    rng = np.random.default_rng(12)
    x = np.concatenate([_values(dt), (rng.standard_normal(3000) * 10).astype(dt),
                        rng.uniform(0, 3, 2000).astype(dt)])
    _same(*_both(lambda t, a: t.polygamma(n, a), x))
    _same(*_both(lambda t, a: a.polygamma(n), x[::2]))
    _same(*_both(lambda t, a: t.special.polygamma(n, a), x[:100]))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_sinc(dt):
    x = _values(dt)
    _same(*_both(lambda t, a: t.sinc(a), x))
    _same(*_both(lambda t, a: t.special.sinc(a[::2]), x))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_entr(dt):
    x = _values(dt)
    _same(*_both(lambda t, a: t.special.entr(a), x))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape,dim", [((60, 50), 1), ((60, 50), 0), ((3000,), 0),
                                       ((3, 5000), 0)])
def test_logcumsumexp(dt, shape, dim):
    x = _values(dt)
    n = int(np.prod(shape))
    x = np.resize(x, n).reshape(shape)
    _same(*_both(lambda t, a: t.logcumsumexp(a, dim), x))
    if dim == 1:
        _same(*_both(lambda t, a: t.logcumsumexp(a.t(), 0), x))
