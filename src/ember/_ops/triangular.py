"""``linalg.solve_triangular``: triangular systems by substitution, with torch's gradients
(``LinalgSolveTriangularBackward0``)."""

from __future__ import annotations

from .._device import xp
from . import _lapack
from .registry import op, run


def _mH(t):
    t = t.transpose(-2, -1)
    return t.conj() if t.dtype.is_complex else t


def _grad_B(grad, A, upper, left, unitriangular):
    return _solve_triangular(_mH(A), grad, not upper, left, unitriangular)


def _grad_A(grad, self, result, upper, left, unitriangular):
    gB = _grad_B(grad, self, upper, left, unitriangular)
    gA = -(gB @ _mH(result)) if left else -(_mH(result) @ gB)
    return gA.triu(int(unitriangular)) if upper else gA.tril(-int(unitriangular))


def _substitute(A, B, upper, unitriangular):
    """Solve ``A X = B`` for a triangular ``A`` (batched), one row of ``X`` at a time."""
    n = A.shape[-1]
    batch = xp.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    A = xp.broadcast_to(A, batch + A.shape[-2:])
    X = xp.array(xp.broadcast_to(B, batch + B.shape[-2:]), dtype=xp.result_type(A, B))
    rows = range(n - 1, -1, -1) if upper else range(n)
    for i in rows:
        done = slice(i + 1, n) if upper else slice(0, i)
        acc = X[..., i, :] - xp.einsum("...k,...kj->...j", A[..., i, done], X[..., done, :])
        X[..., i, :] = acc if unitriangular else acc / A[..., i, i:i + 1]
    return X


@op("LinalgSolveTriangularBackward0", name="linalg_solve_triangular", method=False,
    function=False, promote=None, holomorphic=False, self=_grad_A,
    B=lambda grad, self, upper, left, unitriangular: _grad_B(grad, self, upper, left,
                                                             unitriangular))
def _solve_triangular(self, B, upper, left=True, unitriangular=False):
    done = _lapack.solve_triangular(self, B, upper, left, unitriangular)
    if done is not None:
        return done
    with xp.errstate(all="ignore"):
        if left:
            return _substitute(self, B, upper, unitriangular)
        # X A = B  <=>  Aᵀ Xᵀ = Bᵀ
        At = xp.swapaxes(self, -1, -2)
        return xp.swapaxes(_substitute(At, xp.swapaxes(B, -1, -2), not upper, unitriangular),
                           -1, -2)


def solve_triangular(input, B, *, upper: bool, left: bool = True, unitriangular: bool = False,
                     out=None):
    """The solution ``X`` of ``A X = B`` (``X A = B`` when ``left=False``) for a triangular
    ``A``: its upper (``upper=True``) or lower triangle is read, the rest ignored."""
    if input.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor A must have at least 2 "
                           "dimensions.")
    if B.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 "
                           "dimensions.")
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError("linalg.solve_triangular: A must be batches of square matrices, but "
                           f"they are {input.shape[-2]} by {input.shape[-1]} matrices")
    if input.dtype is not B.dtype:
        raise RuntimeError(f"linalg.solve_triangular: Expected A and B to have the same dtype, "
                           f"but found A of type {input.dtype.scalar_name} and B of type "
                           f"{B.dtype.scalar_name} instead")
    n = input.shape[-1]
    k = B.shape[-2] if left else B.shape[-1]
    if k != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {eq} ({input.shape[-2]}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    return run(_solve_triangular, (input, B, upper, left, unitriangular), out)


