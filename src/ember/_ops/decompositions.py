"""Matrix functions and decompositions: inv, det, slogdet, solve, cholesky, qr, svd, eigh,
pinv, matrix_norm, and torch's legacy forms (``torch.inverse``, ``torch.svd`` …).

Every kernel is MKL's LAPACK routine called as torch calls it where MKL's runtime is
installed (``_lapack``: torch's bits), NumPy's LAPACK otherwise. Every backward is torch's
formula written with ember ops (so double backward works): inv ``-A⁻ᵀ g A⁻ᵀ``; det
``g·det·A⁻ᵀ`` (through the SVD's adjugate when a matrix is singular); solve; cholesky
(Murray's formula); qr (the ``copyltu`` formula); svd (the usual F-matrix, ``E_jk = S_k² −
S_j²``); eigh (``V (skew(VᵀgV)/E + diag(gλ)) Vᵀ``). The decompositions return torch's named
tuples (``torch.return_types.linalg_svd(U=, S=, Vh=)`` …), and their node keeps every output
it needs (the registry's entries keep only the first), through :func:`_record`.

Errors are torch's: a singular matrix raises ``torch.linalg.LinAlgError`` naming LAPACK's
pivot (``The diagonal element 2 is zero …``), found by re-running the factorization that
failed on the failing batch element.
"""

from __future__ import annotations

import warnings

from .. import _dtype as D
from .. import _errors
from .._device import xp
from .._tensor import Tensor
from ..autograd import grad_mode
from ..autograd.graph import Node, SavedTensor, _SavedByName
from . import _lapack
from .registry import _dt_of, _scalar_name, _write_out, expose, op, run
from .search import _return_type
from .triangular import solve_triangular
from .util import norm_dim

_state = grad_mode._state
_wrap = Tensor._wrap


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a matrix is singular or not positive-definite."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"   # torch._C._LinAlgError


# ----------------------------------------------------------------------------- return types

linalg_slogdet = _return_type("linalg_slogdet", ("sign", "logabsdet"))
slogdet_t = _return_type("slogdet", ("sign", "logabsdet"))
linalg_qr = _return_type("linalg_qr", ("Q", "R"))
qr_t = _return_type("qr", ("Q", "R"))
linalg_svd = _return_type("linalg_svd", ("U", "S", "Vh"))
svd_t = _return_type("svd", ("U", "S", "V"))
linalg_eigh = _return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_inv_ex = _return_type("linalg_inv_ex", ("inverse", "info"))
linalg_cholesky_ex = _return_type("linalg_cholesky_ex", ("L", "info"))


# ----------------------------------------------------------------------------- a multi-output node

class DecompNode(_SavedByName, Node):
    """The node of a decomposition: ``_fn(grads, **saved)`` gives the input's gradient.

    ``grads`` has one entry per output, ``None`` where no gradient reached that output.
    """

    __slots__ = ("_fn", "_nout")

    def apply(self, grads):
        self._check_released()
        saved = {k: s.unpack(self) for k, s in self._saved.items()} if self._saved else {}
        return [self._fn(list(grads), **saved)]

    @property
    def num_outputs(self) -> int:
        return self._nout


_NODES: dict = {}


def _record(node_name, A, outputs, fn, complex_ok=False, **save):
    """Record ``outputs = f(A)``; ``save`` names the tensors (outputs or ``A``) ``fn`` reads.
    Complex outputs join the graph only where ``fn`` follows torch's complex convention
    (``complex_ok``)."""
    if not (_state.enabled and (A._requires_grad or A.grad_fn is not None)):
        return
    cls = _NODES.get(node_name)
    if cls is None:
        cls = _NODES[node_name] = type(node_name, (DecompNode,), {"__slots__": (),
                                                                  "_name": node_name})
    node = cls()
    node._fn = fn
    node._nout = len(outputs)
    node.next_functions = (A._edge(),)
    node._input_meta = [(A._data.shape, _dt_of(A))]
    for k, r in enumerate(outputs):
        r._output_nr = k
    node._saved = {k: SavedTensor(t, any(t is r for r in outputs)) for k, t in save.items()}
    for r in outputs:
        if r.dtype.is_floating_point or (complex_ok and r.dtype.is_complex):
            r.grad_fn = node


# ----------------------------------------------------------------------------- checks

def _check_matrix(A, fname, square=True, floating=True, kernel=None):
    """torch's checks: at least 2 dims, square, floating point (in torch's order).

    ``kernel`` names the CPU kernel whose NotImplementedError a half input meets (``lu_cpu``);
    without it a half input gets linalg's "Low precision dtypes not supported".
    """
    if not isinstance(A, Tensor):
        raise TypeError(f"{fname.split('.')[-1]}(): argument 'input' (position 1) must be "
                        f"Tensor, not {type(A).__name__}")
    if A.ndim < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{fname}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if floating and not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. "
                           f"Got {_scalar_name(A.dtype)}")
    low = A.dtype in (D.float16, getattr(D, "bfloat16", D.float16))
    if low and kernel:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_scalar_name(A.dtype)}'")
    if low and floating:
        raise RuntimeError(f"{fname}: Low precision dtypes not supported. Got "
                           f"{_scalar_name(A.dtype)}")


def _batch_prefix(a, idx):
    if a.ndim <= 2:
        return ""
    flat = int(xp.ravel_multi_index(idx, a.shape[:-2])) if a.ndim > 2 else 0
    return f"(Batch element {flat}): "


def _each_matrix(a):
    for idx in xp.ndindex(*a.shape[:-2]):
        yield idx, a[idx]


def _lu_info(m):
    """LAPACK getrf's ``info`` for one matrix: the 1-based index of the first zero pivot."""
    a = xp.array(m, dtype=xp.float64 if m.dtype == xp.float64 else m.dtype, copy=True)
    n = a.shape[0]
    info = 0
    for k in range(n):
        p = k + int(xp.argmax(xp.abs(a[k:, k])))
        if a[p, k] == 0:
            if not info:
                info = k + 1
            continue
        if p != k:
            a[[k, p]] = a[[p, k]]
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= xp.outer(a[k + 1:, k], a[k, k + 1:])
    return info


def _lapack_inv(a):
    """``linalg_inv_ex``: ``solve(A, I)`` on MKL's LAPACK, ``(inverse, info)``; or None."""
    return _lapack.solve(a, xp.broadcast_to(xp.eye(a.shape[-1], dtype=a.dtype), a.shape), True)


def _singular_error(a, fname, infos=None):
    for idx, m in _each_matrix(a):
        info = _lu_info(m) if infos is None else int(infos[idx])
        if info:
            raise LinAlgError(f"{fname}: {_batch_prefix(a, idx)}The diagonal element {info} is "
                              f"zero, the inversion could not be completed because the input "
                              f"matrix is singular.")
    raise LinAlgError(f"{fname}: The inversion could not be completed because the input matrix "
                      f"is singular.")


def _chol_info(m):
    """LAPACK potrf's ``info``: the order of the first leading minor that is not PD."""
    for k in range(1, m.shape[0] + 1):
        try:
            xp.linalg.cholesky(m[:k, :k])
        except xp.linalg.LinAlgError:
            return k
    return 0


def _chol_error(a, fname, infos=None):
    """torch's error for the first matrix that is not positive-definite (LAPACK's ``infos``
    where potrf ran, else found again)."""
    for idx, m in _each_matrix(a):
        info = _chol_info(m) if infos is None else int(infos[idx])
        if info:
            raise LinAlgError(f"{fname}: {_batch_prefix(a, idx)}The factorization could not be "
                              f"completed because the input is not positive-definite (the "
                              f"leading minor of order {info} is not positive-definite).")
    raise LinAlgError(f"{fname}: The factorization could not be completed because the input "
                      f"is not positive-definite.")


def _out(res, out):
    """Write ``res`` (a tensor or a tuple of them) into ``out``; return ``out``."""
    if out is None:
        return res
    if isinstance(res, tuple):
        for o, r in zip(out, res):
            _write_out(o, r._data)
        name = type(res).__name__ + "_out"     # torch: torch.return_types.linalg_slogdet_out
        cls = _OUT_TYPES.get(name)
        if cls is None:
            cls = _OUT_TYPES[name] = _return_type(name, type(res).__match_args__)
        return cls(*out)
    return _write_out(out, res._data)


_OUT_TYPES: dict = {}


def _mT(t):
    return t.transpose(-2, -1)


def _mH(t):
    """The conjugate transpose of the last two dims (``_mT`` for real tensors)."""
    return t.mH


def _eye_like(n, like):
    return _wrap(xp.eye(n, dtype=like._data.dtype))


# ----------------------------------------------------------------------------- inv, det, slogdet

def _inv_kernel(A, fname="linalg.inv"):
    if A.shape[-1] == 0:
        return xp.empty(A.shape, A.dtype)
    done = _lapack_inv(A)
    if done is not None:
        if done[1].any():
            _singular_error(A, fname, done[1])
        return done[0]
    try:
        return xp.linalg.inv(A)
    except xp.linalg.LinAlgError:
        _singular_error(A, fname)


@op("LinalgInvExBackward0", name="linalg_inv", method=False, function=False, promote=None,
    A=lambda grad, result: -(_mT(result) @ (grad @ _mT(result))))
def _inv(A):
    return _inv_kernel(A)


def inv(A, *, out=None):
    """The inverse of a square matrix (or of each in a batch).

    >>> import ember
    >>> ember.linalg.inv(ember.tensor([[2., 0.], [0., 4.]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.2500]])
    """
    _check_matrix(A, "linalg.inv")
    return run(_inv, (A,), out)


@expose
def inverse(input, *, out=None):
    """``torch.inverse``: the same as :func:`ember.linalg.inv`."""
    return inv(input, out=out)


def inv_ex(A, *, check_errors=False, out=None):
    """The inverse and LAPACK's ``info`` (0 where a matrix was invertible)."""
    _check_matrix(A, "linalg.inv")
    a = A._data
    done = _lapack_inv(a) if a.size else None
    if done is not None:
        infos = done[1]
    else:
        infos = xp.zeros(a.shape[:-2], xp.int32)
        for idx, m in _each_matrix(a):
            infos[idx] = _lu_info(m) if m.size else 0
    if check_errors and infos.any():
        _singular_error(a, "linalg.inv_ex", infos)
    if not infos.any():
        res = run(_inv, (A,))
    elif done is not None:           # torch returns what getrs gave
        res = _wrap(done[0])
    else:
        with _quiet():
            res = _wrap(xp.stack([xp.linalg.inv(m) if not i else
                                  xp.full(m.shape, xp.nan, m.dtype)
                                  for (_, m), i in zip(_each_matrix(a), infos.ravel())]
                                 ).reshape(a.shape))
    return _out(linalg_inv_ex(res, _wrap(infos)), out)


class _quiet:
    def __enter__(self):
        self._s = xp.seterr(all="ignore")

    def __exit__(self, *exc):
        xp.seterr(**self._s)


def _lu_det_grad(A, g, perturb):
    """``A⁻ᵀ diag(g)`` through the factors of ``_linalg_det_out`` (``lu_solve`` with the
    adjoint flag unless ``A`` was contiguous, its LU that of ``Aᵀ``), as torch's
    ``linalg_det_backward``/``slogdet_backward`` compute it without create_graph; a zero
    pivot becomes ``eps`` where ``perturb``. None where that path does not apply (complex
    ``A``, a graph to build, no MKL)."""
    a = A._data
    if _state.enabled or a.dtype.kind == "c" or a.shape[-1] == 0:
        return None
    done = _lapack.lu_det(a)
    if done is None:
        return None
    lu, piv, _ = done
    n = a.shape[-1]
    d = xp.zeros(piv.shape + (n,), a.dtype)
    d[..., xp.arange(n), xp.arange(n)] = g._data[..., None]
    if perturb:
        diag = lu[..., xp.arange(n), xp.arange(n)]
        lu[..., xp.arange(n), xp.arange(n)] = xp.where(diag == 0, xp.finfo(a.dtype).eps, diag)
    return _wrap(_lapack.lu_solve(lu, piv, d, True, not a.flags.c_contiguous))


def _det_backward(grad, A, result):
    """``g·det·A⁻ᵀ``: with MKL through the forward's LU, a zero pivot made ``eps``, as
    torch; otherwise through ``inv``, 0 where ``det`` is exactly 0."""
    done = _lu_det_grad(A, grad * result, True)
    if done is not None:
        return done
    g = (grad * result).unsqueeze(-1).unsqueeze(-1)
    singular = result._data == 0
    if singular.any():
        from .pointwise import where
        eye = _eye_like(A.shape[-1], A)
        A = where(_wrap(singular[..., None, None]), eye, A)
    return g * _mT(inv(A))


@op("LinalgDetBackward0", name="linalg_det", method=False, function=False, promote=None,
    A=_det_backward)
def _det(A):
    """torch's ``det(P) · prod(diag(U))``, the diagonal multiplied in order, from the LU of the
    row-major buffer read column-major, ``Aᵀ`` (NumPy's ``det`` goes through
    ``exp(logabsdet)``, which rounds an exact ``-16`` to ``-16.000000000000004``)."""
    if A.shape[-1] == 0:
        return xp.ones(A.shape[:-2], A.dtype)
    lu, piv = _lu_of_transpose(A)      # _linalg_det_out: det(P) · prod(diag(U))
    return _wrap(lu).diagonal(0, -2, -1).prod(-1)._data * _lu_det_P(piv, A.dtype)


def _lu_of_transpose(A):
    """The packed LU and pivots torch's det takes: of ``Aᵀ`` (the row-major buffer read
    column-major) where ``A`` is contiguous and real, else of ``A``; MKL's ``getrf`` where
    installed, else LAPACK's algorithm in NumPy, laid out column-major as MKL's is."""
    done = _lapack.lu_det(A)
    if done is not None:
        return done[0], done[1]
    from .factorizations import _getrf
    use_t = A.flags.c_contiguous and A.dtype.kind != "c"
    lu, piv, _ = _getrf(xp.swapaxes(A, -1, -2) if use_t else A)
    return xp.swapaxes(xp.ascontiguousarray(xp.swapaxes(lu, -1, -2)), -1, -2), piv


def _lu_det_P(piv, dtype):
    """ATen's ``lu_det_P``: ±1, the determinant of the permutation of getrf's pivots."""
    odd = (xp.arange(1, piv.shape[-1] + 1, dtype=piv.dtype) != piv).sum(-1) % 2
    return (1 - 2 * odd).astype(dtype)


def det(A, *, out=None):
    """The determinant of a square matrix (or of each in a batch)."""
    _check_matrix(A, "linalg.det", kernel="lu_cpu")
    return run(_det, (A,), out)


@expose(name="det")
def _det_fn(input):
    """``torch.det``: the same as :func:`ember.linalg.det`."""
    return det(input)


def _slogdet_backward(g, A):
    """``g·A⁻ᵀ`` (the sign of a real determinant has no gradient)."""
    done = _lu_det_grad(A, g, False)
    return done if done is not None else g.unsqueeze(-1).unsqueeze(-1) * _mT(inv(A))


@op("LinalgSlogdetBackward0", name="linalg_slogdet_", method=False, function=False,
    promote=None, outputs=2,
    A=lambda grads, A: _slogdet_backward(grads[1], A))
def _slogdet(A):
    """As torch: from the LU of ``Aᵀ`` (see :func:`_det`), ``logabsdet`` is the sum of the logs
    of ``|diag(U)|`` (by ember's ``log`` and ``sum``, torch's kernels) and ``sign`` the product
    of the diagonal's phases with ``det(P)``."""
    if A.shape[-1] == 0:
        return xp.ones(A.shape[:-2], A.dtype), xp.zeros(A.shape[:-2], A.dtype)
    lu, piv = _lu_of_transpose(A)      # _linalg_slogdet_out, on the diagonal of U
    d = _wrap(lu).diagonal(0, -2, -1)
    return (d.sgn().prod(-1)._data * _lu_det_P(piv, A.dtype), d.abs().log().sum(-1)._data)


def slogdet(A, *, out=None):
    """``(sign, logabsdet)`` of the determinant, as ``torch.return_types.linalg_slogdet``."""
    _check_matrix(A, "linalg.slogdet")
    return _out(linalg_slogdet(*run(_slogdet, (A,))), out)


@expose(name="slogdet")
def _slogdet_fn(input):
    """``torch.slogdet``: ``(sign, logabsdet)`` as ``torch.return_types.slogdet``."""
    _check_matrix(input, "linalg.slogdet")
    return slogdet_t(*run(_slogdet, (input,)))


@expose
def logdet(input):
    """The log of the determinant (``nan`` where it is negative; for complex input
    ``log(sign) + logabsdet``)."""
    _check_matrix(input, "logdet")
    sign, logabs = run(_slogdet, (input,))
    if input.dtype.is_complex:
        return sign.log() + logabs
    from .pointwise import where
    nan = _wrap(xp.array(xp.nan, logabs._data.dtype))
    return where(sign < 0, nan, logabs)


# ----------------------------------------------------------------------------- solve

def _is_vector_rhs(A, B):
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def _solve_kernel(A, B, left=True):
    vec = left and (B.ndim == 1 or (B.ndim == A.ndim - 1 and B.shape == A.shape[:-1]))
    done = _lapack.solve(A, B[..., None] if vec else B, left) if A.size and B.size else None
    if done is not None:
        x, info = done
        if info.any():
            _solve_singular(A, info)
        if not vec:
            return x
        return x[..., 0] if x.ndim == 2 else _lapack.column_major(x[..., 0])
    if not left:
        return _mT_np(_solve_kernel(_mT_np(A), _mT_np(B)))
    vec = B.ndim == 1 or (B.ndim == A.ndim - 1 and B.shape == A.shape[:-1])
    b = B[..., None] if vec else B
    batch = xp.broadcast_shapes(A.shape[:-2], b.shape[:-2])
    a = xp.broadcast_to(A, batch + A.shape[-2:])
    b = xp.broadcast_to(b, batch + b.shape[-2:])
    try:
        x = xp.linalg.solve(a, b) if a.shape[-1] else xp.zeros(b.shape, b.dtype)
    except xp.linalg.LinAlgError:
        _solve_singular(a, None)
    return x[..., 0] if vec else x


def _solve_singular(a, infos):
    """torch's error for a singular system (getrf's ``infos`` where it ran)."""
    bad = (idx for idx, m in _each_matrix(a)
           if (_lu_info(m) if infos is None else infos[idx if infos.ndim else ()]))
    prefix = _batch_prefix(a, next(bad, ()))
    raise LinAlgError(f"torch.linalg.solve: {prefix}The solver failed because the input "
                      f"matrix is singular.") from None


def _mT_np(a):
    return xp.swapaxes(a, -1, -2)


def _solve_grad_B(grad, A, B, left):
    """torch's ``linalg_solve_backward``'s ``gB = A⁻ᴴ gX`` (``gX A⁻ᴴ`` when not ``left``):
    A's LU solved with the adjoint flag, or, building a graph (create_graph), a solve with
    ``Aᴴ``. (The formulas are the holomorphic ones, ``Aᵀ`` for complex ``A``: the engine
    conjugates.)"""
    vec = left and _is_vector_rhs(A, B)
    g = grad.unsqueeze(-1) if vec else grad
    real = not A.dtype.is_complex
    done = _lapack.getrf(A._data) if real and not _state.enabled else None
    if done is not None:
        gB = _wrap(_lapack.lu_solve(done[0], done[1], g._data, left, True))
    else:
        gB = solve(_mT(A), g, left=left)
    return gB.squeeze(-1) if vec else gB


def _solve_grad_A(grad, A, B, result, left):
    gB = _solve_grad_B(grad, A, B, left)
    if _is_vector_rhs(A, B) and left:
        gB, result = gB.unsqueeze(-1), result.unsqueeze(-1)
    return -(gB @ _mT(result)) if left else -(_mT(result) @ gB)


@op("LinalgSolveExBackward0", name="linalg_solve", method=False, function=False, promote=None,
    A=_solve_grad_A, B=_solve_grad_B)
def _solve(A, B, left=True):
    return _solve_kernel(A, B, left)


def solve(A, B, *, left=True, out=None):
    """The solution ``X`` of ``A X = B`` (``X A = B`` when ``left=False``)."""
    _check_matrix(A, "linalg.solve", square=False, kernel="lu_cpu")
    _check_matrix(A, "linalg.solve", kernel="lu_cpu")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {_scalar_name(A.dtype)} and B of type "
                           f"{_scalar_name(B.dtype)} instead")
    n = A.shape[-1]
    if left:
        vec = _is_vector_rhs(A, B)
        rows = B.shape[-1] if vec else (B.shape[-2] if B.ndim >= 2 else 1)
        if rows != n:
            shape = f"{B.shape[-1]}x1" if vec or B.ndim == 1 else \
                f"{B.shape[-2]}x{B.shape[-1]}"
            raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                               f"AX = B ({A.shape[-2]}x{n} and {shape})")
    elif B.shape[-1] != n:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"XA = B ({A.shape[-2]}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    # ATen broadcasts B's batch dims with A's, in that order
    from .util import broadcast_shapes
    vec = left and _is_vector_rhs(A, B)
    broadcast_shapes(tuple(B.shape[:-1] if vec else B.shape[:-2]), tuple(A.shape[:-2]))
    return run(_solve, (A, B, left), out)


# ----------------------------------------------------------------------------- cholesky

def _cholesky_backward(gL, L):
    """torch's ``cholesky_backward``: ``gA = L⁻ᴴ π*(tril(Lᴴ gL)) L⁻¹`` with
    ``π*(X) = ½ (X + tril₋₁(X)ᴴ)``, the inverses as two triangular solves."""
    gA = (_mH(L) @ gL).tril()
    gA = 0.5 * (gA + _mH(gA.tril(-1)))
    gA = solve_triangular(_mH(L), gA, upper=True, left=True)
    return solve_triangular(L, gA, upper=False, left=False)


def _chol_kernel(A, upper, fname):
    if A.shape[-1] == 0:
        return xp.empty(A.shape, A.dtype)
    done = _lapack.potrf(A, upper)
    if done is not None:
        if done[1].any():
            _chol_error(A, fname, done[1])
        return done[0]
    try:
        low = _mT_np(xp.tril(A, -1))
        L = xp.linalg.cholesky(xp.tril(A) + (low.conj() if A.dtype.kind == "c" else low))
    except xp.linalg.LinAlgError:
        _chol_error(A, fname)
    if not upper:
        return L
    return (_mT_np(L).conj() if L.dtype.kind == "c" else _mT_np(L)).copy()


@op("LinalgCholeskyExBackward0", name="linalg_cholesky", method=False, function=False,
    promote=None, holomorphic=False,
    A=lambda grad, result, upper: _cholesky_backward(_mH(grad), _mH(result))
    if upper else _cholesky_backward(grad, result))
def _cholesky(A, upper=False):
    return _chol_kernel(A, upper, "linalg.cholesky")


def cholesky(input, *, upper=False, out=None):
    """The Cholesky factor ``L`` (``A = L Lᴴ``) of a positive-definite matrix."""
    _check_matrix(input, "linalg.cholesky", kernel="cholesky_cpu")
    return run(_cholesky, (input, upper), out)


def cholesky_ex(input, *, upper=False, check_errors=False, out=None):
    """The Cholesky factor and LAPACK's ``info`` (0 where the factorization succeeded)."""
    _check_matrix(input, "linalg.cholesky", kernel="cholesky_cpu")
    a = input._data
    done = _lapack.potrf(a, upper) if a.size else None
    if done is not None:
        infos = done[1]
    else:
        infos = xp.zeros(a.shape[:-2], xp.int32)
        for idx, m in _each_matrix(a):
            try:
                xp.linalg.cholesky(m) if m.size else None
            except xp.linalg.LinAlgError:
                infos[idx] = _chol_info(m)
    if check_errors and infos.any():
        _chol_error(a, "linalg.cholesky_ex", infos)
    if not infos.any():
        res = run(_cholesky, (input, upper))
    elif done is not None:       # torch returns what potrf left
        res = _wrap(done[0])
    else:
        res = _wrap(xp.zeros(a.shape, a.dtype))
    return _out(linalg_cholesky_ex(res, _wrap(infos)), out)


_CHOLESKY_WARNING = _errors.internal(
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
    "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\n"
    "should be replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce "
    "equivalent results for all valid (symmetric positive definite) inputs.",
    "aten/src/ATen/native/BatchLinearAlgebra.cpp:1765")


_cholesky_warned = False


@op("CholeskyBackward0", name="cholesky_legacy", method=False, function=False, promote=None,
    holomorphic=False,
    self=lambda grad, result, upper: _cholesky_backward(_mH(grad), _mH(result))
    if upper else _cholesky_backward(grad, result))
def _cholesky_legacy(self, upper=False):
    return _chol_kernel(self, upper, "cholesky")


@expose(name="cholesky")
def _cholesky_fn(input, upper=False, *, out=None):
    """``torch.cholesky`` (deprecated in torch): the factor ``L``, or ``U = Lᴴ`` if upper."""
    global _cholesky_warned
    if not _cholesky_warned:       # TORCH_WARN_ONCE
        _cholesky_warned = True
        warnings.warn(_CHOLESKY_WARNING, UserWarning, stacklevel=2)
    _check_matrix(input, "cholesky", floating=False)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"cholesky_cpu" not implemented for '
                                  f"'{_scalar_name(input.dtype)}'")
    return run(_cholesky_legacy, (input, upper), out)


# ----------------------------------------------------------------------------- qr

def _qr_backward(grads, Q, R, mode):
    """torch's ``linalg_qr_backward``: ``gA₀ = gR Rᴴ - Qᴴ gQ``; for ``m ≥ n``
    ``(Q sym(triu gA₀) + gQ) R⁻ᴴ`` (``sym``: plus its adjoint, the real diagonal halved), for
    wide ``A`` ``[Q skew(tril(-gA₀)) R₁⁻ᴴ, 0] + Q gR`` (the imaginary diagonal halved)."""
    gQ, gR = grads
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                           "when mode='r'. Please use linalg.qr(A, mode='reduced') if you are "
                           "going to differentiate through linalg.qr.")
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                           "and nrows > ncols.")
    if gQ is None and gR is None:
        return None
    if gQ is not None:
        gA = gR @ _mH(R) - _mH(Q) @ gQ if gR is not None else -(_mH(Q) @ gQ)
    else:
        gA = gR @ _mH(R)
    if m >= n:
        t = gA.triu()
        sym = t + _mH(t)
        sym = sym - (0.5 * sym.diagonal(0, -2, -1).real).diag_embed()
        gA = Q @ sym
        if gQ is not None:
            gA = gA + gQ
        return solve_triangular(_mH(R), gA, upper=False, left=False)
    X = -gA
    skew = (X - _mH(X)).tril()
    if skew.dtype.is_complex:
        skew = skew - (0.5j * skew.diagonal(0, -2, -1).imag).diag_embed()
    gA = solve_triangular(_mH(R.narrow(-1, 0, m)), Q @ skew, upper=False, left=False)
    from .shape import cat
    gA = cat([gA, gA.new_zeros(gA.shape[:-1] + (n - m,))], -1)
    return gA + Q @ gR if gR is not None else gA


def qr(A, mode="reduced", *, out=None):
    """``A = QR`` with orthonormal ``Q`` and upper-triangular ``R`` (``torch.return_types.
    linalg_qr``); ``mode`` is ``'reduced'``, ``'complete'`` or ``'r'``."""
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           f"'reduced' (default), 'r', or 'complete'")
    _check_matrix(A, "linalg.qr", square=False, kernel="geqrf_cpu")
    return _out(linalg_qr(*_qr_run(A, mode)), out)


def _qr_run(A, mode):
    a = A._data
    m, n = a.shape[-2:]
    done = None
    if a.size == 0:
        k = m if mode == "complete" else min(m, n)
        q = xp.zeros(a.shape[:-2] + (m, k), a.dtype)
        if k:
            q[...] = xp.eye(m, k, dtype=a.dtype)
        r = xp.zeros(a.shape[:-2] + (k, n), a.dtype)
    elif (done := _lapack.qr(a, mode)) is not None:
        q, r = done
    elif mode == "r":
        r, q = xp.linalg.qr(a, mode="r"), xp.empty((0,), a.dtype)
    else:
        q, r = xp.linalg.qr(a, mode=mode)
    if done is None:
        q, r = xp.ascontiguousarray(q), xp.ascontiguousarray(r.astype(a.dtype))
    Q, R = _wrap(q), _wrap(r)
    _record("LinalgQrBackward0", A, (Q, R), lambda grads, Q, R: _qr_backward(grads, Q, R, mode),
            complex_ok=True, Q=Q, R=R)
    return Q, R


_QR_WARNING = _errors.internal(
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
    "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string parameter "
    "'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, "
    "'reduced' if some else 'complete')", "aten/src/ATen/native/BatchLinearAlgebra.cpp:2505")
_qr_warned = False


@expose(name="qr")
def _qr_fn(input, some=True, *, out=None):
    """``torch.qr`` (legacy): ``some=False`` gives the complete ``Q``."""
    global _qr_warned
    if not _qr_warned:       # TORCH_WARN_ONCE
        _qr_warned = True
        warnings.warn(_QR_WARNING, UserWarning, stacklevel=2)
    _check_matrix(input, "linalg.qr", square=False, kernel="geqrf_cpu")
    return _out(qr_t(*_qr_run(input, "reduced" if some else "complete")), out)


# ----------------------------------------------------------------------------- svd

def _svd_backward(grads, U, S, Vh, full_matrices):
    gU, gS, gVh = grads
    if full_matrices:      # torch differentiates the reduced factors
        k = S.shape[-1]
        U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        gU = gU.narrow(-1, 0, k) if gU is not None else None
        gVh = gVh.narrow(-2, 0, k) if gVh is not None else None
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        if gS is None:
            return None
        return U @ (gS.unsqueeze(-1) * Vh) if m >= n else (U * gS.unsqueeze(-2)) @ Vh
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1)
    E = E + _eye_like(S.shape[-1], E)
    if gU is not None:
        UhgU = _mH(U) @ gU
        UhgU = UhgU - _mH(UhgU)
    if gVh is not None:
        VhgV = Vh @ _mH(gVh)
        VhgV = VhgV - _mH(VhgV)
    if gU is not None and gVh is not None:
        ret = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E
    elif gU is not None:
        ret = (UhgU / E) * S.unsqueeze(-2)
    else:
        ret = S.unsqueeze(-1) * (VhgV / E)
    if gS is not None:
        ret = ret + gS.diag_embed()
    if gU is not None and U.dtype.is_complex:     # the (imaginary) diagonal of Uᴴ gU
        ret = ret + (UhgU.diagonal(0, -2, -1) / (2 * S)).diag_embed()
    if m > n and gU is not None:
        gA = U @ ret
        gUSinv = gU / S.unsqueeze(-2)
        gA = gA + gUSinv - U @ (_mH(U) @ gUSinv)
        return gA @ Vh
    if m < n and gVh is not None:
        gA = ret @ Vh
        SinvgVh = gVh / S.unsqueeze(-1)
        gA = gA + SinvgVh - (SinvgVh @ _mH(Vh)) @ Vh
        return U @ gA
    return U @ (ret @ Vh) if m >= n else (U @ ret) @ Vh


def _svd_run(A, full_matrices, compute_uv=True):
    """``_linalg_svd``; ``compute_uv=False`` (svdvals of an input no gradient reaches) runs
    LAPACK without singular vectors, as torch (``U`` and ``Vh`` are then empty)."""
    a = A._data
    m, n = a.shape[-2:]
    k = min(m, n)
    done = _lapack.svd(a, full_matrices, compute_uv or _needs_grad(A)) if a.size else None
    if done is not None:
        u, s, v, info = done
        if info.any():
            idx = next(idx for idx, _ in _each_matrix(a) if info[idx])
            raise LinAlgError(f"linalg.svd: {_batch_prefix(a, idx)}The algorithm failed to "
                              f"converge because the input matrix is ill-conditioned or has "
                              f"too many repeated singular values (error code: "
                              f"{int(info[idx])}).")
        if u is None:
            u = v = xp.empty((0,), a.dtype)
        U, S, Vh = _wrap(u), _wrap(s), _wrap(v)
    elif a.size == 0:
        bu, bv = (m, m) if full_matrices else (m, k), (n, n) if full_matrices else (k, n)
        u = xp.zeros(a.shape[:-2] + bu, a.dtype)
        v = xp.zeros(a.shape[:-2] + bv, a.dtype)
        if u.size:
            u[...] = xp.eye(*bu, dtype=a.dtype)
        if v.size:
            v[...] = xp.eye(*bv, dtype=a.dtype)
        s = xp.zeros(a.shape[:-2] + (k,), a.dtype)
    else:
        u, s, v = xp.linalg.svd(a, full_matrices=full_matrices)
    if done is None:
        U, S, Vh = (_wrap(xp.ascontiguousarray(x.astype(dt, copy=False)))
                    for x, dt in ((u, a.dtype), (s, a.real.dtype), (v, a.dtype)))
    _record("LinalgSvdBackward0", A, (U, S, Vh),
            lambda grads, U, S, Vh: _svd_backward(grads, U, S, Vh, full_matrices),
            complex_ok=True, U=U, S=S, Vh=Vh)
    return U, S, Vh


def svd(A, full_matrices=True, *, driver=None, out=None):
    """``A = U diag(S) Vh`` (``torch.return_types.linalg_svd``); singular values descending."""
    _check_matrix(A, "linalg.svd", square=False, kernel="linalg_svd_cpu")
    return _out(linalg_svd(*_svd_run(A, full_matrices)), out)


def svdvals(A, *, driver=None, out=None):
    """The singular values of ``A``, in descending order."""
    _check_matrix(A, "linalg.svd", square=False, kernel="linalg_svd_cpu")
    return _out(_svd_run(A, False, compute_uv=False)[1], out)


@expose(name="svd")
def _svd_fn(input, some=True, compute_uv=True, *, out=None):
    """``torch.svd`` (legacy): ``(U, S, V)`` with ``V`` not transposed."""
    _check_matrix(input, "linalg.svd", square=False, kernel="linalg_svd_cpu")
    U, S, Vh = _svd_run(input, not some, compute_uv)
    if not compute_uv:     # torch returns zero-filled square U and Vh, and V = Vhᴴ
        a = input._data
        m, n = a.shape[-2:]
        U, Vh = (_wrap(xp.zeros(a.shape[:-2] + (k, k), a.dtype)) for k in (m, n))
    return _out(svd_t(U, S, _mH(Vh)), out)


# ----------------------------------------------------------------------------- eigh

def _eigh_backward(grads, L, V):
    """torch's linalg_eig_backward for Hermitian input (conjugate transposes; for complex
    eigenvectors ``gL`` takes the place of the diagonal)."""
    gL, gV = grads
    if gV is None:
        if gL is None:
            return None
        return (V * gL.unsqueeze(-2)) @ _mH(V)
    VhgV = _mH(V) @ gV
    VhgV = 0.5 * (VhgV - _mH(VhgV))
    E = L.unsqueeze(-2) - L.unsqueeze(-1)
    E = E + _eye_like(L.shape[-1], E)
    ret = VhgV / E
    if gL is not None:
        if V.dtype.is_complex:
            ret = ret - ret.diagonal(0, -2, -1).diag_embed()
        ret = ret + gL.diag_embed()
    return V @ (ret @ _mH(V))


def _eigh_run(A, UPLO, vectors=True):
    """``_linalg_eigh``; ``vectors=False`` (eigvalsh of an input no gradient reaches) runs
    LAPACK without eigenvectors, as torch."""
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    a = A._data
    done = _lapack.eigh(a, UPLO == "U", vectors or _needs_grad(A))
    if done is not None:
        w, v, info = done
        if info.any():
            _eigh_error(a, info)
    elif a.size == 0:
        w, v = xp.zeros(a.shape[:-1], a.real.dtype), xp.zeros(a.shape, a.dtype)
    else:
        w, v = xp.linalg.eigh(a, UPLO=UPLO)
        v = xp.ascontiguousarray(v)
    L, V = _wrap(w.astype(a.real.dtype, copy=False)), _wrap(v)
    _record("LinalgEighBackward0", A, (L, V), _eigh_backward, complex_ok=True, L=L, V=V)
    return L, V


def _needs_grad(A):
    """ATen's ``_may_require_fw_or_bw_grad``: grad mode on and ``A`` requires grad."""
    return bool(_state.enabled and (A._requires_grad or A.grad_fn is not None))


def _eigh_error(a, infos):
    idx = next(idx for idx, _ in _each_matrix(a) if infos[idx])
    raise LinAlgError(f"linalg.eigh: {_batch_prefix(a, idx)}The algorithm failed to converge "
                      f"because the input matrix is ill-conditioned or has too many repeated "
                      f"eigenvalues (error code: {int(infos[idx])}).")


def _check_eigh(A):
    _check_matrix(A, "linalg.eigh", floating=False)
    if not (A.dtype.is_floating_point or A.dtype.is_complex) or A.dtype is D.float16:
        raise NotImplementedError(f'"linalg_eigh_cpu" not implemented for '
                                  f"'{_scalar_name(A.dtype)}'")


def eigh(input, UPLO="L", *, out=None):
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix
    (``torch.return_types.linalg_eigh``); only the ``UPLO`` triangle is read."""
    _check_eigh(input)
    return _out(linalg_eigh(*_eigh_run(input, UPLO)), out)


def eigvalsh(input, UPLO="L", *, out=None):
    """The eigenvalues of a symmetric matrix, ascending."""
    _check_eigh(input)
    return _out(_eigh_run(input, UPLO, vectors=False)[0], out)


# ----------------------------------------------------------------------------- pinv, norms

def _pinv_backward(grad, result, self):
    pinvA, A = result, self
    m, n = A.shape[-2], A.shape[-1]
    pinvAh = _mH(pinvA)
    gradh = _mH(grad)
    if m <= n:
        K = gradh @ pinvA
        KpinvAh = K @ pinvAh
        return (-_mH(pinvA @ K) + KpinvAh - (A @ pinvA) @ KpinvAh
                + (pinvAh @ pinvA) @ (gradh - K @ A))
    K = pinvA @ gradh
    pinvAhK = pinvAh @ K
    return (-_mH(K @ pinvA) + ((gradh - A @ K) @ pinvA) @ pinvAh + pinvAhK
            - (pinvAhK @ pinvA) @ A)


def _cutoffs(s_max, a, atol, rtol):
    """ATen's ``max(atol, rtol · s_max)`` (``get_atol_rtol``: tolerances in double; the
    default ``rtol`` is ``eps · max(m, n)``, 0 where a positive ``atol`` is given)."""
    m, n = a.shape[-2:]
    given = atol is not None
    atol = xp.asarray(getattr(atol, "_data", atol) if given else 0.0)
    if rtol is None:
        rtol = xp.asarray(float(xp.finfo(a.dtype).eps) * max(m, n))
        rtol = xp.where(atol > 0, 0.0, rtol) if given else rtol
    rtol = xp.asarray(getattr(rtol, "_data", rtol))
    return xp.maximum(atol[..., None], rtol[..., None] * s_max)


@op("LinalgPinvBackward0", name="linalg_pinv", method=False, function=False, promote=None,
    holomorphic=False, tensors=("self",), self=_pinv_backward)
def _pinv(self, atol=None, rtol=None, hermitian=False):
    """ATen's ``linalg_pinv``: ``V diag(S⁺) Uᴴ`` from the reduced SVD (``U diag(λ⁺) Uᴴ`` from
    eigh when ``hermitian``), the values at or below the cutoff dropped."""
    from .pointwise import where

    A = self
    m, n = A.shape[-2:]
    if A.size == 0:
        return xp.zeros(A.shape[:-2] + (n, m), A.dtype)
    zero = _wrap(xp.zeros((), A.real.dtype))
    if hermitian:
        S, U = _eigh_run(_wrap(A), "L")
        S_abs = S.abs()
        tol = _wrap(_cutoffs(S_abs.amax(-1, keepdim=True)._data, A, atol, rtol))
        S_inv = where(S_abs > tol, S.reciprocal(), zero).to(D._BY_NP[A.dtype])
        return ((U * S_inv.unsqueeze(-2)) @ _mH(U))._data
    U, S, Vh = _svd_run(_wrap(A), False)
    tol = _wrap(_cutoffs(S.narrow(-1, 0, 1)._data, A, atol, rtol))
    S_inv = where(S > tol, S.reciprocal(), zero).to(D._BY_NP[A.dtype])
    return ((_mH(Vh) * S_inv.unsqueeze(-2)) @ _mH(U))._data


def pinv(input, *, atol=None, rtol=None, hermitian=False, out=None):
    """The Moore–Penrose pseudo-inverse (singular values below the cutoff are dropped)."""
    if input.ndim < 2 or input.dtype not in (D.float32, D.float64, D.complex64, D.complex128):
        raise RuntimeError(f"linalg.pinv({_scalar_name(input.dtype)}{{{list(input.shape)}}}): "
                           "expected a tensor with 2 or more dimensions of float, double, "
                           "cfloat or cdouble types")
    return run(_pinv, (input, atol, rtol, hermitian), out)


# ----------------------------------------------------------------------------- lstsq

linalg_lstsq = _return_type("linalg_lstsq", ("solution", "residuals", "rank",
                                             "singular_values"))
_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq_grad_A(grad, A, B):
    vec = _is_vector_rhs(A, B)
    g, b = (grad.unsqueeze(-1), B.unsqueeze(-1)) if vec else (grad, B)
    pinvA = pinv(A)
    return _pinv_backward(g @ _mH(b), pinvA, A)


def _lstsq_grad_B(grad, A, B):
    vec = _is_vector_rhs(A, B)
    g = grad.unsqueeze(-1) if vec else grad
    out = _mH(pinv(A)) @ g
    return out.squeeze(-1) if vec else out


@op("LinalgLstsqBackward0", name="linalg_lstsq_", method=False, function=False, promote=None,
    holomorphic=False, A=_lstsq_grad_A, B=_lstsq_grad_B)
def _lstsq(A, B, rcond=None, driver="gelsy", lapack=None):
    """The solution; with MKL, ``lapack`` (a dict) receives the driver's whole output."""
    vec = B.ndim == A.ndim - 1
    if lapack is not None:
        m, n = A.shape[-2:]
        if rcond is None:
            rcond = float(xp.finfo(A.dtype).eps) * max(m, n)
        done = _lapack.lstsq(A, B[..., None] if vec else B, rcond, driver)
        if done is not None:
            lapack["out"] = done
            x = done[0][..., :n, :]
            if m == 0:
                x = xp.zeros_like(x)
            return x[..., 0] if vec else x
    b = B[..., None] if vec else B
    batch = xp.broadcast_shapes(A.shape[:-2], b.shape[:-2])
    a = xp.broadcast_to(A, batch + A.shape[-2:]).reshape((-1,) + A.shape[-2:])
    bb = xp.broadcast_to(b, batch + b.shape[-2:]).reshape((-1,) + b.shape[-2:])
    x = xp.stack([xp.linalg.lstsq(ai, bi, rcond=None)[0] for ai, bi in zip(a, bb)]) \
        if a.shape[0] else xp.empty((0, A.shape[-1], b.shape[-1]), A.dtype)
    x = x.reshape(batch + (A.shape[-1], b.shape[-1])).astype(A.dtype)
    return x[..., 0] if vec else x


def lstsq(input, b, rcond=None, *, driver=None):
    """The least-squares solution ``X`` of ``A X = B``, as ``torch.return_types.linalg_lstsq
    (solution, residuals, rank, singular_values)``.

    What torch's CPU drivers fill is filled: ``rank`` for ``gelsy`` (the default), ``gelsd``
    and ``gelss``; ``singular_values`` for ``gelsd``/``gelss``; ``residuals`` (for ``m > n``
    and full rank) for every driver but ``gelsy``; the others are empty. With MKL the named
    LAPACK driver runs as in torch; without it (or where ``A``'s batch is broadcast) the
    solution comes from NumPy's SVD-based solver whatever the driver (the same answer to
    rounding for full-rank systems).
    """
    _check_matrix(input, "linalg.lstsq", square=False)
    if input.dtype is not b.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same "
                           f"dtype, but got input's dtype {_scalar_name(input.dtype)} and other's "
                           f"dtype {_scalar_name(b.dtype)}")
    if driver is not None and driver not in _LSTSQ_DRIVERS:
        raise RuntimeError(f"torch.linalg.lstsq: parameter `driver` should be one of "
                           f"({', '.join(_LSTSQ_DRIVERS)})")
    vec = _is_vector_rhs(input, b)
    rows = b.shape[-1] if vec else b.shape[-2]
    if rows != input.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    driver = driver or "gelsy"
    a = input._data
    same_batch = tuple(input.shape[:-2]) == tuple(b.shape[:-1] if vec else b.shape[:-2])
    lapack = {} if same_batch else None
    solution = run(_lstsq, (input, b, rcond, driver, lapack))
    if lapack:
        return _lstsq_outputs(input, solution, driver, *lapack["out"])
    batch = a.shape[:-2]
    empty = Tensor._wrap(xp.empty((0,), a.dtype))
    if driver == "gels":
        rank = Tensor._wrap(xp.empty((0,), xp.int64))
    else:
        ranks = xp.linalg.matrix_rank(a) if a.size else xp.zeros(batch, xp.int64)
        rank = Tensor._wrap(xp.asarray(ranks, dtype=xp.int64))
    residuals = singular = empty
    if driver in ("gelsd", "gelss"):
        singular = Tensor._wrap(xp.linalg.svd(a, compute_uv=False).astype(a.dtype))
    m, n = a.shape[-2:]
    full_rank = bool((xp.linalg.matrix_rank(a) == n).all()) if a.size else False
    if driver != "gelsy" and m > n and full_rank:
        r = input @ (solution.unsqueeze(-1) if vec else solution) - (b.unsqueeze(-1) if vec else b)
        residuals = r.pow(2).sum(-2)
    return linalg_lstsq(solution, residuals, rank, singular)


def _lstsq_outputs(A, solution, driver, x, rank, s, info):
    """``linalg_lstsq_out_info``'s results from the driver's output: residuals (for
    ``m > n``, drivers other than gelsy, and full rank with gelsd/gelss) are the squared
    magnitudes of the rows below ``n`` summed."""
    m, n = A.shape[-2:]
    real = A._data.real.dtype
    residuals = _wrap(xp.empty((0,), real))
    full = rank is None or (rank == n).all()
    if m > n and driver != "gelsy" and full:
        raw = x[..., n:, :]      # in place, in LAPACK's layout, as ATen
        if raw.dtype.kind == "c":
            raw *= raw.conj()
            raw = _wrap(raw.real)
        else:
            raw = _wrap(raw).pow(2)
        residuals = raw.sum(-2)
    rank_t = _wrap(rank if rank is not None else xp.empty((0,), xp.int64))
    sv = _wrap(s if s is not None else xp.empty((0,), real))
    return linalg_lstsq(solution, residuals, rank_t, sv)


@expose
def pinverse(input, rcond=1e-15):
    """``torch.pinverse``: :func:`ember.linalg.pinv` with ``rtol=rcond``."""
    return pinv(input, rtol=rcond)


def _vector_norm(A, ord, dim, keepdim, dtype):
    from .reduction import vector_norm
    return vector_norm(A, ord, dim, keepdim, dtype=dtype)


def matrix_norm(input, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """The Frobenius (``'fro'``), nuclear (``'nuc'``), spectral (``2``, ``-2``) or max-column/
    row-sum (``1``, ``-1``, ``inf``, ``-inf``) norm over the two dims ``dim``."""
    _check_matrix(input, "linalg.matrix_norm", square=False,
                  floating=input.dtype is not D.float16 or ord in ("nuc", 2, -2))
    if not input.dtype.is_floating_point:
        _check_matrix(input, "linalg.matrix_norm", square=False)
    if dtype is not None:
        input = input.to(dtype)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(str(d) for d in dim)}")
    d0, d1 = norm_dim(dim[0], input.ndim), norm_dim(dim[1], input.ndim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, "
                           f"{dim[1]})")
    inf = float("inf")
    if ord == "fro":
        res = _vector_norm(input, 2, (d0, d1), keepdim, None)
    elif ord == "nuc" or ord in (2, -2):
        perm = [i for i in range(input.ndim) if i not in (d0, d1)] + [d0, d1]
        S = svdvals(input.permute(perm))
        if ord == "nuc":
            res = S.sum(-1, keepdim=keepdim)
        else:
            from .search import amax, amin
            res = (amax if ord == 2 else amin)(S, -1, keepdim=keepdim)
        if keepdim:     # torch: unsqueeze, then undo the permutation
            inv = [0] * input.ndim
            for k, p in enumerate(perm):
                inv[p] = k
            res = res.unsqueeze(-1).permute(inv)
    elif ord in (1, -1, inf, -inf):
        from .search import amax, amin
        sum_dim, red_dim = (d0, d1) if ord in (1, -1) else (d1, d0)
        if not keepdim and sum_dim < red_dim:
            red_dim -= 1
        res = (amax if ord > 0 else amin)(input.abs().sum(sum_dim, keepdim=keepdim), red_dim,
                                          keepdim=keepdim)
    else:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    return _out(res, out)


def norm(input, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """A vector norm (``ord`` a number, ``dim`` an int or None) or a matrix norm (``ord`` a
    string, or ``dim`` a 2-tuple, or a 2-d input with ``ord`` given)."""
    dims = (dim,) if isinstance(dim, int) else dim
    if dims is not None:
        if len(dims) not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {list(dims)}")
    elif ord is not None and input.ndim not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {input.ndim}D.")
    if isinstance(ord, str):      # ATen: a string ord is always a matrix norm
        return matrix_norm(input, ord, (0, 1) if dims is None else dims, keepdim, dtype=dtype,
                           out=out)
    if ord is not None and (dims is None and input.ndim == 2 or dims is not None
                            and len(dims) == 2):
        return matrix_norm(input, ord, (-2, -1) if dims is None else dims, keepdim,
                           dtype=dtype, out=out)
    return _out(_vector_norm(input, 2 if ord is None else ord, dims, keepdim, dtype), out)
