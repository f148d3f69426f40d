"""LDLᵀ with Bunch–Kaufman pivoting: ``linalg.ldl_factor(_ex)`` and ``linalg.ldl_solve``.
Loaded on first use.

With MKL's runtime installed both are MKL's ``sytrf``/``hetrf`` and ``sytrs``/``hetrs``, as
torch calls them (``_lapack``: torch's bits). Without it (NumPy has no ``sytrf``)
:func:`_sytf2` is LAPACK's ``?sytf2``/``?hetf2`` (``uplo='L'``)
written out: column ``k`` takes a 1×1 pivot when ``|aₖₖ| ≥ α·colmax`` (``α = (1+√17)/8``),
else row and column ``imax`` (its largest off-diagonal) come in as a 1×1 or a 2×2 pivot by
LAPACK's tests; only the trailing matrix is interchanged, and the pivots record it as LAPACK
does (1-based; a 2×2 block stores ``-p`` twice). Magnitudes of complex entries are
``|re| + |im|`` (``cabs1``), as LAPACK's. :func:`_sytrs` is ``?sytrs``/``?hetrs`` on those
factors. Both loop over the matrices of a batch (each takes its own pivot path); the updates
inside a step are vectorised. Values agree with torch's MKL to round-off, pivots exactly.

torch has no derivative for either: their results carry torch's ``NotImplemented`` node.
"""

from __future__ import annotations

import math

from .. import _dtype as D
from .._device import xp
from .._tensor import Tensor
from . import _lapack
from .decompositions import _check_matrix, _out
from .pointwise import _not_implemented
from .registry import NONE, _scalar_name, op, run
from .search import _return_type
from .util import broadcast_shapes

linalg_ldl_factor = _return_type("linalg_ldl_factor", ("LD", "pivots"))
linalg_ldl_factor_ex = _return_type("linalg_ldl_factor_ex", ("LD", "pivots", "info"))

_ALPHA = (1 + math.sqrt(17)) / 8


def _cabs1(x):
    return xp.abs(x.real) + xp.abs(x.imag) if x.dtype.kind == "c" else xp.abs(x)


def _first_max(x):
    """LAPACK's ``i?amax``: the first index of the largest ``cabs1``, and that value."""
    mag = _cabs1(x)
    i = int(xp.argmax(mag))
    return i, mag[i]


# ----------------------------------------------------------------------------- factor

def _sytf2(a, herm):
    """Factor one matrix in place (lower triangle); return its pivots and info."""
    n = a.shape[0]
    conj = (lambda x: x.conj()) if herm else (lambda x: x)
    diag = (lambda x: x.real) if herm else (lambda x: x)
    if herm:
        a[xp.diag_indices(n)] = a.diagonal().real
    piv = xp.zeros(n, xp.int32)
    info, k = 0, 0
    while k < n:
        kstep = 1
        absakk = abs(diag(a[k, k])) if herm else _cabs1(a[k, k])
        imax, colmax = _first_max(a[k + 1:, k]) if k < n - 1 else (-1, 0.0)
        imax += k + 1
        if max(absakk, colmax) == 0 or absakk != absakk:
            info = info or k + 1
            kp = k
        else:
            if absakk >= _ALPHA * colmax:
                kp = k
            else:
                rowmax = _first_max(a[imax, k:imax])[1]
                if imax < n - 1:
                    rowmax = max(rowmax, _first_max(a[imax + 1:, imax])[1])
                aii = abs(diag(a[imax, imax])) if herm else _cabs1(a[imax, imax])
                if absakk >= _ALPHA * colmax * (colmax / rowmax):
                    kp = k
                elif aii >= _ALPHA * rowmax:
                    kp = imax
                else:
                    kp, kstep = imax, 2
            kk = k + kstep - 1
            if kp != kk:      # interchange rows and columns kk and kp of the trailing matrix
                a[kp + 1:, [kk, kp]] = a[kp + 1:, [kp, kk]]
                seg = a[kk + 1:kp, kk].copy()
                a[kk + 1:kp, kk] = conj(a[kp, kk + 1:kp])
                a[kp, kk + 1:kp] = conj(seg)
                a[kp, kk] = conj(a[kp, kk])
                a[[kk, kp], [kk, kp]] = a[[kp, kk], [kp, kk]]
                if kstep == 2:
                    a[[k + 1, kp], k] = a[[kp, k + 1], k]
            if kstep == 1:
                _update1(a, k, herm)
            else:
                _update2(a, k, herm)
        if kstep == 1:
            piv[k] = kp + 1
        else:
            piv[k] = piv[k + 1] = -(kp + 1)
        k += kstep
    return piv, info


def _update1(a, k, herm):
    x = a[k + 1:, k]
    d = 1 / (a[k, k].real if herm else a[k, k])
    upd = xp.outer(x, (x.conj() if herm else x) * -d)
    a[k + 1:, k + 1:] += xp.tril(upd)
    a[k + 1:, k] = x * d


def _update2(a, k, herm):
    if k >= a.shape[0] - 2:
        return
    b = a[k + 1, k]
    if herm:
        w, z = max(abs(b.real), abs(b.imag)), min(abs(b.real), abs(b.imag))
        d = w * math.sqrt(1 + (z / w) ** 2)      # LAPACK's dlapy2, not hypot
        d11, d22 = a[k + 1, k + 1].real / d, a[k, k].real / d
        d21 = b / d
        d = (1 / (d11 * d22 - 1)) / d
        x0, x1 = a[k + 2:, k], a[k + 2:, k + 1]
        wk = d * (d11 * x0 - d21 * x1)
        wkp1 = d * (d22 * x1 - xp.conj(d21) * x0)
        upd = xp.outer(x0, wk.conj()) + xp.outer(x1, wkp1.conj())
    else:
        d11, d22 = a[k + 1, k + 1] / b, a[k, k] / b
        d21 = (1 / (d11 * d22 - 1)) / b
        x0, x1 = a[k + 2:, k], a[k + 2:, k + 1]
        wk = d21 * (d11 * x0 - x1)
        wkp1 = d21 * (d22 * x1 - x0)
        upd = xp.outer(x0, wk) + xp.outer(x1, wkp1)
    a[k + 2:, k + 2:] -= xp.tril(upd)
    if herm:
        idx = xp.arange(k + 2, a.shape[0])
        a[idx, idx] = a[idx, idx].real
    a[k + 2:, k] = wk
    a[k + 2:, k + 1] = wkp1


@op("torch::autograd::NotImplemented", name="linalg_ldl_factor_ex", promote=NONE, outputs=3,
    method=False, function=False, self=_not_implemented("linalg_ldl_factor_ex"))
def _ldl_factor(self, hermitian=False):
    done = _lapack.ldl_factor(self, hermitian)
    if done is not None:
        return done
    n = self.shape[-1]
    batch = self.shape[:-2]
    a = xp.array(self, copy=True).reshape((-1, n, n))
    piv = xp.zeros((a.shape[0], n), xp.int32)
    info = xp.zeros(a.shape[0], xp.int32)
    herm = hermitian and a.dtype.kind == "c"
    with xp.errstate(all="ignore"):
        for b in range(a.shape[0]):
            piv[b], info[b] = _sytf2(a[b], herm)
    return (xp.tril(a).reshape(self.shape), piv.reshape(batch + (n,)), info.reshape(batch))


def _check_factor(A):
    _check_matrix(A, "torch.linalg.ldl_factor_ex", kernel="ldl_factor_kernel_cpu")


def _info_error(info, fname):
    # torch 2.13 reaches an internal assert for a singular D (info > 0): its message, as is
    code = int(info[info != 0].reshape(-1)[0])
    raise RuntimeError(f'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/'
                       f'native/BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
                       f"{fname}: Unknown error code: {code}.")


def ldl_factor_ex(input: Tensor, *, hermitian: bool = False, check_errors: bool = False,
                  out=None):
    """The compact LDLᵀ (LDLᴴ when ``hermitian``) factorization of the symmetric matrices
    ``A`` (only the lower triangle is read), as LAPACK's sytrf: ``(LD, pivots, info)``.

    >>> ember.linalg.ldl_factor_ex(ember.tensor([[1., 2.], [2., 1.]])).pivots
    tensor([-2, -2], dtype=torch.int32)
    """
    _check_factor(input)
    LD, pivots, info = run(_ldl_factor, (input, hermitian))
    if check_errors and info._data.any():
        _info_error(info._data, "torch.linalg.ldl_factor_ex")
    return _out(linalg_ldl_factor_ex(LD, pivots, info), out)


def ldl_factor(input: Tensor, *, hermitian: bool = False, out=None):
    """:func:`ldl_factor_ex` without ``info``; raises where ``D`` is singular."""
    _check_factor(input)
    LD, pivots, info = run(_ldl_factor, (input, hermitian))
    if info._data.any():
        _info_error(info._data, "torch.linalg.ldl_factor")
    return _out(linalg_ldl_factor(LD, pivots), out)


# ----------------------------------------------------------------------------- solve

def _sytrs(a, piv, B, herm):
    """Solve ``A X = B`` in place in ``B`` from one matrix's factors."""
    n = a.shape[0]
    conj = (lambda x: x.conj()) if herm else (lambda x: x)
    k = 0
    while k < n:                          # L D Y = P B
        p = int(piv[k])
        if p > 0:
            B[[k, p - 1]] = B[[p - 1, k]]
            B[k + 1:] -= xp.outer(a[k + 1:, k], B[k])
            B[k] /= a[k, k].real if herm else a[k, k]
            k += 1
        else:
            p = -p
            B[[k + 1, p - 1]] = B[[p - 1, k + 1]]
            B[k + 2:] -= xp.outer(a[k + 2:, k], B[k]) + xp.outer(a[k + 2:, k + 1], B[k + 1])
            akm1k = a[k + 1, k]
            akm1 = a[k, k] / conj(akm1k)
            ak = a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1
            bkm1, bk = B[k] / conj(akm1k), B[k + 1] / akm1k
            B[k] = (ak * bkm1 - bk) / denom
            B[k + 1] = (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:                         # Lᵀ Pᵀ X = Y
        p = int(piv[k])
        B[k] -= conj(a[k + 1:, k]) @ B[k + 1:]
        if p > 0:
            B[[k, p - 1]] = B[[p - 1, k]]
            k -= 1
        else:
            B[k - 1] -= conj(a[k + 1:, k - 1]) @ B[k + 1:]
            B[[k, -p - 1]] = B[[-p - 1, k]]
            k -= 2
    return B


@op("torch::autograd::NotImplemented", name="linalg_ldl_solve", promote=NONE, method=False,
    function=False, tensors=("LD", "pivots", "B"), LD=_not_implemented("linalg_ldl_solve"),
    B=_not_implemented("linalg_ldl_solve"))
def _ldl_solve(LD, pivots, B, hermitian=False):
    done = _lapack.ldl_solve(LD, pivots, B, hermitian)
    if done is not None:
        return done
    n = LD.shape[-1]
    batch = broadcast_shapes(B.shape[:-2], LD.shape[:-2])
    a = xp.broadcast_to(LD, batch + (n, n)).reshape((-1, n, n))
    piv = xp.broadcast_to(pivots, batch + (n,)).reshape((-1, n))
    X = xp.array(xp.broadcast_to(B, batch + B.shape[-2:]), copy=True).reshape(
        (-1,) + B.shape[-2:])
    herm = hermitian and LD.dtype.kind == "c"
    with xp.errstate(all="ignore"):
        for b in range(X.shape[0]):
            _sytrs(a[b], piv[b], X[b], herm)
    return X.reshape(batch + B.shape[-2:])


def ldl_solve(LD: Tensor, pivots: Tensor, B: Tensor, *, hermitian: bool = False,
              out=None) -> Tensor:
    """The solution ``X`` of ``A X = B`` from :func:`ldl_factor`'s ``(LD, pivots)`` of ``A``
    (LAPACK's sytrs; batches of ``B`` broadcast against ``LD``'s)."""
    _check_matrix(LD, "torch.linalg.ldl_solve", kernel="ldl_solve_kernel_cpu")
    if pivots.dtype.is_floating_point or pivots.dtype.is_complex or pivots.dtype is D.bool:
        raise RuntimeError(f"torch.linalg.ldl_solve: Expected pivots to be integers. Got "
                           f"{_scalar_name(pivots.dtype)}")
    if B.dtype is not LD.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_scalar_name(B.dtype)} and A of type {_scalar_name(LD.dtype)} "
                           f"instead.")
    n = LD.shape[-1]
    if B.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(B.ndim, 1)}, {max(B.ndim, 1) - 1}], but got -2)")
    if B.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for torch.linalg.ldl_solve: each A "
                           f"matrix is {n} by {n} but each b matrix is {B.shape[-2]} by "
                           f"{B.shape[-1]}")
    if tuple(pivots.shape) != tuple(LD.shape[:-1]):
        raise RuntimeError(f"torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape "
                           f"to be the same, but got pivots with shape {list(pivots.shape)} "
                           f"instead")
    broadcast_shapes(B.shape[:-2], LD.shape[:-2])
    return run(_ldl_solve, (LD, pivots, B, hermitian), out)
