"""``ember.linalg``: torch.linalg's namespace (matrix functions and decompositions).

The ops are defined in :mod:`ember._ops.decompositions` (and the products in
:mod:`ember._ops.linalg`); this module only publishes them under torch's names.
"""

from __future__ import annotations

from ._ops import linalg as _products
from ._ops.constructions import matrix_exp, matrix_power  # noqa: F401
from ._ops.cross import linalg_cross as cross  # noqa: F401
from ._ops.decompositions import (  # noqa: F401
    LinAlgError,
    cholesky,
    cholesky_ex,
    det,
    eigh,
    eigvalsh,
    inv,
    inv_ex,
    lstsq,
    matrix_norm,
    norm,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
)
from ._ops.eig import eig, eigvals  # noqa: F401
from ._ops.reduction import vector_norm as _vector_norm_fn
from ._ops.triangular import solve_triangular  # noqa: F401

matmul = _products.matmul


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The diagonals of the matrices in the last two dims (a view)."""
    return _products.diagonal(A, offset, dim1, dim2)

vector_norm = _vector_norm_fn


del annotations  # keep dir() to torch's names
