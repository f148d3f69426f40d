"""``linalg.eig`` and ``linalg.eigvals``: the general eigen-decomposition, LAPACK's ``geev``
(as torch's CPU kernel), with torch's complex result types."""

from __future__ import annotations

from .._device import xp
from .._tensor import Tensor
from .complex_views import _no_grad_support
from .search import _return_type

EigResult = _return_type("linalg_eig", ("eigenvalues", "eigenvectors"))
_COMPLEX = {"float32": xp.complex64, "float64": xp.complex128, "complex64": xp.complex64,
            "complex128": xp.complex128}


def _check(A: Tensor, name: str) -> None:
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if A.dtype.name not in _COMPLEX:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                           f"Got {A.dtype.scalar_name}")


def eig(A: Tensor, *, out=None):
    """``(eigenvalues, eigenvectors)`` of square matrices, complex, each eigenvector of unit
    norm (``A @ V == V @ diag(L)``).

    >>> ember.linalg.eig(ember.tensor([[2., 0.], [0., 3.]])).eigenvalues
    tensor([2.+0.j, 3.+0.j])
    """
    _check(A, "linalg.eig")
    _no_grad_support("linalg.eig", A)
    dt = _COMPLEX[A.dtype.name]
    w, v = xp.linalg.eig(A._data)
    return EigResult(Tensor._wrap(w.astype(dt)), Tensor._wrap(v.astype(dt)))


def eigvals(A: Tensor, *, out=None) -> Tensor:
    """The eigenvalues of square matrices, complex."""
    _check(A, "linalg.eigvals")
    _no_grad_support("linalg.eigvals", A)
    return Tensor._wrap(xp.linalg.eigvals(A._data).astype(_COMPLEX[A.dtype.name]))
