"""``linalg.eig`` and ``linalg.eigvals``: the general eigen-decomposition, LAPACK's ``geev``
(as torch's CPU kernel), with torch's complex result types."""

from __future__ import annotations

from .._device import xp
from .._tensor import Tensor
from . import _lapack
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


def _check_info(info, name: str) -> None:
    """torch's error where geev did not converge (``info > 0``)."""
    if info.any():
        from .decompositions import LinAlgError, _batch_prefix
        idx = tuple(xp.argwhere(info)[0])
        prefix = _batch_prefix(info[..., None, None], idx)
        raise LinAlgError(f"torch.{name}: {prefix}The algorithm failed to converge because "
                          f"the input matrix is ill-conditioned or has too many repeated "
                          f"eigenvalues (error code: {int(info[idx])}).")


def eig(input: Tensor, *, out=None):
    """``(eigenvalues, eigenvectors)`` of square matrices, complex, each eigenvector of unit
    norm (``A @ V == V @ diag(L)``).

    >>> ember.linalg.eig(ember.tensor([[2., 0.], [0., 3.]])).eigenvalues
    tensor([2.+0.j, 3.+0.j])
    """
    _check(input, "linalg.eig")
    _no_grad_support("linalg.eig", input)
    dt = _COMPLEX[input.dtype.name]
    done = _lapack.eig(input._data, True)
    if done is not None:
        _check_info(done[2], "linalg.eig")
        return EigResult(Tensor._wrap(done[0]), Tensor._wrap(done[1]))
    w, v = xp.linalg.eig(input._data)
    return EigResult(Tensor._wrap(w.astype(dt)), Tensor._wrap(v.astype(dt)))


def eigvals(input: Tensor, *, out=None) -> Tensor:
    """The eigenvalues of square matrices, complex."""
    _check(input, "linalg.eigvals")
    _no_grad_support("linalg.eigvals", input)
    done = _lapack.eig(input._data, False)
    if done is not None:
        _check_info(done[2], "linalg.eigvals")
        return Tensor._wrap(done[0])
    return Tensor._wrap(xp.linalg.eigvals(input._data).astype(_COMPLEX[input.dtype.name]))
