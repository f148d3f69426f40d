"""torch's legacy linear algebra at the top level: ``torch.lu``, ``torch.lu_solve``,
``torch.triangular_solve``, ``torch.chain_matmul``, ``torch.nuclear_norm``,
``torch.frobenius_norm`` (each warning once, as torch's ``TORCH_WARN_ONCE``), and the functions
torch removed in 1.9 (``torch.eig``, ``symeig``, ``lstsq``, ``solve``, ``matrix_rank``), which
raise torch's message naming their replacement. Loaded on first use.
"""

from __future__ import annotations

import warnings

from .. import _dtype as D
from .. import _errors
from .. import _ops as _ops_package
from .._device import xp
from .._tensor import Tensor
from . import _lapack
from .decompositions import _mH, _mT, matrix_norm
from .factorizations import _check_lu_input, _check_pivot, _lu_factor_run, lu_with_info
from .factorizations import lu_solve as _linalg_lu_solve
from .linalg_composites import _multi_dot
from .reduction import _norm_back, _vector_norm
from .registry import _scalar_name, expose, op, run
from .search import _return_type
from .triangular import solve_triangular
from .util import norm_dims

_wrap = Tensor._wrap
triangular_solve_t = _return_type("triangular_solve", ("solution", "cloned_coefficient"))

# ----------------------------------------------------------------------------- lu

_LU_WARNING = _errors.internal(
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)",
    "aten/src/ATen/native/BatchLinearAlgebra.cpp:2073")
_LU_SOLVE_WARNING = _errors.internal(
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
    "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
    "X = torch.linalg.lu_solve(LU, pivots, B)", "aten/src/ATen/native/BatchLinearAlgebra.cpp:2230")
_warned: set = set()


def _warn_once(text, stacklevel=3):
    if text not in _warned:       # TORCH_WARN_ONCE
        _warned.add(text)
        warnings.warn(text, UserWarning, stacklevel=stacklevel)


def _lu_with_info(A, pivot):
    """``torch._lu_with_info``: never raises for a zero pivot (LAPACK's info is never < 0)."""
    _warn_once(_LU_WARNING, stacklevel=4)
    _check_lu_input(A, "torch.lu_factor")
    _check_pivot(pivot)
    LU, pivots, info = _lu_factor_run(A)
    return LU, pivots, _wrap(info)


def lu(A: Tensor, pivot: bool = True, get_infos: bool = False, out=None):
    """``torch.lu`` (deprecated in torch): ``(LU, pivots)``, and ``infos`` with
    ``get_infos=True``, as :func:`ember.linalg.lu_factor_ex` computes them."""
    res = _lu_with_info(A, pivot)
    if out is not None:
        for o, r in zip(out, res):
            o.resize_as_(r).copy_(r)
        return out
    return lu_with_info(*res) if get_infos else res[:2]


@expose(name="lu", function=False)
def _lu_method(self, pivot=True, get_infos=False):
    """See :func:`ember.lu`."""
    res = _lu_with_info(self, pivot)
    return tuple(res) if get_infos else res[:2]


@expose(function=False)
def lu_solve(input: Tensor, LU_data: Tensor, LU_pivots: Tensor, *, out=None) -> Tensor:
    """``torch.lu_solve(b, LU, pivots)`` (deprecated in torch): ``linalg.lu_solve(LU, pivots,
    b)``."""
    _warn_once(_LU_SOLVE_WARNING)
    return _linalg_lu_solve(LU_data, LU_pivots, input, out=out)



# ----------------------------------------------------------------------------- triangular_solve

_TRIANGULAR_SOLVE_WARNING = _errors.internal(
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B).",
    "aten/src/ATen/native/BatchLinearAlgebra.cpp:2273")


def _op_solve(A, b, upper, transpose, unitriangular):
    """``op(A) X = b`` with ``op`` the transpose when ``transpose``."""
    return solve_triangular(_mT(A) if transpose else A, b, upper=upper != transpose,
                            unitriangular=unitriangular)


def _ts_grads(grads, A, result, upper, transpose, unitriangular):
    gx, gm = grads
    gb = _op_solve(A.conj(), gx, upper, not transpose, unitriangular)
    gA = -(result.conj() @ _mT(gb)) if transpose else -(gb @ _mH(result))
    gA = gA.triu(int(unitriangular)) if upper else gA.tril(-int(unitriangular))
    return gb, gA + gm


@op("TriangularSolveBackward0", name="triangular_solve_", method=False, function=False,
    promote=None, outputs=2, holomorphic=False,
    self=lambda grads, A, result, upper, transpose, unitriangular:
    _ts_grads(grads, A, result, upper, transpose, unitriangular)[0],
    A=lambda grads, A, result, upper, transpose, unitriangular:
    _ts_grads(grads, A, result, upper, transpose, unitriangular)[1])
def _triangular_solve(self, A, upper, transpose, unitriangular):
    from .triangular import _substitute
    done = _lapack.triangular_solve(self, A, upper, transpose, unitriangular)
    if done is not None:
        return done
    batch = xp.broadcast_shapes(self.shape[:-2], A.shape[:-2])
    A = xp.broadcast_to(A, batch + A.shape[-2:])
    At = xp.swapaxes(A, -1, -2) if transpose else A
    with xp.errstate(all="ignore"):
        x = _substitute(At, self, upper != transpose, unitriangular)
    return x, A.copy()


@expose
def triangular_solve(input: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False, *, out=None):
    """``torch.triangular_solve(b, A)`` (deprecated in torch): the solution of ``A X = b`` for
    a triangular ``A`` (``Aᵀ X = b`` when ``transpose``), and a copy of ``A``."""
    _warn_once(_TRIANGULAR_SOLVE_WARNING)
    if input.ndim < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, "
                           f"but it has {input.ndim} dimensions instead")
    if A.ndim < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected A to have at least 2 dimensions, "
                           f"but it has {A.ndim} dimensions instead")
    if input.dtype is not A.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_scalar_name(input.dtype)} and A of type {_scalar_name(A.dtype)} "
                           f"instead.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {A.shape[-2]} "
                           f"by {A.shape[-1]} matrices")
    if A.shape[-1] != input.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is "
                           f"{A.shape[-2]} by {A.shape[-1]} but each b matrix is "
                           f"{input.shape[-2]} by {input.shape[-1]}")
    if not (A.dtype.is_floating_point or A.dtype.is_complex) or A.dtype in (D.float16,
                                                                            D.bfloat16):
        raise NotImplementedError(f'"triangular_solve_cpu" not implemented for '
                                  f"'{_scalar_name(A.dtype)}'")
    res = run(_triangular_solve, (input, A, upper, transpose, unitriangular))
    return _tuple_out(triangular_solve_t(*res), out)


def _tuple_out(res, out):
    if out is None:
        return res
    from .decompositions import _out
    return _out(res, tuple(out))


# ----------------------------------------------------------------------------- chain, norms

_CHAIN_WARNING = _errors.internal(
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
    "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
    "multiple parameters.", "aten/src/ATen/native/LinearAlgebra.cpp:1102")
_NUC_WARNING = ("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It "
                "will be removed in a future PyTorch release. Please use "
                "`linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead")
_FRO_WARNING = ("at::frobenius_norm is deprecated and it is just left for JIT compatibility. It "
                "will be removed in a future PyTorch release. Please use "
                "`linalg.vector_norm(A, 2., dim, keepdim)` instead")


@expose(method=False)
def chain_matmul(*matrices, out=None) -> Tensor:
    """``torch.chain_matmul`` (deprecated in torch): :func:`ember.linalg.multi_dot` of the
    matrices given as arguments."""
    _warn_once(_CHAIN_WARNING)
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for t in matrices:
        if t.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {t.ndim}, expected 2 instead.")
    res = matrices[0].clone() if len(matrices) == 1 else _multi_dot(list(matrices),
                                                                   "multi_dot")
    return _tuple_out(res, out)


@expose(method=False)
def nuclear_norm(input: Tensor, dim=None, keepdim: bool = False, *, out=None) -> Tensor:
    """``torch.nuclear_norm`` (deprecated in torch): the sum of singular values over ``dim``
    (the last two dims by default)."""
    _warn_once(_NUC_WARNING)
    # (nuclear_norm(input, keepdim); the parameters kept: a call torch's parser refuses is
    # read back from them)
    dims, keep = (None, dim) if isinstance(dim, bool) else (dim, keepdim)
    return matrix_norm(input, "nuc", (-2, -1) if dims is None else tuple(dims), keep, out=out)


@op("NormBackward1", name="_frobenius_norm", method=False, function=False, promote=None,
    self=lambda grad, self, result, dim, keepdim: _norm_back(grad, self, result, 2, dim,
                                                             keepdim))
def _frobenius(self, dim, keepdim):
    return _vector_norm.kernel(self, 2, dim, keepdim, None)


@expose(method=False)
def frobenius_norm(input: Tensor, dim=None, keepdim: bool = False, *, out=None) -> Tensor:
    """``torch.frobenius_norm`` (deprecated in torch): the 2-norm over the dims ``dim``
    (required, as torch's)."""
    if dim is None:
        raise _errors.missing_arguments("frobenius_norm", ["dim"])
    _warn_once(_FRO_WARNING)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {_scalar_name(input.dtype)} instead.")
    return run(_frobenius, (input, norm_dims(dim, input.ndim), keepdim), out)


# ----------------------------------------------------------------------------- removed in 1.9

_REMOVED = "This function was deprecated since version 1.9 and is now removed. "
_EIG = (_REMOVED + "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = "
        "torch.linalg.eig(A)")
_SYMEIG = (_REMOVED + "The default behavior has changed from using the upper triangular "
           "portion of the matrix by default to using the lower triangular portion.\n\nL, _ = "
           "torch.symeig(A, upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, "
           "UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) "
           "should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")
_LSTSQ = (_REMOVED + "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
          "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition "
          "in the returned tuple (although it returns other information about the problem)."
          "\n\nTo get the QR decomposition consider using `torch.linalg.qr`.\n\nThe returned "
          "solution in `torch.lstsq` stored the residuals of the solution in the last m - n "
          "columns of the returned value whenever m > n. In torch.linalg.lstsq, the residuals "
          "are in the field 'residuals' of the returned named tuple.\n\nThe unpacking of the "
          "solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced "
          "with:\nX = torch.linalg.lstsq(A, B).solution")
_SOLVE = (_REMOVED + "`torch.solve` is deprecated in favor of `torch.linalg.solve`. "
          "`torch.linalg.solve` has its arguments reversed and does not return the LU "
          "factorization.\n\nTo get the LU factorization see `torch.lu`, which can be used "
          "with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should "
          "be replaced with:\nX = torch.linalg.solve(A, B)")
_MATRIX_RANK = ("This function was deprecated since version 1.9 and is now removed.\nPlease "
                "use the `torch.linalg.matrix_rank` function instead. The parameter 'symmetric' "
                "was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


@expose(method=False)
def eig(input: Tensor, eigenvectors: bool = False, *, e=None, v=None):
    """Removed in torch 1.9: raises, naming :func:`ember.linalg.eig`."""
    raise RuntimeError(_EIG)


@expose(method=False)
def symeig(input: Tensor, eigenvectors: bool = False, upper: bool = True, *, out=None):
    """Removed in torch 1.9: raises, naming :func:`ember.linalg.eigh`."""
    raise RuntimeError(_SYMEIG)


@expose(method=False)
def lstsq(input: Tensor, A: Tensor, *, out=None):
    """Removed in torch 1.9: raises, naming :func:`ember.linalg.lstsq`."""
    raise RuntimeError(_LSTSQ)


@expose(method=False)
def solve(input: Tensor, A: Tensor, *, out=None):
    """Removed in torch 1.9: raises, naming :func:`ember.linalg.solve`."""
    raise RuntimeError(_SOLVE)


@expose(method=False)
def matrix_rank(input: Tensor, tol=None, symmetric: bool = False, *, out=None):
    """Removed in torch 1.9: raises, naming :func:`ember.linalg.matrix_rank`."""
    raise RuntimeError(_MATRIX_RANK)


def _eig_method(self, eigenvectors=False):
    raise RuntimeError(_EIG)


def _symeig_method(self, eigenvectors=False):
    raise RuntimeError(_SYMEIG)


def _lstsq_method(self, other):
    raise RuntimeError(_LSTSQ)


def _solve_method(self, other):
    raise RuntimeError(_SOLVE)


for _name, _fn in (("eig", _eig_method), ("symeig", _symeig_method), ("lstsq", _lstsq_method),
                   ("solve", _solve_method)):
    _fn.__doc__ = f"Removed in torch 1.9: raises, as :func:`ember.{_name}`."
    expose(_fn, name=_name, function=False)

_ops_package.methods_defined(__name__)      # (its Tensor methods: torch's parser errors)
