"""Oracle tests of the rest of torch's linear algebra: the Householder routines (geqrf,
householder_product/orgqr, ormqr), LDLᵀ (ldl_factor, ldl_factor_ex, ldl_solve), the low-rank
SVD/PCA and LOBPCG, and matrix_exp.

Factors come from a different LAPACK than torch's (MKL): values are compared to round-off
(``R32``/``R64`` below); pivots, info, dtypes, shapes, grad_fn names and errors exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import NC, arr, check, errors_alike, torch

F32, F64 = "float32", "float64"
R32 = {"rtol": 1e-4, "atol": 1e-5}
R64 = {"rtol": 1e-9, "atol": 1e-10}
TOLS = {F32: R32, F64: R64}


def _cplx(shape, dt, seed=0):
    real = np.float32 if dt == "complex64" else np.float64
    return (arr(shape, "float64", seed) + 1j * arr(shape, "float64", seed + 7)).astype(
        np.complex64 if real is np.float32 else np.complex128)


def _both(fn, *arrays):
    """``fn(lib, *tensors)`` with torch and with ember, inputs without grad."""
    return (fn(torch, *(torch.from_numpy(a.copy()) for a in arrays)),
            fn(ember, *(ember.from_numpy(a.copy()) for a in arrays)))


# ----------------------------------------------------------------------------- geqrf

@pytest.mark.parametrize("dt", [F32, F64])
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (5, 5), (2, 6, 4), (3, 2, 2), (0, 3),
                                   (2, 0, 3), (1, 1)])
def test_geqrf(dt, shape):
    t, e = _both(lambda lib, a: lib.geqrf(a), arr(shape, dt, 1))
    assert type(e).__name__ == "geqrf" and (e.a, e.tau) == tuple(e)
    for x, y in zip(t, e):
        assert tuple(x.shape) == tuple(y.shape) and str(x.dtype) == str(y.dtype)
        np.testing.assert_allclose(y.numpy(), x.numpy(), **TOLS[dt])


def test_geqrf_complex_method_and_grad_fn():
    a = _cplx((2, 4, 3), "complex128")
    t, e = _both(lambda lib, a: a.geqrf(), a)
    for x, y in zip(t, e):
        np.testing.assert_allclose(y.numpy(), x.numpy(), **R64)
    a = arr((4, 3), F64)
    check(lambda lib, a: lib.geqrf(a), a, grad=False, **R64)
    for lib in (torch, ember):
        x = lib.from_numpy(a).requires_grad_()
        res = lib.geqrf(x)
        assert type(res.a.grad_fn).__name__ == "GeqrfBackward0"
    errors_alike(lambda lib: lib.geqrf(lib.from_numpy(a).requires_grad_()).a.sum().backward())


def test_geqrf_zero_column_and_errors():
    a = np.array([[0., 1.], [0., 2.], [0., 3.]])
    check(lambda lib, a: lib.geqrf(a), a, grad=False, **R64)
    check(lambda lib, a: lib.geqrf(a), np.ones(3, np.float32), grad=False)
    check(lambda lib, a: lib.geqrf(a), np.ones((3, 3), np.int64), grad=False)
    check(lambda lib, a: lib.geqrf(a), np.ones((3, 3), np.float16), grad=False)


# ----------------------------------------------------------------------------- householder_product

@pytest.mark.parametrize("dt", [F32, F64])
@pytest.mark.parametrize("shape,k", [((4, 3), 3), ((4, 3), 2), ((5, 5), 5), ((2, 5, 3), 3),
                                     ((3, 1), 1), ((4, 3), 0)])
def test_householder_product(dt, shape, k):
    a = arr(shape, dt, 2)
    tau = arr(shape[:-2] + (k,), dt, 3, low=0.2, high=1.5)
    check(lambda lib, a, t: lib.linalg.householder_product(a, t), a, tau, **TOLS[dt])
    check(lambda lib, a, t: lib.orgqr(a, t), NC(a), tau, **TOLS[dt])


def test_householder_product_of_geqrf_is_q():
    a = arr((3, 6, 4), F64, 5)

    def fn(lib, a):
        h, tau = lib.geqrf(a.detach())
        h.requires_grad_()
        tau.requires_grad_()
        q = lib.linalg.householder_product(h, tau)
        (q * lib.arange(24.).reshape(6, 4)).sum().backward()
        return q, h.grad, tau.grad, a.detach().orgqr(a.detach()[..., 0])
    check(fn, a, grad=False, **R64)
    check(fn, arr((5, 5), F32, 6), grad=False, **R32)


def test_householder_product_complex():
    a = _cplx((2, 4, 3), "complex128")
    tau = _cplx((2, 3), "complex128", 3)
    t, e = _both(lambda lib, a, t: lib.linalg.householder_product(a, t), a, tau)
    np.testing.assert_allclose(e.numpy(), t.numpy(), **R64)

    def grads(lib):
        x, y = lib.from_numpy(a).requires_grad_(), lib.from_numpy(tau).requires_grad_()
        q = lib.linalg.householder_product(x, y)
        (q * lib.from_numpy(a[..., ::-1, :].copy())).sum().abs().backward()
        return x.grad.numpy(), y.grad.numpy()
    for x, y in zip(grads(torch), grads(ember)):
        np.testing.assert_allclose(y, x, **R64)


def test_householder_product_double_backward():
    a, tau = arr((4, 3), F64, 1), arr((2,), F64, 2, low=0.3, high=1.2)

    def fn(lib, a, t):
        q = lib.linalg.householder_product(a, t)
        ga, gt = lib.autograd.grad((q * q.detach().flip(0)).sum(), (a, t), create_graph=True)
        return ga, gt
    check(fn, a, tau, **R64)


def test_householder_product_errors():
    f = np.ones

    def hp(a, t):
        return lambda lib: lib.linalg.householder_product(lib.from_numpy(a), lib.from_numpy(t))
    for a, t in [(f(3), f(2)), (f((3, 4)), f(2)), (f((4, 3)), f(4)), (f((4, 3)), f((2, 2))),
                 (f((2, 4, 3)), f((3, 2))), (f((4, 3)), f(2, np.float32)),
                 (f((4, 3), np.int64), f(2, np.int64)), (f((4, 3), np.float16),
                                                         f(2, np.float16)),
                 (f((4, 3)), np.array(1.))]:
        errors_alike(hp(a, t))
    errors_alike(lambda lib: lib.orgqr(lib.ones(3, 4), lib.ones(2)))


# ----------------------------------------------------------------------------- ormqr

@pytest.mark.parametrize("dt", [F32, F64])
@pytest.mark.parametrize("left,transpose", [(True, False), (True, True), (False, False),
                                            (False, True)])
def test_ormqr(dt, left, transpose):
    def fn(lib, a, t, c):
        return lib.ormqr(a, t, c, left=left, transpose=transpose)
    a = arr((2, 5, 3), dt, 1)
    tau = arr((2, 3), dt, 2, low=0.2, high=1.5)
    c = arr((2, 5, 2) if left else (2, 4, 5), dt, 3)
    check(fn, a, tau, c, **TOLS[dt])
    check(fn, NC(arr((4, 4), dt, 4)), arr((4,), dt, 5, low=0.2, high=1.5),
          NC(arr((4, 3) if left else (2, 4), dt, 6)), **TOLS[dt])


@pytest.mark.parametrize("left,transpose", [(True, False), (True, True), (False, False),
                                            (False, True)])
def test_ormqr_matches_q_and_wide_input(left, transpose):
    def fn(lib, a, c):
        h, tau = lib.geqrf(a)
        q = lib.linalg.householder_product(h, tau)
        res = lib.ormqr(h, tau, c, left, transpose)
        qq = q.mH if transpose else q
        return res, (qq @ c if left else c @ qq)
    check(fn, arr((4, 4), F64, 1), arr((4, 3) if left else (3, 4), F64, 2), grad=False, **R64)
    check(lambda lib, a, t, c: a.ormqr(t, c, left, transpose), arr((3, 5), F64, 3),
          arr((3,), F64, 4), arr((3, 2) if left else (2, 3), F64, 5), **R64)


def test_ormqr_complex():
    a, tau = _cplx((4, 3), "complex128"), _cplx((3,), "complex128", 2)
    c = _cplx((4, 2), "complex128", 3)
    for left, tr in [(True, False), (True, True)]:
        t, e = _both(lambda lib, a, t, c, left=left, tr=tr: lib.ormqr(a, t, c, left, tr), a, tau, c)
        np.testing.assert_allclose(e.numpy(), t.numpy(), **R64)


def test_ormqr_errors():
    T = np.ones
    cases = [(T(3), T(2), T((3, 2))), (T((4, 3)), T(2), T(3)), (T((4, 3)), T(4), T((4, 2))),
             (T((4, 3)), T(2), T((3, 2))), (T((4, 3)), T(2), T((4, 2))),
             (T((2, 4, 3)), T((2, 3)), T((1, 4, 2))), (T((2, 4, 3)), T((2, 3)), T((4, 2))),
             (T((2, 4, 3)), T((1, 3)), T((2, 4, 2))), (T((4, 3)), T((2, 3)), T((4, 2))),
             (T((4, 3)), T(3), T((4, 2), np.float32)), (T((4, 3)), T(3, np.float32), T((4, 2))),
             (T((4, 3), np.int64), T(3, np.int64), T((4, 2), np.int64))]
    for a, t, c in cases:
        errors_alike(lambda lib, xs=(a, t, c): lib.ormqr(*(lib.from_numpy(x) for x in xs)))
    errors_alike(lambda lib: lib.ormqr(lib.ones(4, 3), lib.ones(2), lib.ones(2, 3),
                                       left=False))
    errors_alike(lambda lib: lib.ormqr(lib.ones(4, 3), lib.ones(2), lib.ones(2, 4),
                                       left=False))


def test_ormqr_grad_through_geqrf_raises():
    def fn(lib):
        a = lib.ones(4, 3, dtype=lib.float64).tril().requires_grad_()
        h, tau = lib.geqrf(a)
        lib.ormqr(h, tau, lib.ones(4, 2, dtype=lib.float64)).sum().backward()
    errors_alike(fn)


# ----------------------------------------------------------------------------- ldl

def _ldl_cases(complex_=False):
    """Random, symmetric, sparse (indefinite, 2×2 pivots) and singular matrices."""
    for seed in range(40):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(1, 9))
        a = rng.standard_normal((3, n, n))
        if complex_:
            a = a + 1j * rng.standard_normal((3, n, n))
        if seed % 3 == 1:
            a[rng.random(a.shape) < 0.5] = 0
        yield a
    yield np.array([[1., 2.], [2., 1.]])
    yield np.array([[0., 1., 2.], [1., 0., 3.], [2., 3., 0.]])
    yield np.zeros((2, 3, 3))
    yield np.array([[1., 2.], [3., np.nan]])
    yield np.arange(1., 101.).reshape(10, 10) % 7 - 3


@pytest.mark.parametrize("dt", [F32, F64])
def test_ldl_factor_pivots_match_lapack(dt):
    for a in _ldl_cases():
        t, e = _both(lambda lib, a: lib.linalg.ldl_factor_ex(a), a.astype(dt))
        assert type(e).__name__ == "linalg_ldl_factor_ex"
        np.testing.assert_array_equal(e.pivots.numpy(), t.pivots.numpy())
        np.testing.assert_array_equal(e.info.numpy(), t.info.numpy())
        assert e.pivots.dtype is ember.int32 and e.info.dtype is ember.int32
        if not t.info.any():
            np.testing.assert_allclose(e.LD.numpy(), t.LD.numpy(), **TOLS[dt])


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("hermitian", [True, False])
def test_ldl_factor_complex(dt, hermitian):
    tol = R32 if dt == "complex64" else R64
    for a in _ldl_cases(complex_=True):
        t, e = _both(lambda lib, a: lib.linalg.ldl_factor_ex(a, hermitian=hermitian),
                     a.astype(dt))
        np.testing.assert_array_equal(e.pivots.numpy(), t.pivots.numpy())
        np.testing.assert_allclose(e.LD.numpy(), t.LD.numpy(), **tol)
        if t.info.any():
            continue
        b = _cplx(a.shape[:-1] + (2,), dt, 1)
        t, e = _both(lambda lib, a, b: lib.linalg.ldl_solve(
            *lib.linalg.ldl_factor(a, hermitian=hermitian), b, hermitian=hermitian),
            a.astype(dt), b)
        np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-3 if dt == "complex64"
                                   else 1e-8, atol=1e-3 if dt == "complex64" else 1e-8)


@pytest.mark.parametrize("dt", [F32, F64])
def test_ldl_solve(dt):
    for seed in range(12):
        a = arr((2, 6, 6), dt, seed)
        a = a + np.swapaxes(a, -1, -2)
        b = arr((2, 6, 3), dt, seed + 50)

        def fn(lib, a, b):
            LD, piv = lib.linalg.ldl_factor(a)
            return lib.linalg.ldl_solve(LD, piv, b)
        check(fn, a, b, grad=False, rtol=1e-3 if dt == F32 else 1e-8,
              atol=1e-4 if dt == F32 else 1e-9)
    check(lambda lib, a, b: lib.linalg.ldl_solve(*lib.linalg.ldl_factor(a), b),
          arr((5, 5), F64, 3), NC(arr((4, 1, 2, 5), F64, 4)), grad=False, **R64)


def test_ldl_not_differentiable_and_out():
    a = arr((4, 4), F64, 1)
    a = a + a.T

    def fn(lib, a):
        r = lib.linalg.ldl_factor_ex(a)
        return r.LD, r.pivots, r.info
    check(fn, a, grad=False, **R64)
    for op in (lambda lib, a: lib.linalg.ldl_factor(a).LD,
               lambda lib, a: lib.linalg.ldl_solve(*lib.linalg.ldl_factor(a.detach()),
                                                   a.detach().requires_grad_())):
        errors_alike(lambda lib, op=op: op(lib, lib.from_numpy(a).requires_grad_())
                     .sum().backward())
        for lib in (torch, ember):
            g = op(lib, lib.from_numpy(a).requires_grad_()).grad_fn
            assert (type(g).__name__, g.name()) == ("NotImplemented",
                                                    "torch::autograd::NotImplemented")

    def out(lib, a):
        LD, piv = lib.empty(0, dtype=lib.float64), lib.empty(0, dtype=lib.int32)
        r = lib.linalg.ldl_factor(a, out=(LD, piv))
        return r.LD, r.pivots, LD, piv
    check(out, a, grad=False, **R64)


def test_ldl_errors():
    o = np.ones
    for a in (o(3), o((3, 4)), o((3, 3), np.int64), o((3, 3), np.float16), np.zeros((3, 3)),
              np.zeros((2, 3, 3))):
        errors_alike(lambda lib, a=a: lib.linalg.ldl_factor(lib.from_numpy(a)))
    errors_alike(lambda lib: lib.linalg.ldl_factor_ex(lib.zeros(2, 3, 3), check_errors=True))
    eye = np.eye(3, dtype=np.float32)
    for ld, piv, b in [(o((3, 4), np.int64), None, o((3, 2), np.float32)),
                       (eye.astype(np.int64), [1, 2], o((3, 2), np.float32)),
                       (eye, [1, 2], o(3, np.float32)), (eye, None, o(3)),
                       (eye, None, o((4, 2))), (eye, [1, 2], o((4, 2), np.float32)),
                       (eye, [1., 2., 3.], o((3, 2), np.float32)),
                       (eye.astype(np.float16), None, o((3, 2), np.float16)),
                       (eye, [1, 2], o((3, 2), np.float32)), (o(3, np.float32), None,
                                                              o((3, 2), np.float32)),
                       (np.broadcast_to(eye, (2, 3, 3)), [[1, 2, 3]] * 2,
                        o((4, 3, 2), np.float32))]:
        def fn(lib, ld=ld, piv=piv, b=b):
            p = lib.tensor([1, 2, 3], dtype=lib.int32) if piv is None else lib.tensor(piv)
            if piv is not None and not isinstance(piv[0], float):
                p = p.int()
            return lib.linalg.ldl_solve(lib.from_numpy(np.array(ld)), p, lib.from_numpy(b))
        errors_alike(fn)


# ----------------------------------------------------------------------------- low rank

@pytest.mark.parametrize("dt", [F32, F64])
@pytest.mark.parametrize("shape,q,niter", [((10, 7), 4, 2), ((2, 6, 9), 3, 1), ((8, 8), None, 0)])
def test_svd_lowrank_same_draws(dt, shape, q, niter):
    def fn(lib, a, m):
        lib.manual_seed(5)
        U, S, V = lib.svd_lowrank(a, q=q, niter=niter)
        lib.manual_seed(5)
        res = lib.svd_lowrank(a, q, niter, M=m)
        return (U @ lib.diag_embed(S) @ V.mH), S, res[1], (res[0].abs(), res[2].abs())
    tol = {"rtol": 1e-3, "atol": 1e-4} if dt == F32 else R64
    check(fn, arr(shape, dt, 1), arr(shape[-1:], dt, 2), **tol)


@pytest.mark.parametrize("center", [True, False])
def test_pca_lowrank(center):
    def fn(lib, a):
        lib.manual_seed(0)
        U, S, V = lib.pca_lowrank(a, center=center)
        return U @ lib.diag_embed(S) @ V.mT, S
    check(fn, arr((12, 5), F64, 3), **R64)
    check(fn, arr((3, 7, 9), F32, 4), rtol=1e-3, atol=1e-4)
    for kw in ({"q": 7}, {"q": -1}, {"niter": -1}):
        errors_alike(lambda lib, kw=kw: lib.pca_lowrank(lib.ones(6, 5), **kw))


# ----------------------------------------------------------------------------- matrix_exp

@pytest.mark.parametrize("dt", [F32, F64, "complex64", "complex128"])
@pytest.mark.parametrize("scale", [1e-9, 1e-5, 0.01, 0.1, 0.5, 2., 8., 60.])
def test_matrix_exp_every_degree(dt, scale):
    """Norms across torch's bounds pick each Taylor degree (1 … 18, scaled and squared)."""
    a = arr((3, 5, 5), F64, 1) * scale / 5
    if dt.startswith("complex"):
        a = a + 1j * arr((3, 5, 5), F64, 2) * scale / 5
    a = a.astype(dt)
    t, e = _both(lambda lib, a: lib.linalg.matrix_exp(a), a)
    assert str(t.dtype) == str(e.dtype)
    tol = 1e-5 if dt in (F32, "complex64") else 1e-13
    np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=tol, atol=tol * np.abs(t.numpy()).max())


def test_matrix_exp_mixed_batch_grads_and_errors():
    a = arr((4, 3, 3), F64, 3) * np.array([1e-10, 0.2, 1., 30.])[:, None, None]
    check(lambda lib, a: lib.matrix_exp(a), a, rtol=1e-12, atol=1e-9)
    check(lambda lib, a: a.matrix_exp(), NC(arr((4, 4), F32, 4)), **R32)
    check(lambda lib, a: lib.linalg.matrix_exp(a), arr((2, 1, 1), F64, 5), **R64)
    c = _cplx((3, 3), "complex128")

    def grads(lib):
        x = lib.from_numpy(c).requires_grad_()
        lib.linalg.matrix_exp(x).abs().sum().backward()
        return x.grad.numpy()
    np.testing.assert_allclose(grads(ember), grads(torch), **R64)
    for bad in (np.ones(3), np.ones((2, 3)), np.ones((2, 2), np.int64)):
        errors_alike(lambda lib, bad=bad: lib.linalg.matrix_exp(lib.from_numpy(bad)))
