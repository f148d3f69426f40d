"""Weight and spectral normalisation against torch 2.13: ``torch._weight_norm`` and its fused
kernel (bit for bit in float32/float64), the hook-based ``nn.utils.weight_norm`` /
``spectral_norm``, the parametrizations (``weight_norm``, ``spectral_norm``, ``orthogonal``)
and the Householder functions under ``orthogonal`` (``geqrf``, ``householder_product``)."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

import ember

from .helpers import torch

LIBS = (torch, ember)


def arr(t):
    return t.detach().numpy().copy()


def same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a, b)


def errors(fn):
    """(class name, message) of what ``fn(lib)`` raises, for torch and ember."""
    out = []
    for lib in LIBS:
        with pytest.raises(Exception) as e:
            fn(lib)
        out.append((type(e.value).__name__, str(e.value)))
    assert out[0] == out[1]


def _inputs(lib, shape, dim, dtype, nc=False, seed=0):
    """v, g (shaped to broadcast against v) and an upstream gradient; ``nc``: v is a
    non-contiguous (permuted) view."""
    rng = np.random.default_rng(seed)
    gshape = [1] * len(shape)
    if dim is not None and dim != -1:
        gshape[dim] = shape[dim]
    v = rng.standard_normal(shape).astype(dtype)
    if nc:
        rev = tuple(range(len(shape)))[::-1]
        v = lib.tensor(v.transpose(rev).copy()).permute(rev).requires_grad_()
    else:
        v = lib.tensor(v).requires_grad_()
    g = lib.tensor(rng.standard_normal(gshape).astype(dtype)).requires_grad_()
    gw = lib.tensor(rng.standard_normal(shape).astype(dtype))
    return v, g, gw


CASES = [((3, 4), 0), ((3, 4, 5), 2), ((6, 7), 1), ((50, 33), 0), ((33, 50), 1),
         ((40, 20, 3), 0), ((2, 3, 4, 5), 3), ((4, 5, 6), 1), ((4, 5), -1), ((7,), 0)]


@pytest.mark.parametrize("nc", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,dim", CASES)
def test_weight_norm_bitwise(shape, dim, dtype, nc):
    res = []
    for lib in LIBS:
        v, g, gw = _inputs(lib, shape, dim, dtype, nc)
        w = lib._weight_norm(v, g, dim)
        gv, gg = lib.autograd.grad(w, (v, g), gw)
        w2 = lib._weight_norm(v, g, dim)
        gv2, gg2 = lib.autograd.grad(w2, (v, g), gw, create_graph=True)
        (gv2.sum() + gg2.sum()).backward()
        res.append(([w, gv, gg, gv2, gg2, v.grad, g.grad],
                    [type(t.grad_fn).__name__ for t in (w, gv2, gg2)]))
    (a, na), (b, nb) = res
    assert na == nb
    for x, y in zip(a[:5], b[:5]):
        same(arr(x), arr(y))
    # the second derivative runs through the engine's generic formulas
    for x, y in zip(a[5:], b[5:]):
        np.testing.assert_allclose(arr(x), arr(y), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_weight_norm_interface(dtype):
    for shape, dim in [((5, 9), 0), ((5, 9), 1), ((3, 8, 17), 2), ((30, 3), 0)]:
        res = []
        for lib in LIBS:
            v, g, gw = _inputs(lib, shape, dim, dtype, seed=3)
            w, norm = lib._weight_norm_interface(v, g, dim)
            res.append((w, norm, norm.requires_grad, norm.grad_fn, type(w.grad_fn).__name__,
                        *lib.autograd.grad(w, (v, g), gw)))
        (a, b) = res
        assert a[2:5] == b[2:5] == (False, None, "WeightNormInterfaceBackward0")
        for i in (0, 1, 5, 6):
            same(arr(a[i]), arr(b[i]))


def test_weight_norm_non_contiguous_and_threads():
    for lib in LIBS:
        lib.manual_seed(0)
    rng = np.random.default_rng(5)
    base = rng.standard_normal((9, 64)).astype(np.float32)
    g0 = rng.standard_normal((1, 9)).astype(np.float32)
    g1 = rng.standard_normal((64, 1)).astype(np.float32)
    out = []
    for lib in LIBS:
        v = lib.tensor(base).t().requires_grad_()           # (64, 9), not contiguous
        g = lib.tensor(g0).requires_grad_()
        w = lib._weight_norm(v, g, 1)
        w.pow(2).sum().backward()
        h = lib.tensor(g1).requires_grad_()
        w2 = lib._weight_norm(v, h, 0)
        w2.sum().backward()
        out.append([w, w2, v.grad, g.grad, h.grad])
    for x, y in zip(*out):
        same(arr(x), arr(y))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_weight_norm_reduced_precision(dtype):
    rng = np.random.default_rng(2)
    v0 = rng.standard_normal((6, 10)).astype(np.float32)
    g0 = rng.standard_normal((6, 1)).astype(np.float32)
    out = []
    for lib in LIBS:
        d = getattr(lib, dtype)
        v = lib.tensor(v0).to(d).requires_grad_()
        g = lib.tensor(g0).to(d).requires_grad_()
        w, norm = lib._weight_norm_interface(v, g, 0)
        w.float().sum().backward()
        out.append((w, norm, v.grad, g.grad))
    for x, y in zip(*out):
        assert x.dtype == getattr(torch, str(y.dtype).split(".")[1])
        np.testing.assert_allclose(arr(x.float()), arr(y.float()), rtol=2e-2, atol=2e-2)
    assert out[0][1].dtype == torch.float32


def test_weight_norm_errors():
    errors(lambda lib: lib._weight_norm(lib.ones(3, 4, dtype=lib.int32),
                                        lib.ones(3, 1, dtype=lib.int32), 0))
    errors(lambda lib: lib._weight_norm(lib.ones(3, 4), lib.ones(3, 1, dtype=lib.float64), 0))
    errors(lambda lib: lib._weight_norm(lib.ones(3, 4, dtype=lib.float64), lib.ones(3, 1), 0))
    errors(lambda lib: lib._weight_norm(lib.ones(3, 4, 5), lib.ones(3, 1, 1), 5))
    errors(lambda lib: lib._weight_norm_interface(lib.ones(3, 4, 5), lib.ones(1, 4, 1), 1))
    errors(lambda lib: lib._weight_norm_interface(lib.ones(3, 4, dtype=lib.complex64),
                                                  lib.ones(3, 1, dtype=lib.complex64), 0))


# ----------------------------------------------------------------------------- nn.utils hooks

def test_hook_weight_norm_module():
    res = []
    for lib in LIBS:
        lib.manual_seed(0)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            m = lib.nn.utils.weight_norm(lib.nn.Linear(5, 3))
        msgs = [(x.category, str(x.message)) for x in w]
        names = [n for n, _ in m.named_parameters()]
        shapes = [tuple(m.weight_g.shape), tuple(m.weight_v.shape)]
        y = m(lib.ones(2, 5))
        res.append((msgs, names, shapes, list(m.state_dict()), type(m.weight.grad_fn).__name__,
                    arr(y), arr(m.weight_g)))
        with pytest.raises(RuntimeError) as e:
            copy.deepcopy(m)
        res[-1] += (str(e.value),)
    a, b = res
    assert a[0] == [(FutureWarning, "`torch.nn.utils.weight_norm` is deprecated in favor of "
                     "`torch.nn.utils.parametrizations.weight_norm`.")]
    assert b[0] == a[0] and a[1:5] == b[1:5] and a[7] == b[7]
    same(a[5], b[5])
    same(a[6], b[6])


def test_hook_weight_norm_dims_and_remove():
    for dim in (0, 1, 2, None, -1):
        res = []
        for lib in LIBS:
            lib.manual_seed(1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = lib.nn.utils.weight_norm(lib.nn.Conv1d(3, 4, 2), dim=dim)
            g = arr(m.weight_g)
            y = m(lib.ones(1, 3, 5))
            lib.nn.utils.remove_weight_norm(m)
            res.append((g, arr(y), arr(m.weight), [n for n, _ in m.named_parameters()],
                        type(m.weight).__name__, len(m._forward_pre_hooks)))
        (a, b) = res
        same(a[0], b[0])
        same(a[2], b[2])
        np.testing.assert_allclose(a[1], b[1], rtol=1e-6, atol=1e-7)     # (conv1d)
        assert a[3:] == b[3:]


def test_hook_errors():
    def twice(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.nn.utils.weight_norm(lib.nn.utils.weight_norm(lib.nn.Linear(2, 2)))
    errors(twice)
    errors(lambda lib: lib.nn.utils.remove_weight_norm(lib.nn.Linear(2, 2)))
    errors(lambda lib: lib.nn.utils.remove_spectral_norm(lib.nn.Linear(2, 2), name="bias"))
    errors(lambda lib: lib.nn.utils.spectral_norm(lib.nn.utils.spectral_norm(
        lib.nn.Linear(3, 4))))
    errors(lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4), n_power_iterations=0))
    errors(lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4, bias=False), "bias"))

    def uninit(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.nn.utils.weight_norm(lib.nn.LazyLinear(3))
    errors(uninit)


def test_hook_spectral_norm_buffers_state_dict_and_remove():
    res = []
    for lib in LIBS:
        lib.manual_seed(0)
        m = lib.nn.utils.spectral_norm(lib.nn.ConvTranspose2d(2, 3, 3))
        init = [arr(m.weight_u), arr(m.weight_v)]
        m(lib.ones(1, 2, 4, 4))
        trained = [arr(m.weight_u), arr(m.weight_v)]
        m.eval()
        m(lib.ones(1, 2, 4, 4))
        evald = [arr(m.weight_u), arr(m.weight_v)]
        sd = m.state_dict()
        meta = dict(sd._metadata)
        m2 = lib.nn.utils.spectral_norm(lib.nn.ConvTranspose2d(2, 3, 3))
        m2.load_state_dict(sd)
        loaded = [arr(m2.weight_u), arr(m2.weight_v)]
        lib.nn.utils.remove_spectral_norm(m)
        res.append((init, trained, evald, loaded, list(sd), meta,
                    [n for n, _ in m.named_parameters()], list(m.state_dict()),
                    len(m._state_dict_hooks), len(m._forward_pre_hooks), arr(m.weight)))
    a, b = res
    for i in range(4):
        for x, y in zip(a[i], b[i]):
            np.testing.assert_allclose(x, y, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(a[1][0], a[2][0])     # eval mode leaves u alone
    assert a[4:10] == b[4:10]
    assert a[5][""]["spectral_norm"] == {"weight.version": 1}
    np.testing.assert_allclose(a[10], b[10], rtol=1e-6, atol=1e-7)


def test_hook_spectral_norm_loads_version_0_state_dict():
    res = []
    for lib in LIBS:
        lib.manual_seed(3)
        m = lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4))
        m(lib.ones(2, 3))
        sd = m.state_dict()
        sd = {"weight_orig": sd["weight_orig"], "weight_u": sd["weight_u"],
              "bias": sd["bias"], "weight": m.weight.detach().clone()}
        fresh = lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4))
        fresh.load_state_dict(sd)
        fresh.eval()
        res.append((arr(fresh.weight_v), arr(fresh.weight_u), arr(fresh(lib.ones(1, 3)))))
    for x, y in zip(*res):
        np.testing.assert_allclose(x, y, rtol=1e-4, atol=1e-5)


# ----------------------------------------------------------------------------- training

def _gan(lib, parametrized):
    lib.manual_seed(0)
    nn = lib.nn
    sn = nn.utils.parametrizations.spectral_norm if parametrized else nn.utils.spectral_norm
    d = nn.Sequential(sn(nn.Conv2d(1, 4, 3, stride=2)), nn.LeakyReLU(0.2),
                      sn(nn.Conv2d(4, 8, 3, stride=2)), nn.Flatten(), sn(nn.Linear(8, 1)))
    opt = lib.optim.Adam(d.parameters(), lr=1e-2)
    losses = []
    for _ in range(4):
        real, fake = lib.randn(5, 1, 7, 7), lib.randn(5, 1, 7, 7)
        loss = (nn.functional.softplus(-d(real)).mean()
                + nn.functional.softplus(d(fake)).mean())
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(arr(loss))
    d.eval()
    losses.append(arr(d(lib.ones(2, 1, 7, 7))))
    return losses, {k: arr(v) for k, v in d.state_dict().items()}


def _wn_net(lib, parametrized):
    lib.manual_seed(1)
    nn = lib.nn
    wn = nn.utils.parametrizations.weight_norm if parametrized else nn.utils.weight_norm
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net = nn.Sequential(wn(nn.Conv2d(2, 6, 3)), nn.ReLU(), wn(nn.Conv2d(6, 4, 3), dim=1),
                            nn.Flatten(), wn(nn.Linear(64, 3), dim=None))
    opt = lib.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(4):
        x, y = lib.randn(3, 2, 8, 8), lib.randint(0, 3, (3,))
        loss = nn.functional.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(arr(loss))
    return losses, {k: arr(v) for k, v in net.state_dict().items()}


@pytest.mark.parametrize("parametrized", [False, True])
@pytest.mark.parametrize("train", [_gan, _wn_net])
def test_training(train, parametrized):
    (la, sa), (lb, sb) = (train(lib, parametrized) for lib in LIBS)
    assert list(sa) == list(sb)
    # the norms' own arithmetic is torch's to the bit; the BLAS products around them
    # (mv, dot, conv, linear) round as NumPy's BLAS does
    for x, y in zip(la, lb):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)
    for k in sa:
        np.testing.assert_allclose(sa[k], sb[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_weight_norm_first_steps_bitwise():
    (la, sa), (lb, sb) = (_wn_net(lib, True) for lib in LIBS)
    for x, y in zip(la[:3], lb[:3]):
        same(x, y)


# ----------------------------------------------------------------------------- parametrizations

def test_parametrized_weight_norm_keys_remove_and_compat_load():
    res = []
    for lib in LIBS:
        lib.manual_seed(0)
        m = lib.nn.utils.parametrizations.weight_norm(lib.nn.Linear(4, 3), dim=1)
        keys = list(m.state_dict())
        o0 = arr(m.parametrizations.weight.original0)
        w = arr(m.weight)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            old = lib.nn.utils.weight_norm(lib.nn.Linear(4, 3), dim=1)
        m.load_state_dict(old.state_dict())
        loaded = arr(m.weight)
        lib.nn.utils.parametrize.remove_parametrizations(m, "weight")
        res.append((keys, o0, w, loaded, arr(m.weight), [n for n, _ in m.named_parameters()],
                    type(m.weight.grad_fn).__name__ if m.weight.grad_fn else None))
    a, b = res
    assert a[0] == b[0] == ["bias", "parametrizations.weight.original0",
                            "parametrizations.weight.original1"]
    for i in range(1, 5):
        same(a[i], b[i])
    assert a[5:] == b[5:]


def test_parametrized_spectral_norm():
    res = []
    for lib in LIBS:
        lib.manual_seed(2)
        m = lib.nn.utils.parametrizations.spectral_norm(lib.nn.Linear(6, 5))
        sn = m.parametrizations.weight[0]
        u0 = arr(sn._u)
        m.eval()
        w_eval = arr(m.weight)
        u_eval = arr(sn._u)
        m.train()
        w_train = arr(m.weight)
        v = lib.nn.utils.parametrizations.spectral_norm(lib.nn.Linear(6, 5), name="bias")
        res.append((u0, w_eval, u_eval, w_train, arr(sn._v), arr(v.bias),
                    type(m.weight.grad_fn).__name__, list(m.state_dict())))
    a, b = res
    for x, y in zip(a[:6], b[:6]):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)
    same(a[0], a[2])
    same(a[5], b[5])           # a vector is normalised exactly
    assert a[6:] == b[6:]


def test_parametrized_errors():
    def get(lib):
        return lib.nn.utils.parametrizations
    errors(lambda lib: get(lib).spectral_norm(lib.nn.Linear(3, 4), dim=3))
    errors(lambda lib: get(lib).spectral_norm(lib.nn.Linear(3, 4), n_power_iterations=-1))
    errors(lambda lib: get(lib).spectral_norm(lib.nn.Linear(3, 4), name="nope"))
    errors(lambda lib: get(lib).orthogonal(lib.nn.Linear(3, 4), orthogonal_map="x"))
    errors(lambda lib: get(lib).orthogonal(lib.nn.Linear(3, 4), name="bias"))
    errors(lambda lib: get(lib).orthogonal(lib.nn.Linear(3, 4), name="nope"))

    def complex_householder(lib):
        m = lib.nn.Linear(3, 3)
        m.weight = lib.nn.Parameter(lib.randn(3, 3, dtype=lib.complex64))
        get(lib).orthogonal(m, orthogonal_map="householder")
    errors(complex_householder)

    def assign(lib):
        m = get(lib).orthogonal(lib.nn.Linear(3, 3), orthogonal_map="cayley",
                                use_trivialization=False)
        m.weight = lib.eye(3)
    errors(assign)

    def shape(lib):
        m = get(lib).orthogonal(lib.nn.Linear(3, 3))
        m.weight = lib.eye(4)
    errors(shape)


@pytest.mark.parametrize("orth_map", ["matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("triv", [True, False])
@pytest.mark.parametrize("shape", [(4, 4), (6, 3), (3, 5)])
def test_orthogonal(orth_map, triv, shape):
    res = []
    for lib in LIBS:
        lib.manual_seed(0)
        m = lib.nn.Linear(shape[1], shape[0])
        lib.nn.utils.parametrizations.orthogonal(m, orthogonal_map=orth_map,
                                                 use_trivialization=triv)
        w = m.weight
        k = min(shape)
        q = w if shape[0] >= shape[1] else w.T
        err = (q.T @ q - lib.eye(k)).abs().max().item()
        opt = lib.optim.SGD(m.parameters(), lr=0.1)
        for _ in range(3):
            loss = m(lib.ones(2, shape[1])).pow(2).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        keys = list(m.state_dict())
        res.append((arr(w), arr(m.weight), err, keys, type(m.weight.grad_fn).__name__))
    a, b = res
    assert a[2] < 1e-5 and b[2] < 1e-5
    assert a[3:] == b[3:]
    np.testing.assert_allclose(a[0], b[0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(a[1], b[1], rtol=1e-4, atol=1e-5)


def test_orthogonal_assign_and_householder_right_inverse():
    res = []
    for lib in LIBS:
        lib.manual_seed(0)
        m = lib.nn.utils.parametrizations.orthogonal(lib.nn.Linear(3, 5),
                                                     orthogonal_map="householder",
                                                     use_trivialization=False)
        q = lib.linalg.qr(lib.randn(5, 3, dtype=lib.float32)).Q
        m.weight = q
        res.append((arr(m.weight), arr(q), arr(m.parametrizations.weight.original)))
    a, b = res
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.abs(a[0]), np.abs(a[1]), atol=1e-5)


# ----------------------------------------------------------------------------- Householder

@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("shape,k", [((4, 3), 3), ((5, 3), 2), ((2, 4, 4), 4), ((3, 3), 0)])
def test_householder_product(shape, k, dtype):
    rng = np.random.default_rng(4)

    def draw(s):
        x = rng.standard_normal(s)
        if dtype.startswith("complex"):
            x = x + 1j * rng.standard_normal(s)
        return x.astype(dtype)
    A, tau, G = draw(shape), draw(shape[:-2] + (k,)), draw(shape)
    res = []
    for lib in LIBS:
        a = lib.tensor(A).requires_grad_()
        t = lib.tensor(tau).requires_grad_()
        q = lib.linalg.householder_product(a, t)
        grads = lib.autograd.grad(q, (a, t), lib.tensor(G), allow_unused=True)
        res.append((q, *grads, type(q.grad_fn).__name__, lib.orgqr(a, t)))
    a, b = res
    assert a[3] == b[3] == "LinalgHouseholderProductBackward0"
    # (torch's float32 gradients carry its own rounding of a longer recurrence)
    tol = dict(rtol=1e-4, atol=1e-3 if dtype == "float32" else 1e-8)
    for i in (0, 4):
        np.testing.assert_allclose(arr(a[i]), arr(b[i]), **tol)
    for i in (1, 2):
        assert (a[i] is None) == (b[i] is None)
        if a[i] is not None:
            np.testing.assert_allclose(arr(a[i]), arr(b[i]), **tol)


def test_householder_product_double_backward():
    a = ember.randn(4, 3, dtype=ember.float64, requires_grad=True)
    t = ember.randn(3, dtype=ember.float64, requires_grad=True)
    assert ember.autograd.gradcheck(ember.linalg.householder_product, (a, t))
    assert ember.autograd.gradgradcheck(ember.linalg.householder_product, (a, t))


def test_geqrf():
    rng = np.random.default_rng(6)
    for shape in [(5, 3), (3, 5), (2, 4, 4)]:
        x = rng.standard_normal(shape)
        res = [lib.geqrf(lib.tensor(x)) for lib in LIBS]
        assert type(res[0]).__name__ == type(res[1]).__name__ == "geqrf"
        for p, q in zip(*res):
            np.testing.assert_allclose(arr(p), arr(q), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(arr(ember.tensor(x).geqrf().tau), arr(res[0].tau),
                                   atol=1e-12)
    errors(lambda lib: lib.geqrf(lib.ones(3)))
    errors(lambda lib: lib.geqrf(lib.ones(3, 3, dtype=lib.int32)))
    errors(lambda lib: lib.geqrf(lib.ones(3, 3, requires_grad=True)).a.sum().backward())
    assert type(ember.geqrf(ember.ones(3, 3, requires_grad=True)).a.grad_fn).__name__ \
        == "GeqrfBackward0"


def test_householder_product_errors():
    def hp(a, t):
        return lambda lib: lib.linalg.householder_product(lib.randn(*a), lib.randn(*t))
    for a, t in [((3,), (1,)), ((2, 3), (1,)), ((3, 2), (3,)), ((2, 3, 2), (3, 1)),
                 ((3, 2), (2, 1)), ((2, 3, 2), (2,))]:
        errors(hp(a, t))
    errors(lambda lib: lib.linalg.householder_product(lib.randn(3, 2),
                                                      lib.randn(1, dtype=lib.float64)))
    errors(lambda lib: lib.linalg.householder_product(lib.ones(3, 2, dtype=lib.int32),
                                                      lib.ones(1, dtype=lib.int32)))


def test_lazy_loading():
    import subprocess
    import sys
    code = ("import sys, ember; mods = ('ember._ops.weight_norm', 'ember._ops.householder', "
            "'ember.nn.utils.weight_norm', 'ember.nn.utils.spectral_norm', "
            "'ember.nn.utils.parametrizations'); print([m for m in mods if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
    assert callable(ember.nn.utils.weight_norm) and callable(ember.nn.utils.spectral_norm)
    assert "parametrizations" in dir(ember.nn.utils)
