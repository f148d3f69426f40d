"""LU factorization and the solvers on it: ``linalg.lu_factor(_ex)``, ``linalg.lu``,
``linalg.lu_solve``, ``linalg.solve_ex`` and ``torch.lu_unpack``. Loaded on first use.

With MKL's runtime installed the factorization and the solves are MKL's ``getrf``/``getrs``
called as torch calls them (``_lapack``: torch's bits). Otherwise (NumPy has no ``getrf``)
:func:`_getrf` is LAPACK's partial-pivoting LU written out,
vectorised over the batch: the pivot of each column is its first entry of largest magnitude
(``|re| + |im|`` for complex, as ``izamax``), rows are swapped whole, the column is scaled by
the pivot's reciprocal (divided by the pivot for a 2x2 matrix, as MKL's small kernel does),
and a zero pivot is recorded in ``info`` and left unscaled. Its pivots
are LAPACK's (1-based, int32); its factors agree with torch's MKL to round-off.

Backward formulas are torch's, written with ember ops (``A = P L U``: ``gA = P L⁻ᴴ
(tril₋₁(Lᴴ gL) + triu(gU Uᴴ)) U⁻ᴴ``, rectangular factors joined as torch joins them).
"""

from __future__ import annotations

import math

from .. import _dtype as D
from .._device import xp
from .._tensor import Tensor
from . import _lapack
from .decompositions import (
    LinAlgError,
    _batch_prefix,
    _check_matrix,
    _is_vector_rhs,
    _out,
    _record,
    solve,
)
from .registry import _scalar_name, expose, op, run
from .search import _return_type
from .shape import cat
from .triangular import _substitute, solve_triangular

_wrap = Tensor._wrap

linalg_lu_factor = _return_type("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = _return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))
linalg_lu = _return_type("linalg_lu", ("P", "L", "U"))
lu_unpack_t = _return_type("lu_unpack", ("P", "L", "U"))
lu_with_info = _return_type("_lu_with_info", ("LU", "pivots", "info"))
linalg_solve_ex = _return_type("linalg_solve_ex", ("result", "info"))


# ----------------------------------------------------------------------------- kernels

def _getrf(a):
    """LAPACK getrf on ``(..., m, n)``: the packed factors, 1-based int32 pivots, and info
    (MKL's own where installed)."""
    done = _lapack.getrf(a)
    if done is not None:
        return done
    m, n = a.shape[-2:]
    batch, k = a.shape[:-2], min(m, n)
    divide = max(m, n) <= 2                       # MKL's 2x2 kernel divides by the pivot
    a = xp.array(a, copy=True).reshape((math.prod(batch), m, n))
    piv = xp.zeros((a.shape[0], k), xp.int32)
    info = xp.zeros(a.shape[0], xp.int32)
    rows = xp.arange(a.shape[0])
    with xp.errstate(all="ignore"):
        for j in range(k):
            col = a[:, j:, j]
            mag = xp.abs(col.real) + xp.abs(col.imag) if col.dtype.kind == "c" else xp.abs(col)
            p = j + xp.argmax(mag, axis=1)
            piv[:, j] = p + 1
            top = a[rows, j].copy()
            a[rows, j] = a[rows, p]
            a[rows, p] = top
            d = a[:, j, j]
            zero = d == 0
            info[(info == 0) & zero] = j + 1
            if divide:
                a[:, j + 1:, j] /= xp.where(zero, 1, d)[:, None]
            else:
                a[:, j + 1:, j] *= xp.where(zero, 1, 1 / xp.where(zero, 1, d))[:, None]
            a[:, j + 1:, j + 1:] -= a[:, j + 1:, j, None] * a[:, j, None, j + 1:]
    return a.reshape(batch + (m, n)), piv.reshape(batch + (k,)), info.reshape(batch)


def _perm(piv, m):
    """The row order ``perm`` of ``Pᵀ A = A[perm]``, from LAPACK's pivots (``..., k``)."""
    k = piv.shape[-1]
    flat = piv.reshape((math.prod(piv.shape[:-1]), k)).astype(xp.int64) - 1
    perm = xp.tile(xp.arange(m), (flat.shape[0], 1))
    rows = xp.arange(flat.shape[0])
    for i in range(k):
        p = flat[:, i]
        top = perm[:, i].copy()
        perm[:, i] = perm[rows, p]
        perm[rows, p] = top
    return perm.reshape(piv.shape[:-1] + (m,))


def _perm_matrix(piv, m, dtype):
    perm = _perm(piv, m)
    return (xp.arange(m)[:, None] == perm[..., None, :]).astype(dtype)


def _conj_t(a):
    a = xp.swapaxes(a, -1, -2)
    return a.conj() if a.dtype.kind == "c" else a


def _lu_solve_kernel(LU, pivots, B, left=True, adjoint=False):
    done = _lapack.lu_solve(LU, pivots, B, left, adjoint)
    if done is not None:
        return done
    if not left:     # X A = B is Aᴴ Xᴴ = Bᴴ (and X Aᴴ = B is A Xᴴ = Bᴴ)
        return _conj_t(_lu_solve_kernel(LU, pivots, _conj_t(B), True, not adjoint))
    m = LU.shape[-1]
    batch = xp.broadcast_shapes(LU.shape[:-2], B.shape[:-2])
    B = xp.broadcast_to(B, batch + B.shape[-2:])
    perm = xp.broadcast_to(_perm(pivots, m), batch + (m,))[..., None]
    with xp.errstate(all="ignore"):
        if not adjoint:      # U⁻¹ L⁻¹ Pᵀ B
            y = _substitute(LU, xp.take_along_axis(B, perm, -2), False, True)
            return _substitute(LU, y, True, False)
        # P L⁻ᴴ U⁻ᴴ B
        LUh = _conj_t(LU)
        z = _substitute(LUh, _substitute(LUh, B, False, False), True, True)
        return xp.take_along_axis(z, xp.argsort(perm, axis=-2), -2)


# ----------------------------------------------------------------------------- backward

def _mH(t):
    return t.mH


def _lu_backward(gL, gU, P, L, U):
    """torch's ``linalg_lu_backward``: ``gA`` of ``A = P L U`` (``L``: m×k, ``U``: k×n),
    square ``P L⁻ᴴ (tril₋₁(Lᴴ gL) + triu(gU Uᴴ)) U⁻ᴴ`` (``U`` solved first), the extra
    columns of a wide ``U`` or rows of a tall ``L`` joined as torch joins them."""
    if gL is None and gU is None:
        return None
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        gA = (_mH(L) @ gL).tril(-1) if gL is not None else None
        if gU is not None:
            t = (gU @ _mH(U)).triu()
            gA = t if gA is None else gA + t
        gA = solve_triangular(_mH(U), gA, upper=False, left=False)
        gA = solve_triangular(_mH(L), gA, upper=True, left=True, unitriangular=True)
    elif m < n:
        U1 = U.narrow(-1, 0, k)
        gA = _mH(L) @ gL if gL is not None else None
        if gU is not None:
            t = gU.triu() @ _mH(U)
            gA = -t if gA is None else gA - t
        gA = solve_triangular(_mH(U1), gA.tril(-1), upper=False, left=False)
        if gU is not None:
            gA = cat([gA + gU.narrow(-1, 0, k).triu(), gU.narrow(-1, k, n - k)], -1)
        gA = solve_triangular(_mH(L), gA, upper=True, left=True, unitriangular=True)
        if gU is None:
            gA = cat([gA, U.narrow(-1, k, n - k) * 0], -1)
    else:
        L1 = L.narrow(-2, 0, k)
        gA = gU @ _mH(U) if gU is not None else None
        if gL is not None:
            t = _mH(L) @ gL.tril(-1)
            gA = -t if gA is None else gA - t
        gA = solve_triangular(_mH(L1), gA.triu(), upper=True, left=True, unitriangular=True)
        if gL is not None:
            gA = cat([gA + gL.narrow(-2, 0, k).tril(-1), gL.narrow(-2, k, m - k)], -2)
        gA = solve_triangular(_mH(U), gA, upper=False, left=False)
        if gL is None:
            gA = cat([gA, L.narrow(-2, k, m - k) * 0], -2)
    return P @ gA


def _unpack(LU, k):
    """``L`` (m×k, unit diagonal) and ``U`` (k×n) from the packed factors, as ember ops."""
    m, n = LU.shape[-2:]
    L = LU.narrow(-1, 0, k).tril(-1) + _wrap(xp.eye(m, k, dtype=LU._data.dtype))
    return L, LU.narrow(-2, 0, k).triu()


def _pack_grads(gL, gU, m, n):
    """The packed factors' gradient from ``gL`` (m×k) and ``gU`` (k×n)."""
    if m >= n:
        top = gL.narrow(-2, 0, n).tril(-1) + gU.triu()
        return cat([top, gL.narrow(-2, n, m - n)], -2) if m > n else top
    return cat([gL.tril(-1) + gU.narrow(-1, 0, m).triu(), gU.narrow(-1, m, n - m)], -1)


def _lu_factor_backward(grads, LU, pivots):
    gLU = grads[0]
    if gLU is None:
        return None
    m, n = LU.shape[-2:]
    k = min(m, n)
    L, U = _unpack(LU, k)
    P = _wrap(_perm_matrix(pivots._data, m, LU._data.dtype))
    return _lu_backward(gLU.narrow(-1, 0, k), gLU.narrow(-2, 0, k), P, L, U)


def _lu_solve_grad_B(grad, LU, pivots, left, adjoint):
    return lu_solve(LU, pivots, grad, left=left, adjoint=not adjoint)


def _lu_solve_grad_LU(grad, LU, pivots, result, left, adjoint):
    """torch's ``linalg_lu_solve_LU``: with ``gR = U⁻ᴴ op(-gX) op(X)ᴴ`` the gradient is
    ``tril₋₁(L⁻ᴴ gR Uᴴ) + triu(gR)`` when ``left != adjoint``; otherwise, with ``gR =
    -Pᵀ op(X) op(gX)ᴴ P L⁻ᴴ``, ``tril₋₁(gR) + triu(Lᴴ gR U⁻ᴴ)``."""
    n = LU.shape[-1]
    L, U = _unpack(LU, n)
    X, gX = result, grad
    if left != adjoint:
        gR = solve_triangular(_mH(U), (-(gX if left else _mH(gX))) @ (_mH(X) if left else X),
                              upper=False)
        gL = solve_triangular(_mH(L), gR @ _mH(U), upper=True, left=True,
                              unitriangular=True).tril(-1)
        return gL + gR.triu()
    P = _wrap(_perm_matrix(pivots._data, n, LU._data.dtype))
    gR = -(((P.mT @ (X if left else _mH(X))) @ (_mH(gX) if left else gX)) @ P)
    gR = solve_triangular(_mH(L), gR, upper=True, left=False, unitriangular=True)
    gU = solve_triangular(_mH(U), _mH(L) @ gR, upper=False, left=False).triu()
    return gR.tril(-1) + gU


# ----------------------------------------------------------------------------- checks

def _check_lu_input(A, fname):
    if A.ndim < 2:
        raise RuntimeError(f"{fname}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A.shape)} instead")
    if not (A.dtype.is_floating_point or A.dtype.is_complex) or A.dtype in (D.float16, D.bfloat16):
        raise NotImplementedError(f'"lu_cpu" not implemented for \'{_scalar_name(A.dtype)}\'')


def _check_pivot(pivot):
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


def _zero_pivot_error(info, fname):
    bad = xp.argwhere(info != 0)[0]
    prefix = _batch_prefix(info[..., None, None], tuple(bad))
    i = int(info[tuple(bad)])
    raise RuntimeError(f"{fname}: {prefix}U[{i},{i}] is zero and using it on lu_solve would "
                       f"result in a division by zero. If you still want to perform the "
                       f"factorization, consider calling linalg.lu(A, pivot) or "
                       f"linalg.lu_factor_ex(A, pivot)")


# ----------------------------------------------------------------------------- lu_factor, lu

def _lu_factor_run(A):
    lu, piv, info = _getrf(A._data)
    LU, pivots = _wrap(lu), _wrap(piv)
    _record("LinalgLuFactorExBackward0", A, (LU, pivots), _lu_factor_backward, complex_ok=True,
            LU=LU, pivots=pivots)
    return LU, pivots, info


def lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False, out=None):
    """The packed LU factorization ``(LU, pivots, info)`` of ``A`` (``P L U`` with partial
    pivoting, LAPACK's 1-based int32 pivots); ``info`` is the first zero pivot (1-based) or 0.

    >>> ember.linalg.lu_factor_ex(ember.tensor([[1., 2.], [3., 4.]])).pivots
    tensor([2, 2], dtype=torch.int32)
    """
    _check_lu_input(A, "torch.lu_factor")
    _check_pivot(pivot)
    LU, pivots, info = _lu_factor_run(A)
    if check_errors and info.any():
        _zero_pivot_error(info, "torch.linalg.lu_factor_ex")
    return _out(linalg_lu_factor_ex(LU, pivots, _wrap(info)), out)


def lu_factor(A: Tensor, *, pivot: bool = True, out=None):
    """The packed LU factorization ``(LU, pivots)`` of ``A``; raises where a pivot is zero."""
    _check_lu_input(A, "torch.lu_factor")
    _check_pivot(pivot)
    LU, pivots, info = _lu_factor_run(A)
    if info.any():
        _zero_pivot_error(info, "torch.linalg.lu_factor")
    return _out(linalg_lu_factor(LU, pivots), out)


def _unpack_arrays(lu, piv, unpack_data=True, unpack_pivots=True):
    m, n = lu.shape[-2:]
    k = min(m, n)
    empty = xp.empty((0,), lu.dtype)
    P = _perm_matrix(piv, m, lu.dtype) if unpack_pivots else empty
    if not unpack_data:
        return P, empty, empty
    L = xp.tril(lu[..., :, :k], -1) + xp.eye(m, k, dtype=lu.dtype)
    return P, L, xp.triu(lu[..., :k, :])


def lu(A: Tensor, *, pivot: bool = True, out=None):
    """``A = P L U`` with partial pivoting (``torch.return_types.linalg_lu``).

    >>> P, L, U = ember.linalg.lu(ember.tensor([[1., 2.], [3., 4.]]))
    >>> U
    tensor([[3.0000, 4.0000],
            [0.0000, 0.6667]])
    """
    _check_lu_input(A, "linalg.lu")
    _check_pivot(pivot)
    lu_, piv, _ = _getrf(A._data)
    P, L, U = (_wrap(x) for x in _unpack_arrays(lu_, piv))
    _record("LinalgLuBackward0", A, (P, L, U),
            lambda grads, P, L, U: _lu_backward(grads[1], grads[2], P, L, U), complex_ok=True,
            P=P, L=L, U=U)
    P.grad_fn = None
    return _out(linalg_lu(P, L, U), out)


def _lu_unpack_backward(grads, LU_data):
    _, gL, gU = grads
    gL, gU = (g if g is not None and g.ndim >= 2 else None for g in (gL, gU))
    if gL is None and gU is None:
        return None
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    gL = LU_data.narrow(-1, 0, k) * 0 if gL is None else gL
    gU = LU_data.narrow(-2, 0, k) * 0 if gU is None else gU
    return _pack_grads(gL, gU, m, n)


@expose(method=False)
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,
              unpack_pivots: bool = True, *, out=None):
    """``(P, L, U)`` from the packed LU factorization of :func:`ember.linalg.lu_factor`."""
    if LU_data.ndim < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got "
                           f"size: {list(LU_data.shape)} instead")
    if LU_pivots.dtype is not D.int32:
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                           "torch.int32 dtype.\nNote: this function is intended to be used "
                           "with the output produced by torch.linalg.lu_factor")
    m, n = LU_data.shape[-2:]
    piv = LU_pivots._data
    if unpack_pivots and (piv.shape[-1:] != (min(m, n),) or (piv < 1).any()
                          or (piv > m).any()):
        raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                           "inclusive.Did you properly pass the result of lu_factor?")
    P, L, U = (_wrap(x) for x in _unpack_arrays(LU_data._data, piv, unpack_data,
                                                 unpack_pivots))
    _record("LuUnpackBackward0", LU_data, (P, L, U), _lu_unpack_backward, complex_ok=True,
            LU_data=LU_data)
    P.grad_fn = None
    return _out(lu_unpack_t(P, L, U), out)


# ----------------------------------------------------------------------------- lu_solve

@op("LinalgLuSolveBackward0", name="linalg_lu_solve", method=False, function=False,
    promote=None, holomorphic=False, tensors=("LU", "pivots", "B"), LU=_lu_solve_grad_LU,
    B=_lu_solve_grad_B)
def _lu_solve(LU, pivots, B, left=True, adjoint=False):
    return _lu_solve_kernel(LU, pivots, B, left, adjoint)


def lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True,
             adjoint: bool = False, out=None) -> Tensor:
    """The solution ``X`` of ``A X = B`` given ``A``'s :func:`lu_factor` (``X A = B`` when
    ``left=False``; ``Aᴴ`` in place of ``A`` when ``adjoint=True``)."""
    if LU.ndim < 2:
        raise RuntimeError("torch.linalg.lu_solve: The input tensor A must have at least 2 "
                           "dimensions.")
    if LU.shape[-1] != LU.shape[-2]:
        raise RuntimeError(f"torch.linalg.lu_solve: A must be batches of square matrices, but "
                           f"they are {LU.shape[-2]} by {LU.shape[-1]} matrices")
    if not (LU.dtype.is_floating_point or LU.dtype.is_complex):
        raise RuntimeError(f"torch.linalg.lu_solve: Expected a floating point or complex tensor "
                           f"as input. Got {_scalar_name(LU.dtype)}")
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 "
                           "dimensions.")
    n = LU.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{eq} ({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    if LU.dtype is not B.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but "
                           f"found LU of type {_scalar_name(LU.dtype)} and B of type "
                           f"{_scalar_name(B.dtype)} instead")
    if pivots.dtype is not D.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type "
                           "torch.int32")
    if pivots.shape[-1:] != (n,):
        raise RuntimeError("linalg.lu_solve: Number of pivots per batch should be same as the "
                           "dimension of the matrix")
    if tuple(pivots.shape) != tuple(LU.shape[:-1]):
        raise RuntimeError(f"linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be "
                           f"the same, but got pivots with shape {list(pivots.shape)} instead")
    if (pivots._data > n).any() or (pivots._data < 1).any():
        raise RuntimeError("Pivots given to lu_solve must all be smaller or equal to "
                           "LU.size(-2). Did you properly pass the result of lu_factor?")
    return run(_lu_solve, (LU, pivots, B, left, adjoint), out)


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False,
             out=None):
    """:func:`ember.linalg.solve` that reports singular matrices in ``info`` (LAPACK's, 0 for
    success) instead of raising, as ``torch.return_types.linalg_solve_ex(result, info)``."""
    _check_matrix(A, "linalg.solve", kernel="lu_cpu")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {_scalar_name(A.dtype)} and B of type "
                           f"{_scalar_name(B.dtype)} instead")
    info = _getrf(A._data)[2]
    if check_errors and info.any():
        raise LinAlgError("torch.linalg.solve_ex: The solver failed because the input matrix "
                          "is singular.")
    if not info.any():
        return _out(linalg_solve_ex(solve(A, B, left=left), _wrap(info)), out)
    LU, pivots, _ = _lu_factor_run(A)     # LAPACK's gesv: getrf, then getrs whatever info
    vec = _is_vector_rhs(A, B)
    X = lu_solve(LU, pivots, B.unsqueeze(-1) if vec else B, left=left)
    return _out(linalg_solve_ex(X.squeeze(-1) if vec else X, _wrap(info)), out)
