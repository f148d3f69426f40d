"""``ember.linalg``: torch.linalg's namespace (matrix functions and decompositions).

The ops are defined in :mod:`ember._ops.decompositions` (and the products in
:mod:`ember._ops.linalg`); this module only publishes them under torch's names.
"""

from __future__ import annotations

from . import _lazy
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
from ._tensor import Tensor as _Tensor

matmul = _products.matmul


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The diagonals of the matrices in the last two dims (a view)."""
    return _products.diagonal(A, offset, dim1, dim2)

vector_norm = _vector_norm_fn

# the rarer functions load on first use
_lazy.package(globals(), names={
    **dict.fromkeys(("lu", "lu_factor", "lu_factor_ex", "lu_solve", "solve_ex"),
                    "_ops.factorizations"),
    **dict.fromkeys(("cond", "matrix_rank", "multi_dot", "tensorinv", "tensorsolve", "vander",
                     "vecdot"), "_ops.linalg_composites"),
    "householder_product": "_ops.householder",
    **dict.fromkeys(("ldl_factor", "ldl_factor_ex", "ldl_solve"), "_ops.ldl"),
})
del _lazy, _Tensor


del annotations  # keep dir() to torch's names


from ._names import name_namespace as _name_namespace  # noqa: E402

_name_namespace(globals(), __name__)      # torch's __name__: ``linalg_det`` …
del _name_namespace

from ._ops.registry import require_namespace as _require  # noqa: E402

_require(list(globals().values()))      # torch's error for a missing argument
del _require
