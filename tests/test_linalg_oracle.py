"""Oracle tests of the matrix ops and decompositions against torch 2.13.

Products and matrix-shaped ops are compared with :func:`check` (values, dtypes, grad_fn names,
gradients, errors). Decompositions are compared on gauge-invariant quantities (reconstructions,
singular values, ``|U|``) and on the gradients of gauge-invariant losses, and gradchecked in
float64.
"""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import NC, arr, check, errors_alike, torch

F32, F64 = "float32", "float64"


# ----------------------------------------------------------------------------- products

@pytest.mark.parametrize("dt", [F32, F64])
def test_vdot_outer(dt):
    v, w = arr((3,), dt, 1), arr((3,), dt, 2)
    check(lambda lib, a, b: lib.vdot(a, b), v, w)
    check(lambda lib, a, b: a.vdot(b), v, w)
    check(lambda lib, a, b: lib.outer(a, b), v, arr((4,), dt, 3))
    check(lambda lib, a, b: lib.ger(a, b), v, arr((4,), dt, 3))
    check(lambda lib, a, b: a.outer(b), arr((0,), dt), arr((4,), dt, 3))


def test_vdot_outer_errors():
    m, v = arr((3, 3)), arr((3,))
    check(lambda lib, a, b: lib.vdot(a, b), m, m)
    check(lambda lib, a, b: lib.vdot(a, b), v, arr((4,)))
    check(lambda lib, a, b: lib.vdot(a, b.double()), v, v)
    check(lambda lib, a, b: lib.outer(a, b), m, v)
    check(lambda lib, a, b: lib.outer(a, b), v, m)
    check(lambda lib, a, b: lib.outer(a, b), arr(()), v)
    check(lambda lib, a, b: lib.outer(a, b), v, np.arange(3))


@pytest.mark.parametrize("dt", [F32, F64])
def test_addmv_baddbmm_addbmm(dt):
    m, v = arr((3, 4), dt, 1), arr((4,), dt, 2)
    check(lambda lib, i, a, b: lib.addmv(i, a, b), arr((3,), dt), m, v)
    check(lambda lib, i, a, b: lib.addmv(i, a, b, beta=0.5, alpha=2), arr((1,), dt), NC(m.T.T), v)
    check(lambda lib, i, a, b: i.addmv(a, b, beta=0), arr((), dt), m, v)
    b1, b2 = arr((2, 3, 4), dt, 3), arr((2, 4, 5), dt, 4)
    check(lambda lib, i, a, b: lib.baddbmm(i, a, b), arr((2, 3, 5), dt), b1, b2)
    check(lambda lib, i, a, b: lib.baddbmm(i, a, b, beta=2, alpha=0.5), arr((5,), dt), b1,
          NC(b2))
    check(lambda lib, i, a, b: i.baddbmm(a, b, beta=0), arr((3, 1), dt), b1, b2)
    check(lambda lib, i, a, b: lib.addbmm(i, a, b), arr((3, 5), dt), b1, b2)
    check(lambda lib, i, a, b: i.addbmm(a, b, beta=-1, alpha=3), arr((5,), dt), NC(b1), b2)


def test_add_products_errors():
    m, v, b = arr((3, 3)), arr((3,)), arr((2, 3, 3))
    check(lambda lib, i, a, x: lib.addmv(i, a, x), v, m, arr((4,)))
    check(lambda lib, i, a, x: lib.addmv(i, a, x.double()), v, m, v)
    check(lambda lib, i, a, x: lib.addmv(i, a, x), arr((2,)), m, v)
    check(lambda lib, i, a, x: lib.addmv(i, a, x), v, v, v)
    check(lambda lib, i, a, x: lib.baddbmm(i, a, x), b, b, arr((2, 4, 3)))
    check(lambda lib, i, a, x: lib.baddbmm(i, a, x), arr((5,)), b, b)
    check(lambda lib, i, a, x: lib.baddbmm(i, a, x), b, m, b)
    check(lambda lib, i, a, x: lib.addbmm(i, a, x), m, b, arr((2, 4, 3)))
    check(lambda lib, i, a, x: lib.addbmm(i, a, x), m, m, b)
    check(lambda lib, i, a, x: lib.addbmm(i, a, x), arr((5,)), b, b)


# ----------------------------------------------------------------------------- einsum & co

EINSUM = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("ij->ij", [(3, 4)]),
    ("i,i->", [(3,), (3,)]), ("i,j->ij", [(3,), (4,)]), ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("...ij,...jk", [(2, 3, 4), (4, 5)]),
    ("i,i,i->", [(3,), (3,), (3,)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("bi,bj->bij", [(2, 3), (2, 4)]), ("iij->j", [(3, 3, 2)]), ("ij,kj->ikj", [(3, 4), (2, 4)]),
    ("b...,b...->b", [(2, 3, 4), (2, 3, 4)]), ("ij,j->i", [(3, 4), (4,)]),
    ("ij,ji->", [(3, 4), (4, 3)]), ("abc,cd->abd", [(2, 1, 3), (3, 2)]),
    ("ab,ab->", [(1, 3), (2, 3)]),
]


@pytest.mark.parametrize("eq,shapes", EINSUM)
def test_einsum(eq, shapes):
    ins = [arr(s, F64, k) for k, s in enumerate(shapes)]
    check(lambda lib, *t: lib.einsum(eq, *t), *ins)


def test_einsum_float32_nc_list():
    a, b = arr((3, 4), F32, 1), arr((4, 5), F32, 2)
    check(lambda lib, x, y: lib.einsum("ij,jk->ik", [x, y]), NC(a), NC(b))
    check(lambda lib, x, y: lib.einsum("ij , jk -> ki", x, y), a, b)


@pytest.mark.parametrize("eq,shapes", [
    ("ij,jk", [(3, 3), (3,)]), ("ij,j", [(3, 3), (4,)]), ("ij,jk->ik", [(3, 3)]),
    ("ij->k", [(3, 3)]), ("i", [(3, 3)]), ("ij->jj", [(3, 3)]), ("ii", [(3, 4)]),
])
def test_einsum_errors(eq, shapes):
    ins = [arr(s, F32, k) for k, s in enumerate(shapes)]
    check(lambda lib, *t: lib.einsum(eq, *t), *ins)


def test_einsum_dtype_error():
    check(lambda lib, a, b: lib.einsum("ij,jk->ik", a, b.double()), arr((3, 3)), arr((3, 3)))


@pytest.mark.parametrize("dt", [F32, F64])
def test_tensordot_kron(dt):
    a, b = arr((2, 3, 4), dt, 1), arr((3, 4, 5), dt, 2)
    check(lambda lib, x, y: lib.tensordot(x, y), a, b)
    check(lambda lib, x, y: lib.tensordot(x, y, dims=1), arr((3, 4), dt), NC(arr((4, 5), dt)))
    check(lambda lib, x, y: lib.tensordot(x, y, dims=([1, 0], [0, 1])), arr((3, 2, 4), dt),
          arr((2, 3, 5), dt))
    check(lambda lib, x, y: lib.tensordot(x, y, dims=0), arr((2,), dt), arr((3,), dt))
    check(lambda lib, x, y: lib.kron(x, y), arr((2, 3), dt), arr((2, 2), dt))
    check(lambda lib, x, y: lib.kron(x, y), arr((3,), dt), arr((2, 4), dt))
    check(lambda lib, x, y: lib.kron(x, y), NC(arr((2, 4), dt)), NC(arr((3, 2), dt)))
    check(lambda lib, x, y: lib.kron(x, y), arr((2, 3), dt), arr((), dt))


def test_tensordot_errors():
    a = arr((3, 3))
    check(lambda lib, x, y: lib.tensordot(x, y, 1), a, arr((4,)))
    check(lambda lib, x, y: lib.tensordot(x, y, ([0], [1, 0])), a, a)
    check(lambda lib, x, y: lib.tensordot(x, y, -1), a, a)


# ----------------------------------------------------------------------------- diagonals

@pytest.mark.parametrize("dt", [F32, F64])
def test_diagonal_family(dt):
    m, v = arr((3, 4), dt, 1), arr((3,), dt, 2)
    b = arr((2, 3, 4), dt, 3)
    check(lambda lib, x: lib.diagonal(x), m)
    check(lambda lib, x: x.diagonal(1), NC(m))
    check(lambda lib, x: lib.diagonal(x, -1, 2, 0), b)
    check(lambda lib, x: lib.diagonal(x, offset=5), m)
    check(lambda lib, x: lib.diag(x), m)
    check(lambda lib, x: x.diag(-1), m)
    check(lambda lib, x: lib.diag(x), v)
    check(lambda lib, x: lib.diag(x, 2), v)
    check(lambda lib, x: lib.diag_embed(x), b)
    check(lambda lib, x: lib.diag_embed(x, 1), v)
    check(lambda lib, x: x.diag_embed(-1, 0, 2), arr((2, 3), dt))
    check(lambda lib, x: lib.trace(x), m)
    check(lambda lib, x: x.trace(), np.arange(6).reshape(2, 3))
    check(lambda lib, x: lib.trace(x), arr((0, 0), dt))
    for d in (0, 1, -1, 5):
        check(lambda lib, x, d=d: lib.tril(x, d), b)
        check(lambda lib, x, d=d: x.triu(d), NC(m))
    check(lambda lib, x: (x * 1).tril_(), m)
    check(lambda lib, x: (x * 1).triu_(1), b)


def test_diagonal_is_view():
    for lib in (torch, ember):
        a = lib.zeros(3, 3)
        d = a.diagonal()
        d += 1
        assert a.sum().item() == 3 and d._base is a


def test_diagonal_errors():
    m, v = arr((3, 3)), arr((3,))
    check(lambda lib, x: lib.diagonal(x), v)
    check(lambda lib, x: lib.diagonal(x, 0, 0, 0), m)
    check(lambda lib, x: lib.diagonal(x, 0, 0, 5), m)
    check(lambda lib, x: lib.diag(x), arr((2, 3, 4)))
    check(lambda lib, x: lib.diag(x), arr(()))
    check(lambda lib, x: lib.diag_embed(x, 0, 0, 0), v)
    check(lambda lib, x: lib.trace(x), v)
    check(lambda lib, x: lib.tril(x), v)
    check(lambda lib, x: lib.triu(x), arr(()))


def test_products_gradcheck():
    def t(shape, seed):
        return ember.from_numpy(arr(shape, F64, seed)).requires_grad_()
    a, b, c = t((3, 4), 1), t((4, 2), 2), t((2, 3, 4), 3)
    assert ember.autograd.gradcheck(lambda x, y: ember.einsum("ij,jk->ik", x, y), (a, b))
    assert ember.autograd.gradcheck(lambda x: ember.einsum("bij,kj->bik", x, a), (c,))
    assert ember.autograd.gradcheck(lambda x, y: ember.kron(x, y), (a, b))
    assert ember.autograd.gradcheck(lambda x: x.diagonal(1).tril(0), (c,))
    assert ember.autograd.gradgradcheck(lambda x, y: ember.tensordot(x, y, 1), (a, b))
    assert ember.autograd.gradgradcheck(lambda x: ember.diag_embed(x).trace(), (a[0],))


# ----------------------------------------------------------------------------- decompositions

def well(shape, dt=F64, seed=0):
    """A well-conditioned (batch of) square matrix: noise plus a multiple of the identity."""
    a = arr(shape, dt, seed, low=-0.5, high=0.5)
    return (a + 2 * np.eye(shape[-1], dtype=dt)).astype(dt)


def spd(lib, x):
    return x @ x.mT + lib.eye(x.shape[-1], dtype=x.dtype)


@pytest.mark.parametrize("dt", [F32, F64])
def test_inv_det_slogdet(dt):
    tol = dict(rtol=1e-4, atol=1e-5) if dt == F32 else {}
    for a in (well((3, 3), dt), well((2, 4, 4), dt, 1), NC(well((3, 3), dt, 2))):
        check(lambda lib, x: lib.linalg.inv(x), a, **tol)
        check(lambda lib, x: lib.inverse(x), a, **tol)
        check(lambda lib, x: x.inverse(), a, **tol)
        check(lambda lib, x: lib.linalg.det(x), a, **tol)
        check(lambda lib, x: lib.det(x), a, **tol)
        check(lambda lib, x: lib.linalg.slogdet(x), a, **tol)
        check(lambda lib, x: lib.slogdet(-x), a, **tol)
        check(lambda lib, x: lib.logdet(x), a, **tol)
        check(lambda lib, x: x.logdet(), -well((3, 3), dt), **tol)
    check(lambda lib, x: lib.linalg.det(x), arr((0, 0), dt))
    check(lambda lib, x: lib.linalg.inv(x), arr((2, 0, 0), dt))


def test_det_singular_grad():
    check(lambda lib, x: lib.linalg.det(x), np.array([[1., 2.], [2., 4.]]))
    # a zero row or column keeps det exactly 0 in any LAPACK's elimination; rank-deficient
    # matrices without one round differently (MKL on AVX512 gives -6.7e-16 for
    # [[1, 2, 3], [2, 4, 6], [1, 0, 1]], and then torch's gradient is the adjugate)
    check(lambda lib, x: lib.linalg.det(x), np.array([[1., 2., 3.], [0., 0., 0.], [4., 5., 6.]]))
    check(lambda lib, x: lib.linalg.det(x), np.array([[1., 2., 0.], [3., 4., 0.], [5., 6., 0.]]))


def test_return_types():
    a = well((3, 3))
    pairs = [(lambda lib, x: lib.linalg.slogdet(x)), (lambda lib, x: lib.slogdet(x)),
             (lambda lib, x: lib.linalg.qr(x)), (lambda lib, x: lib.qr(x)),
             (lambda lib, x: lib.linalg.svd(x)), (lambda lib, x: lib.svd(x)),
             (lambda lib, x: lib.linalg.eigh(x)), (lambda lib, x: lib.linalg.inv_ex(x)),
             (lambda lib, x: lib.linalg.cholesky_ex(spd(lib, x)))]
    for f in pairs:
        t, e = f(torch, torch.from_numpy(a)), f(ember, ember.from_numpy(a))
        fields = type(t).__match_args__
        assert type(t).__name__ == type(e).__name__ and fields == type(e).__match_args__
        assert repr(e).startswith(f"torch.return_types.{type(t).__name__}(\n{fields[0]}=")
        assert all(getattr(e, f) is x for f, x in zip(fields, e))


def test_grad_fn_names():
    for f in (lambda lib, x: lib.linalg.slogdet(x), lambda lib, x: lib.linalg.qr(x),
              lambda lib, x: lib.linalg.svd(x), lambda lib, x: lib.svd(x),
              lambda lib, x: lib.linalg.eigh(x), lambda lib, x: lib.linalg.svdvals(x),
              lambda lib, x: lib.linalg.eigvalsh(x), lambda lib, x: lib.linalg.pinv(x),
              lambda lib, x: lib.linalg.cholesky(spd(lib, x)),
              lambda lib, x: lib.cholesky(spd(lib, x)),
              lambda lib, x: lib.linalg.solve(x, x), lambda lib, x: lib.linalg.inv_ex(x)[0]):
        outs = []
        for lib in (torch, ember):
            x = lib.from_numpy(well((3, 3))).requires_grad_()
            with __import__("warnings").catch_warnings():
                __import__("warnings").simplefilter("ignore")
                r = f(lib, x)
            r = r if isinstance(r, tuple) else (r,)
            outs.append([type(o.grad_fn).__name__ if lib is torch else o.grad_fn.name()
                         for o in r])
        assert outs[0] == outs[1]


@pytest.mark.parametrize("dt", [F32, F64])
def test_solve(dt):
    tol = dict(rtol=1e-4, atol=1e-5) if dt == F32 else {}
    A, B = well((3, 3), dt), arr((3, 2), dt, 1)
    check(lambda lib, a, b: lib.linalg.solve(a, b), A, B, **tol)
    check(lambda lib, a, b: lib.linalg.solve(a, b), NC(A), arr((3,), dt, 2), **tol)
    check(lambda lib, a, b: lib.linalg.solve(a, b), well((2, 3, 3), dt), arr((2, 3), dt), **tol)
    check(lambda lib, a, b: lib.linalg.solve(a, b), well((2, 3, 3), dt), B, **tol)
    check(lambda lib, a, b: lib.linalg.solve(a, b), A, arr((4, 3, 2), dt), **tol)
    check(lambda lib, a, b: lib.linalg.solve(a, b, left=False), A, arr((2, 3), dt), **tol)


@pytest.mark.parametrize("dt", [F32, F64])
def test_cholesky(dt):
    tol = dict(rtol=1e-4, atol=1e-4) if dt == F32 else {}
    x = arr((3, 3), dt, 3)
    check(lambda lib, a: lib.linalg.cholesky(spd(lib, a)), x, **tol)
    check(lambda lib, a: lib.linalg.cholesky(spd(lib, a), upper=True), x, **tol)
    check(lambda lib, a: lib.linalg.cholesky(spd(lib, a)), arr((2, 4, 4), dt, 4), **tol)
    check(lambda lib, a: lib.linalg.cholesky(a), NC(spd(np, arr((3, 3), dt, 5))), **tol)
    check(lambda lib, a: lib.linalg.cholesky_ex(spd(lib, a)), x, **tol)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda lib, a: lib.cholesky(spd(lib, a)), x, **tol)
        check(lambda lib, a: a.cholesky(upper=True), spd(np, x), **tol)


def test_cholesky_warning():
    """torch warns once per process (TORCH_WARN_ONCE): ember's text is torch's."""
    import subprocess
    import sys
    code = ("import warnings, torch\nwith warnings.catch_warnings(record=True) as w:\n"
            " warnings.simplefilter('always'); torch.cholesky(torch.eye(2)); "
            "torch.qr(torch.eye(2))\n"
            "print(repr([str(x.message) for x in w]))")
    text = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    from ember._ops import decompositions as dec
    assert eval(text) == [dec._CHOLESKY_WARNING, dec._QR_WARNING]


@pytest.mark.parametrize("dt", [F32, F64])
def test_pinv_matrix_norm(dt):
    tol = dict(rtol=1e-4, atol=1e-4) if dt == F32 else dict(rtol=1e-8, atol=1e-9)
    for a in (arr((3, 4), dt), arr((4, 3), dt, 1), arr((2, 3, 3), dt, 2), NC(arr((3, 4), dt))):
        check(lambda lib, x: lib.linalg.pinv(x), a, **tol)
    check(lambda lib, x: lib.linalg.pinv(x @ x.mT, hermitian=True), arr((3, 4), dt), **tol)
    check(lambda lib, x: lib.pinverse(x), arr((3, 2), dt), **tol)
    m = arr((2, 3, 4), dt, 3)
    for o in ("nuc", 2, -2, 1, -1, float("inf"), -float("inf")):
        check(lambda lib, x, o=o: lib.linalg.matrix_norm(x, o), m, **tol)
        check(lambda lib, x, o=o: lib.linalg.matrix_norm(x, o, dim=(0, 2), keepdim=True), m,
              **tol)
    if getattr(ember._ops, "vector_norm", None) is not None:
        check(lambda lib, x: lib.linalg.matrix_norm(x), m, **tol)
        check(lambda lib, x: lib.linalg.norm(x), arr((3, 4), dt), **tol)


@pytest.mark.parametrize("dt", [F32, F64])
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3)])
def test_qr_svd_eigh_gauge_invariant(dt, shape):
    tol = dict(rtol=1e-3, atol=1e-4) if dt == F32 else dict(rtol=1e-7, atol=1e-8)
    a = arr(shape, dt, 7)
    check(lambda lib, x: lib.linalg.svdvals(x), a, **tol)
    check(lambda lib, x: lib.linalg.svd(x, full_matrices=False).S, a, **tol)

    def svd_inv(lib, x):
        U, S, Vh = lib.linalg.svd(x, full_matrices=False)
        return U.abs(), Vh.abs(), (U * S.unsqueeze(-2)) @ Vh, U @ U.mT

    check(svd_inv, a, **tol)
    check(lambda lib, x: lib.svd(x).V.abs(), a, **tol)

    def qr_inv(lib, x):
        Q, R = lib.linalg.qr(x)
        return Q @ R, Q.abs(), R.abs(), Q @ Q.mT

    check(qr_inv, a, **tol)
    if shape[-1] == shape[-2]:
        def eigh_inv(lib, x):
            L, V = lib.linalg.eigh(x + x.mT)
            return L, V.abs(), (V * L.unsqueeze(-2)) @ V.mT

        check(eigh_inv, a, **tol)
        check(lambda lib, x: lib.linalg.eigvalsh(x, UPLO="U"), a, **tol)
        check(lambda lib, x: lib.linalg.eigh(x).eigenvectors.abs(), a, **tol)


def test_svd_qr_legacy_forms():
    import warnings
    a = arr((3, 2), F64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda lib, x: lib.svd(x, compute_uv=False), a)
        check(lambda lib, x: [t.abs() for t in lib.svd(x, some=False)], a)
        check(lambda lib, x: [t.abs() for t in x.qr()], a)
        check(lambda lib, x: [t.abs() for t in lib.qr(x, some=False)], a, grad=False)
    errors_alike(lambda lib: lib.linalg.qr(lib.ones(3, 2, requires_grad=True), mode="r")
                 .R.sum().backward())
    errors_alike(lambda lib: lib.linalg.qr(lib.ones(3, 2, requires_grad=True),
                                           mode="complete").Q.sum().backward())
    check(lambda lib, x: lib.linalg.qr(x, mode="r").R.abs(), a, grad=False)


def test_svd_full_matrices_values():
    a = arr((3, 5), F64)
    r = check(lambda lib, x: lib.linalg.svd(x).S, a)
    for lib in (torch, ember):
        U, S, Vh = lib.linalg.svd(lib.from_numpy(a))
        assert tuple(U.shape) == (3, 3) and tuple(Vh.shape) == (5, 5)
    assert r is not None


@pytest.mark.parametrize("f", [
    lambda lib, x: lib.linalg.inv(x), lambda lib, x: lib.linalg.det(x),
    lambda lib, x: lib.linalg.slogdet(x), lambda lib, x: lib.linalg.cholesky(x),
    lambda lib, x: lib.linalg.svd(x), lambda lib, x: lib.linalg.qr(x),
    lambda lib, x: lib.linalg.eigh(x), lambda lib, x: lib.linalg.solve(x, x),
    lambda lib, x: lib.linalg.matrix_norm(x), lambda lib, x: lib.linalg.pinv(x),
    lambda lib, x: lib.logdet(x), lambda lib, x: lib.inverse(x),
    lambda lib, x: lib.linalg.svdvals(x), lambda lib, x: lib.linalg.eigvalsh(x),
])
@pytest.mark.parametrize("a", [np.arange(4).reshape(2, 2), arr((2, 3)), arr((3,)),
                               np.eye(2, dtype="float16"), np.ones((2, 3), dtype="int64"),
                               np.zeros((3, 3)), np.array([[1., 2.], [2., 4.]]),
                               np.array([[1., 2.], [2., 1.]])])
def test_decomposition_errors(f, a):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            f(torch, torch.from_numpy(a))
        except Exception:  # noqa: BLE001 (torch's error must be reproduced)
            errors_alike(lambda lib: f(lib, lib.from_numpy(a)))
            return
        f(ember, ember.from_numpy(a))     # torch accepts it: so must ember


def test_batched_singular_errors():
    b = np.stack([np.eye(2), np.array([[1., 2.], [2., 4.]])])
    errors_alike(lambda lib: lib.linalg.inv(lib.from_numpy(b)))
    errors_alike(lambda lib: lib.linalg.cholesky(lib.from_numpy(b)))
    errors_alike(lambda lib: lib.linalg.solve(lib.from_numpy(b), lib.from_numpy(b)))
    errors_alike(lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(2, 3)))
    errors_alike(lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(4)))
    errors_alike(lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(3).double()))
    errors_alike(lambda lib: lib.linalg.matrix_norm(lib.ones(2, 2), "bad"))
    errors_alike(lambda lib: lib.linalg.matrix_norm(lib.ones(2, 2), 3))
    errors_alike(lambda lib: lib.linalg.qr(lib.ones(2, 2), mode="bad"))
    errors_alike(lambda lib: lib.linalg.eigh(lib.ones(2, 2), UPLO="X"))
    assert issubclass(ember.linalg.LinAlgError, RuntimeError)


def test_decompositions_gradcheck():
    gc, ggc = ember.autograd.gradcheck, ember.autograd.gradgradcheck

    def t(a):
        return ember.from_numpy(a).requires_grad_()
    A, B, W = t(well((3, 3))), t(arr((3, 2), F64, 1)), t(arr((4, 3), F64, 2))
    assert gc(lambda x: ember.linalg.inv(x), (A,))
    assert gc(lambda x: ember.linalg.det(x), (A,))
    assert gc(lambda x: ember.linalg.slogdet(x).logabsdet, (A,))
    assert gc(lambda x, y: ember.linalg.solve(x, y), (A, B))
    assert gc(lambda x: ember.linalg.cholesky(spd(ember, x)), (A,))
    assert gc(lambda x: ember.linalg.svdvals(x), (W,))
    assert gc(lambda x: ember.linalg.svd(x, full_matrices=False).U.abs(), (W,))
    assert gc(lambda x: ember.linalg.svd(x.mT, full_matrices=False).Vh.abs(), (W,))
    assert gc(lambda x: (lambda q: (q.Q.abs(), q.R.abs()))(ember.linalg.qr(x)), (W,))
    assert gc(lambda x: ember.linalg.qr(x.mT).Q.abs(), (W,))
    assert gc(lambda x: (lambda e: (e[0], e[1].abs()))(ember.linalg.eigh(x + x.mT)), (A,))
    assert gc(lambda x: ember.linalg.pinv(x), (W,))
    assert gc(lambda x: ember.linalg.matrix_norm(x, "nuc"), (W,))
    assert ggc(lambda x: ember.linalg.inv(x), (A,))
    assert ggc(lambda x: ember.linalg.det(x), (A,))
    assert ggc(lambda x: ember.linalg.cholesky(spd(ember, x)), (A,))
    assert ggc(lambda x: ember.linalg.svdvals(x), (W,))


def test_out_forms():
    a = well((3, 3))
    for lib in (torch, ember):
        A = lib.from_numpy(a)
        o, s, ld = (lib.empty(0, dtype=lib.float64) for _ in range(3))
        assert lib.linalg.inv(A, out=o) is o
        r = lib.linalg.slogdet(A, out=(s, ld))
        assert type(r).__name__ == "linalg_slogdet_out" and r.sign is s
    check(lambda lib, x: [lib.linalg.inv(x, out=lib.empty(0, dtype=x.dtype)),
                          lib.tril(x, out=lib.empty(0, dtype=x.dtype)),
                          lib.kron(x, x, out=lib.empty(0, dtype=x.dtype)),
                          lib.diag(x, out=lib.empty(0, dtype=x.dtype))], a, grad=False)


def test_inplace_products():
    m, v, b1, b2 = arr((3, 4)), arr((4,)), arr((2, 3, 4), seed=1), arr((2, 4, 5), seed=2)
    check(lambda lib, i, a, x: (i * 1).addmv_(a, x, beta=2), arr((3,)), m, v)
    check(lambda lib, i, a, x: (i * 1).baddbmm_(a, x, alpha=2), arr((2, 3, 5)), b1, b2)
    check(lambda lib, i, a, x: (i * 1).addbmm_(a, x), arr((3, 5)), b1, b2)
    check(lambda lib, a, x: a.kron(x), arr((2, 2)), arr((3,)))
