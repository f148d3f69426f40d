"""Oracle tests of the linear algebra added beside the core decompositions: the LU family,
linalg's composites (cond, matrix_rank, multi_dot, tensorinv/solve, vander, vecdot), the
Householder routines, the low-rank SVD/PCA and torch's legacy and removed forms.

Factors come from a different LAPACK than torch's (MKL): values are compared to round-off
(``R32``/``R64`` below), pivots, info, dtypes, shapes, grad_fn names and errors exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import NC, arr, caught_warnings, check, errors_alike, torch

F32, F64 = "float32", "float64"
R32 = {"rtol": 1e-4, "atol": 1e-5}
R64 = {"rtol": 1e-9, "atol": 1e-10}
TOLS = {F32: R32, F64: R64}


def _sq(shape, dt, seed=0):
    """Well-conditioned square matrices (diagonally weighted)."""
    a = arr(shape, dt, seed)
    return (a + 3 * np.eye(shape[-1], dtype=dt)).astype(dt)


# ----------------------------------------------------------------------------- LU

@pytest.mark.parametrize("dt", [F32, F64])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (6, 4), (2, 4, 6), (1, 1), (0, 0),
                                   (2, 0, 3)])
def test_lu_factor_pivots_and_values(dt, shape):
    a = arr(shape, dt, 3)
    t = torch.linalg.lu_factor_ex(torch.from_numpy(a))
    e = ember.linalg.lu_factor_ex(ember.from_numpy(a))
    assert type(e).__name__ == "linalg_lu_factor_ex"
    np.testing.assert_array_equal(e.pivots.numpy(), t.pivots.numpy())
    assert e.pivots.dtype is ember.int32 and e.info.dtype is ember.int32
    np.testing.assert_array_equal(e.info.numpy(), t.info.numpy())
    np.testing.assert_allclose(e.LU.numpy(), t.LU.numpy(), **TOLS[dt])


def test_lu_factor_many_pivots_match_lapack():
    for seed in range(5):
        a = arr((8, 12, 12), F64, seed)
        np.testing.assert_array_equal(ember.linalg.lu_factor(ember.from_numpy(a)).pivots.numpy(),
                                      torch.linalg.lu_factor(torch.from_numpy(a)).pivots.numpy())


def test_lu_factor_complex():
    a = (arr((2, 4, 4), F64, 1) + 1j * arr((2, 4, 4), F64, 2)).astype(np.complex128)
    t = torch.linalg.lu_factor(torch.from_numpy(a))
    e = ember.linalg.lu_factor(ember.from_numpy(a))
    np.testing.assert_array_equal(e.pivots.numpy(), t.pivots.numpy())
    np.testing.assert_allclose(e.LU.numpy(), t.LU.numpy(), **R64)


@pytest.mark.parametrize("dt", [F32, F64])
def test_lu_factor_grad(dt):
    check(lambda lib, a: lib.linalg.lu_factor(a), _sq((2, 4, 4), dt), **TOLS[dt])
    check(lambda lib, a: lib.linalg.lu_factor(a).LU, NC(_sq((3, 3), dt)), **TOLS[dt])
    check(lambda lib, a: lib.linalg.lu_factor_ex(a), _sq((3, 3), dt, 1), **TOLS[dt])


@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (3, 5)])
def test_linalg_lu(shape):
    check(lambda lib, a: lib.linalg.lu(a), arr(shape, F64, 4), **R64)
    check(lambda lib, a: tuple(lib.linalg.lu(a)), arr(shape, F32, 5), **R32)


def test_lu_errors():
    sing = np.array([[1., 2.], [2., 4.]], np.float32)
    batch = np.stack([np.eye(2, dtype=np.float32), sing * 0, sing])
    check(lambda lib, a: lib.linalg.lu_factor(a), sing, grad=False)
    check(lambda lib, a: lib.linalg.lu_factor(a), batch, grad=False)
    check(lambda lib, a: lib.linalg.lu_factor_ex(a), batch, grad=False)
    check(lambda lib, a: lib.linalg.lu_factor_ex(a, check_errors=True), batch, grad=False)
    check(lambda lib, a: lib.linalg.lu_factor(a), np.ones((2, 3), np.float32), grad=False)
    check(lambda lib, a: lib.linalg.lu_factor(a), np.ones(3, np.float32), grad=False)
    check(lambda lib, a: lib.linalg.lu(a), np.ones(3, np.float32), grad=False)
    check(lambda lib, a: lib.linalg.lu_factor_ex(a), np.ones(3, np.float32), grad=False)
    check(lambda lib, a: lib.linalg.lu_factor(a), np.ones((3, 3), np.int64), grad=False)
    check(lambda lib, a: lib.linalg.lu(a), np.ones((3, 3), np.float16), grad=False)
    check(lambda lib, a: lib.linalg.lu_factor(a, pivot=False), np.eye(3), grad=False)
    check(lambda lib, a: lib.linalg.lu(a, pivot=False), np.eye(3), grad=False)


@pytest.mark.parametrize("dt", [F32, F64])
@pytest.mark.parametrize("left,adjoint", [(True, False), (True, True), (False, False),
                                          (False, True)])
def test_lu_solve(dt, left, adjoint):
    def fn(lib, a, b):
        LU, piv = lib.linalg.lu_factor(a)
        return lib.linalg.lu_solve(LU, piv, b, left=left, adjoint=adjoint)
    check(fn, _sq((2, 4, 4), dt), arr((2, 4, 3) if left else (2, 3, 4), dt, 1), **TOLS[dt])
    check(fn, _sq((4, 4), dt), NC(arr((4, 2) if not left else (2, 4), dt, 1).T), **TOLS[dt])


def test_lu_solve_broadcasts_and_grads_factors_directly():
    def fn(lib, a, b):
        LU, piv = lib.linalg.lu_factor(a.detach())
        LU.requires_grad_()
        x = lib.linalg.lu_solve(LU, piv, b)
        x.sum().backward()
        return x, LU.grad
    check(fn, _sq((2, 3, 3), F64), arr((4, 1, 3, 2), F64, 2), grad=False, **R64)


def test_lu_solve_errors():
    eye = np.eye(3, dtype=np.float32)

    def solve(b, piv=None, lu=eye, **kw):
        def fn(lib):
            LU, p = lib.linalg.lu_factor(lib.from_numpy(lu))
            p = p if piv is None else lib.from_numpy(np.asarray(piv))
            return lib.linalg.lu_solve(LU, p, lib.from_numpy(b), **kw)
        errors_alike(fn)
    solve(np.ones((2, 3), np.float32))
    solve(np.ones(3, np.float32))
    solve(np.ones((3, 2)))
    solve(np.ones((3, 2), np.float32), left=False)
    solve(np.ones((3, 2), np.float32), piv=np.ones(3, np.int64))
    solve(np.ones((3, 2), np.float32), piv=np.ones(2, np.int32))
    solve(np.ones((3, 2), np.float32), piv=np.array([5, 1, 1], np.int32))
    errors_alike(lambda lib: lib.linalg.lu_solve(lib.ones(2, 3), lib.ones(2, dtype=lib.int32),
                                                 lib.ones(3, 2)))
    errors_alike(lambda lib: lib.linalg.lu_solve(lib.eye(3).int(), lib.ones(3, dtype=lib.int32),
                                                 lib.ones(3, 2).int()))
    errors_alike(lambda lib: lib.linalg.lu_solve(lib.eye(3).expand(2, 3, 3),
                                                 lib.ones(3, dtype=lib.int32), lib.ones(3, 2)))


@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (3, 5)])
def test_lu_unpack(shape):
    def fn(lib, a):
        LU, piv = lib.linalg.lu_factor(a)
        return lib.lu_unpack(LU, piv)
    check(fn, arr(shape, F64, 6), **R64)
    # (torch's backward fails through the empty factors: values only)
    check(lambda lib, a: lib.lu_unpack(*lib.linalg.lu_factor(a), unpack_data=False),
          arr(shape, F32, 6), grad=False, **R32)
    check(lambda lib, a: lib.lu_unpack(*lib.linalg.lu_factor(a), unpack_pivots=False),
          arr(shape, F32, 6), grad=False, **R32)


def test_lu_unpack_errors_and_ints():
    check(lambda lib, a, p: lib.lu_unpack(a, p), np.ones((3, 3), np.int32),
          np.array([2, 3, 3], np.int32))
    for piv in ([3, 3, 4], [0, 3, 3], [1, 2]):
        check(lambda lib, a, p: lib.lu_unpack(a, p), np.eye(3), np.array(piv, np.int32),
              grad=False)
    check(lambda lib, a, p: lib.lu_unpack(a, p), np.eye(3), np.array([1, 2, 3]), grad=False)
    check(lambda lib, a, p: lib.lu_unpack(a, p), np.ones(3), np.ones(3, np.int32), grad=False)
    check(lambda lib, a, p: lib.lu_unpack(a, p), np.zeros((2, 3, 0)), np.zeros((2, 0), np.int32))


def test_solve_ex():
    sing = np.array([[1., 2.], [2., 4.]], np.float32)
    check(lambda lib, a, b: lib.linalg.solve_ex(a, b), _sq((2, 3, 3), F64), arr((2, 3), F64),
          **R64)
    check(lambda lib, a, b: lib.linalg.solve_ex(a, b, left=False), _sq((3, 3), F64),
          arr((2, 3), F64), **R64)
    check(lambda lib, a, b: lib.linalg.solve_ex(a, b), sing, np.ones(2, np.float32), grad=False)
    check(lambda lib, a, b: lib.linalg.solve_ex(a, b),
          np.stack([sing, np.eye(2, dtype=np.float32)]), np.ones(2, np.float32), grad=False)
    check(lambda lib, a, b: lib.linalg.solve_ex(a, b, check_errors=True), sing,
          np.ones(2, np.float32), grad=False)
    check(lambda lib, a, b: lib.linalg.solve_ex(a, b), np.eye(2, dtype=np.float32), np.ones(2))
    check(lambda lib, a, b: lib.linalg.solve_ex(a, b), np.eye(2, dtype=np.int32),
          np.ones(2, np.int32))


def test_legacy_lu_forms_warn_once_and_match():
    a = _sq((2, 3, 3), F64)
    check(lambda lib, x: lib.lu(x), a, **R64)
    check(lambda lib, x: lib.lu(x, get_infos=True), a, **R64)
    check(lambda lib, x: x.lu(), a, **R64)
    check(lambda lib, x: x.lu(get_infos=True), a, **R64)
    check(lambda lib, x, b: lib.lu_solve(b, *lib.linalg.lu_factor(x)), a, arr((2, 3, 2), F64),
          **R64)
    check(lambda lib, x, b: b.lu_solve(*lib.linalg.lu_factor(x)), a, arr((2, 3, 2), F64), **R64)
    check(lambda lib, x: lib.lu(x), np.array([[1., 2.], [2., 4.]]), grad=False)
    check(lambda lib, x: lib.lu(x), np.eye(3, dtype=np.int32), grad=False)
    t = type(torch.lu(torch.eye(2), get_infos=True)).__name__
    assert type(ember.lu(ember.eye(2), get_infos=True)).__name__ == t
    assert type(ember.lu(ember.eye(2))) is tuple is type(torch.lu(torch.eye(2)))


def test_legacy_warnings_once():
    import importlib

    from ember._ops import linalg_legacy
    importlib.reload(linalg_legacy)     # a fresh warn-once state
    for fn, start in ((lambda lib: lib.lu(lib.eye(2)), "torch.lu is deprecated"),
                      (lambda lib: lib.lu_solve(lib.ones(2, 1),
                                                *lib.linalg.lu_factor(lib.eye(2))),
                       "torch.lu_solve is deprecated"),
                      (lambda lib: lib.triangular_solve(lib.ones(2, 1), lib.eye(2)),
                       "torch.triangular_solve is deprecated"),
                      (lambda lib: lib.chain_matmul(lib.eye(2), lib.eye(2)),
                       "torch.chain_matmul is deprecated"),
                      (lambda lib: lib.nuclear_norm(lib.eye(2)), "at::nuclear_norm"),
                      (lambda lib: lib.frobenius_norm(lib.eye(2), (0, 1)),
                       "at::frobenius_norm")):
        w = caught_warnings(fn, ember)
        assert [c for c, _ in w] == ["UserWarning"] and w[0][1].startswith(start), w
        assert caught_warnings(fn, ember) == []


# ----------------------------------------------------------------------------- composites

@pytest.mark.parametrize("p", [None, 2, -2, "nuc"])
def test_cond_svd_based(p):
    check(lambda lib, a: lib.linalg.cond(a, p), _sq((2, 3, 3), F64), **R64)
    check(lambda lib, a: lib.linalg.cond(a, p), NC(_sq((4, 4), F32, 1)), **R32)


@pytest.mark.parametrize("p", ["fro", 1, -1, float("inf"), float("-inf")])
def test_cond_inverse_based(p):
    check(lambda lib, a: lib.linalg.cond(a, p), _sq((2, 3, 3), F64), grad=False, **R64)
    check(lambda lib, a: lib.linalg.cond(a, p), _sq((4, 4), F32, 1), grad=False, **R32)
    check(lambda lib, a: lib.linalg.cond(a, p), np.ones((2, 2), np.float32), grad=False)
    # torch fills the inverse in place: its backward raises the in-place error
    errors_alike(lambda lib: lib.linalg.cond(lib.eye(2, requires_grad=True) * 2, p).backward())


def test_cond_errors_and_rectangular():
    check(lambda lib, a: lib.linalg.cond(a), arr((2, 3), F64), **R64)
    check(lambda lib, a: lib.linalg.cond(a, "fro"), arr((2, 3)), grad=False)
    check(lambda lib, a: lib.linalg.cond(a, 1), arr((2, 3)), grad=False)
    check(lambda lib, a: lib.linalg.cond(a, 3), arr((2, 2)), grad=False)
    check(lambda lib, a: lib.linalg.cond(a), arr(2), grad=False)
    check(lambda lib, a: lib.linalg.cond(a), np.ones((2, 2), np.int32), grad=False)


def test_matrix_rank():
    a = arr((3, 4, 4), F64, 2)
    a[0, :, 3] = a[0, :, 0]       # rank 3
    a[1] = np.outer(a[1, 0], a[1, 1])
    for kw in ({}, {"hermitian": True}, {"atol": 0.5}, {"atol": 0.5, "rtol": 0.1},
               {"rtol": 0.3}, {"atol": 0.0}):
        check(lambda lib, x, kw=kw: lib.linalg.matrix_rank(x, **kw), a, grad=False)
    check(lambda lib, x: lib.linalg.matrix_rank(x, 0.5), a, grad=False)
    check(lambda lib, x: lib.linalg.matrix_rank(x, tol=0.5), a.astype(F32), grad=False)
    check(lambda lib, x: lib.linalg.matrix_rank(x, atol=lib.tensor([0.1, 10., 0.1])), a,
          grad=False)
    check(lambda lib, x: lib.linalg.matrix_rank(x), arr((2, 5), F32), grad=False)
    check(lambda lib, x: lib.linalg.matrix_rank(x), arr(3), grad=False)
    check(lambda lib, x: lib.linalg.matrix_rank(x), np.ones((2, 2), np.int64), grad=False)


@pytest.mark.parametrize("dt", [F32, F64])
def test_multi_dot_and_chain_matmul(dt):
    shapes = [(3, 4), (4, 2), (2, 5), (5, 3), (3, 6)]
    for n in (2, 3, 4, 5):
        ms = [arr(s, dt, k) for k, s in enumerate(shapes[:n])]
        check(lambda lib, *t: lib.linalg.multi_dot(list(t)), *ms, **TOLS[dt])
        check(lambda lib, *t: lib.chain_matmul(*t), *ms, **TOLS[dt])
    v, m, w = arr(3, dt), arr((3, 4), dt, 1), arr(4, dt, 2)
    check(lambda lib, a, b, c: lib.linalg.multi_dot([a, b, c]), v, m, w, **TOLS[dt])
    check(lambda lib, a, b: lib.linalg.multi_dot([a, b]), v, m, **TOLS[dt])
    check(lambda lib, a, b: lib.linalg.multi_dot([a, b]), NC(arr((4, 3), dt)), w, **TOLS[dt])
    check(lambda lib, a: lib.chain_matmul(a), m, **TOLS[dt])


def test_multi_dot_errors():
    m = arr((3, 3))
    check(lambda lib, a: lib.linalg.multi_dot([a]), m, grad=False)
    errors_alike(lambda lib: lib.linalg.multi_dot([]))
    check(lambda lib, a, b: lib.linalg.multi_dot([a, b]), m, m.astype(F64), grad=False)
    check(lambda lib, a, b: lib.linalg.multi_dot([a, b]), m, arr((2, 2)), grad=False)
    check(lambda lib, a, b: lib.linalg.multi_dot([a, b]), m, arr((2, 3, 3)), grad=False)
    check(lambda lib, a, b: lib.linalg.multi_dot([b, a]), m, arr((2, 3, 3)), grad=False)
    check(lambda lib, a, b: lib.linalg.multi_dot([a, b, a]), m, arr(3), grad=False)
    errors_alike(lambda lib: lib.chain_matmul())
    check(lambda lib, a, b: lib.chain_matmul(a, b), m, arr(3), grad=False)


def test_tensorinv_tensorsolve():
    a = arr((4, 6, 8, 3), F64, 1) + 3 * np.eye(24).reshape(4, 6, 8, 3)
    check(lambda lib, x: lib.linalg.tensorinv(x, ind=2), a, **R64)
    check(lambda lib, x: lib.linalg.tensorinv(x, 1), _sq((3, 3), F32), **R32)
    check(lambda lib, x: lib.linalg.tensorinv(x, ind=0), a, grad=False)
    check(lambda lib, x: lib.linalg.tensorinv(x, ind=2), arr((4, 6, 8, 2)), grad=False)
    check(lambda lib, x: lib.linalg.tensorinv(x, ind=2), np.zeros((2, 2, 2, 2)), grad=False)
    b = arr((2, 3, 6), F64, 2) + 3 * np.eye(6).reshape(2, 3, 6)
    check(lambda lib, x, y: lib.linalg.tensorsolve(x, y), b, arr((2, 3), F64, 3), **R64)
    check(lambda lib, x, y: lib.linalg.tensorsolve(x, y, dims=(0,)), np.moveaxis(b, 2, 0).copy(),
          arr((2, 3), F64, 3), **R64)
    check(lambda lib, x, y: lib.linalg.tensorsolve(x, y), arr((6, 4, 2, 3)), arr((5, 4)),
          grad=False)


def test_vander_vecdot():
    check(lambda lib, x: lib.linalg.vander(x), arr(4, F64), **R64)
    check(lambda lib, x: lib.linalg.vander(x, N=6), arr((2, 3), F32), **R32)
    check(lambda lib, x: lib.linalg.vander(x, N=4), np.array([1, 2, 3]))
    check(lambda lib, x: lib.linalg.vander(x, N=3), np.array([1, 2, 3], np.int32))
    for n in (0, 1):
        check(lambda lib, x, n=n: lib.linalg.vander(x, N=n), arr(3), grad=False)
    check(lambda lib, x: lib.linalg.vander(x), np.array(2.0), grad=False)
    check(lambda lib, x, y: lib.linalg.vecdot(x, y), arr(3), arr(3, seed=1))
    check(lambda lib, x, y: lib.linalg.vecdot(x, y), arr((2, 3)), arr(3, seed=1))
    check(lambda lib, x, y: lib.linalg.vecdot(x, y, dim=0), NC(arr((2, 3))), arr(3, seed=1))
    c = (arr((2, 3)) + 1j * arr((2, 3), seed=2)).astype(np.complex64)
    check(lambda lib, x, y: lib.linalg.vecdot(x, y), c, c[::-1].copy(), grad=False)
    check(lambda lib, x, y: lib.linalg.vecdot(x, y), np.ones(3, np.int32),
          np.ones(3, np.int32))
    check(lambda lib, x, y: lib.linalg.vecdot(x, y), arr(3), arr(3, F64), grad=False)


def test_nuclear_frobenius_norm():
    a = arr((2, 3, 4), F64)
    check(lambda lib, x: lib.nuclear_norm(x), a, **R64)
    check(lambda lib, x: lib.nuclear_norm(x, True), a, **R64)
    check(lambda lib, x: lib.nuclear_norm(x, dim=(0, 2), keepdim=True), a, **R64)
    check(lambda lib, x: lib.nuclear_norm(x), np.ones((2, 2), np.int32), grad=False)
    check(lambda lib, x: lib.frobenius_norm(x, (1, 2)), a, **R64)
    check(lambda lib, x: lib.frobenius_norm(x, dim=(0,), keepdim=True), NC(arr((3, 4))))
    check(lambda lib, x: lib.frobenius_norm(x, (0, 1)), np.ones((2, 2), np.int32), grad=False)
    check(lambda lib, x: lib.frobenius_norm(x), a, grad=False)


@pytest.mark.parametrize("upper,transpose,unit", [(True, False, False), (False, True, False),
                                                  (True, True, True), (False, False, True)])
def test_triangular_solve(upper, transpose, unit):
    a = _sq((2, 4, 4), F64)
    a = np.triu(a) if upper else np.tril(a)
    check(lambda lib, b, x: lib.triangular_solve(b, x, upper, transpose, unit),
          arr((2, 4, 3), F64, 1), a, **R64)
    check(lambda lib, b, x: b.triangular_solve(x, upper=upper, transpose=transpose,
                                               unitriangular=unit),
          arr((3, 1, 4, 2), F32, 1), a.astype(F32), **R32)


def test_triangular_solve_errors():
    a = np.triu(_sq((3, 3), F32))
    for b in (arr(3), arr((2, 2)), arr((3, 2), F64)):
        check(lambda lib, x, y: lib.triangular_solve(x, y), b, a, grad=False)
    check(lambda lib, x, y: lib.triangular_solve(x, y), arr((3, 2)), arr((2, 3)), grad=False)
    check(lambda lib, x, y: lib.triangular_solve(x, y), np.ones((3, 2), np.int32),
          np.eye(3, dtype=np.int32), grad=False)


def test_removed_functions_raise_torchs_messages():
    a = arr((3, 3))
    for fn in (lambda lib, x: lib.eig(x), lambda lib, x: lib.symeig(x),
               lambda lib, x: lib.lstsq(x, x), lambda lib, x: lib.solve(x, x),
               lambda lib, x: lib.matrix_rank(x), lambda lib, x: x.eig(),
               lambda lib, x: x.symeig(True), lambda lib, x: x.lstsq(x),
               lambda lib, x: x.solve(x)):
        check(fn, a, grad=False)


def test_lazy_loading():
    from .test_startup import fresh
    got = fresh("import json, sys, ember\n"
                "mods = ('ember._ops.factorizations', 'ember._ops.linalg_legacy',\n"
                "        'ember._ops.linalg_composites')\n"
                "before = [m in sys.modules for m in mods]\n"
                "t = ember.eye(2)\n"
                "r = [callable(t.lu), 'lu' in dir(ember.linalg), 'lu_unpack' in dir(ember)]\n"
                "print(json.dumps([before, r, [m in sys.modules for m in mods]]))")
    assert got == [[False] * 3, [True] * 3, [True, True, True]]
