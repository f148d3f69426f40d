"""Sparse CSR matrices: ``Tensor.to_sparse_csr``, ``sparse_csr_tensor`` and what torch runs on
them that Ember has: conversion to and from strided and COO tensors, printing, and the product
with a dense matrix.

A CSR tensor (:class:`SparseCsrTensor`, ``layout == torch.sparse_csr``) holds int64
``crow_indices`` (``rows + 1``), ``col_indices`` (``nnz``) and a values tensor (``nnz``), as
torch's ``SparseCsrTensorImpl`` does for a 2-d matrix without batch or dense dims; its
``_data`` raises torch's ``SparseCsrCPU`` dispatcher error for any array work.
"""

from __future__ import annotations

import ctypes
import warnings

import numpy as np

from .. import _errors
from .._layout import sparse_csr
from .._ops import _vml
from .._tensor import Tensor, _disabled_torch_function_impl
from ..autograd import grad_mode
from ._sparse import (
    _I64,
    SparseUnsupported,
    _axpy_rows,
    _make,
    _NoStorage,
    _record,
    _wrap,
    coalesce,
    no_kernel,
    warn_unchecked_invariants,
)

__all__ = ["SparseCsrTensor", "sparse_csr_tensor"]

_BETA = ("Sparse CSR tensor support is in beta state. If you miss a functionality in the "
         "sparse tensor support, please submit a feature request to "
         "https://github.com/pytorch/pytorch/issues. (Triggered internally at "
         "/__w/pytorch/pytorch/aten/src/ATen/SparseCsrTensorImpl.cpp:49.)")
_WARNED = [False]


class SparseCsrUnsupported(SparseUnsupported):
    """An op reached a CSR tensor's missing array (torch: no SparseCsrCPU kernel)."""

    def __init__(self, name: str):
        NotImplementedError.__init__(self, no_kernel(name, "SparseCsrCPU"))

    @staticmethod
    def renamed(name: str) -> NotImplementedError:
        return NotImplementedError(no_kernel(name, "SparseCsrCPU"))

    @staticmethod
    def sparse_form(name: str, args, out=None):
        return None


class _NoCsrStorage(_NoStorage):
    __slots__ = ()
    _error = SparseCsrUnsupported


class SparseCsrTensor(Tensor):
    """A sparse CSR matrix (``layout == torch.sparse_csr``), as ``Tensor.to_sparse_csr()``
    and ``torch.sparse_csr_tensor`` make it.

    >>> import ember
    >>> ember.tensor([[0., 3.], [4., 0.]]).to_sparse_csr().crow_indices()
    tensor([0, 1, 2])
    """

    __torch_function__ = _disabled_torch_function_impl

    __slots__ = ("_crow", "_col", "_csr_values")

    is_sparse = False
    is_sparse_csr = True

    @property
    def layout(self):
        return sparse_csr

    def crow_indices(self) -> Tensor:
        """Where each row's entries start in ``col_indices`` / ``values`` (and the end)."""
        return _wrap(self._crow)

    def col_indices(self) -> Tensor:
        """The column of each stored entry, row by row."""
        return _wrap(self._col)

    def values(self) -> Tensor:
        """The stored entries, row by row (``ValuesBackward0`` where it requires grad)."""
        if not (grad_mode._state.enabled and self.requires_grad):
            return self._csr_values
        return _record(_wrap(self._csr_values._data), "ValuesBackward0", (self,), lambda g: (
            _make_csr(self._crow, self._col, _wrap(np.ascontiguousarray(g._data)),
                      self.shape),))

    def _nnz(self) -> int:
        return self._col.shape[0]

    def sparse_dim(self) -> int:
        return 2

    def dense_dim(self) -> int:
        return 0

    def _rows(self) -> np.ndarray:
        return np.repeat(np.arange(self.shape[0], dtype=_I64), np.diff(self._crow))

    def to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
        """The strided matrix with these entries (``ToDenseBackward0``: the gradient at
        this pattern)."""
        vals = self._csr_values._data
        out = np.zeros(tuple(self.shape), vals.dtype)
        rows = self._rows()
        out[rows, self._col] = vals
        res = _record(_wrap(out), "ToDenseBackward0", (self,), lambda g: (_make_csr(
            self._crow, self._col, _wrap(np.ascontiguousarray(g._data[rows, self._col])),
            self.shape),))
        return res if dtype is None or dtype is res.dtype else res.to(dtype)

    def to_sparse(self, *args, layout=None, **kwargs):
        """The COO tensor of these entries (coalesced), or ``self`` for ``layout=sparse_csr``."""
        if layout is sparse_csr:
            return self
        return _make(np.stack([self._rows(), self._col]), self._csr_values.detach(),
                     self.shape, True)

    def to_sparse_coo(self, sparse_dim=None):
        return self.to_sparse()

    def to_sparse_csr(self, dense_dim=None) -> SparseCsrTensor:
        return self

    def detach(self) -> SparseCsrTensor:
        return _make_csr(self._crow, self._col, self._csr_values.detach(), self.shape)

    def clone(self, *, memory_format=None) -> SparseCsrTensor:
        return _make_csr(self._crow.copy(), self._col.copy(),
                         _wrap(np.array(self._csr_values._data)), self.shape)

    def __matmul__(self, other):
        return csr_mm(self, other)

    mm = matmul = __matmul__

    def __repr__(self, *, tensor_contents=None) -> str:
        from .. import _dtype as D
        from .._printing import format_compressed
        gf = self.grad_fn
        return format_compressed(self._crow, self._col, self._csr_values._data,
                                 self.dtype.name, self.shape,
                                 default_dtype_name=D.get_default_dtype().name,
                                 grad_fn_name=type(gf).__name__ if gf is not None else None,
                                 requires_grad=self.requires_grad)

    __str__ = __repr__

    def numpy(self, *, force: bool = False):
        raise TypeError("can't convert SparseCsr layout tensor to numpy. Use Tensor.to_dense() "
                        "first.")

    def view(self, *shape):
        raise NotImplementedError(no_kernel("view", "SparseCsrCPU"))


SparseCsrTensor.__module__ = Tensor.__module__
SparseCsrTensor.__name__ = SparseCsrTensor.__qualname__ = "Tensor"


def _make_csr(crow: np.ndarray, col: np.ndarray, values: Tensor, size) -> SparseCsrTensor:
    if not _WARNED[0]:
        _WARNED[0] = True
        warnings.warn(_BETA, UserWarning, stacklevel=_errors.user_stacklevel())
    t = SparseCsrTensor._wrap(_NoCsrStorage(tuple(size), values._data.dtype))
    t._crow = crow
    t._col = col
    t._csr_values = values
    return t


def _from_rows_cols(rows: np.ndarray, cols: np.ndarray, values: Tensor, size):
    """The CSR tensor of entries sorted by row (and column within a row)."""
    crow = np.zeros(size[0] + 1, _I64)
    np.cumsum(np.bincount(rows, minlength=size[0]), out=crow[1:])
    return _make_csr(crow, np.ascontiguousarray(cols, _I64), values, size)


def _only_matrices(ndim: int) -> None:
    if ndim != 2:
        raise NotImplementedError("Ember's CSR tensors are 2-d matrices (no batch or dense "
                                  f"dims); got {ndim} dims")


def dense_to_csr(x: Tensor, dense_dim=None) -> SparseCsrTensor:
    """``Tensor.to_sparse_csr()`` of a strided matrix: its nonzero entries row by row
    (``ToSparseCsrBackward0`` where it requires grad)."""
    if dense_dim:
        raise NotImplementedError("to_sparse_csr: dense dims are not in Ember")
    _only_matrices(x.ndim)
    rows, cols = np.nonzero(x._data)
    out = _from_rows_cols(rows, cols, _wrap(np.ascontiguousarray(x._data[rows, cols])),
                          x.shape)
    return _record(out, "ToSparseCsrBackward0", (x,),
                   lambda g: (g.to_dense() if g.layout is not x.layout else g,))


def coo_to_csr(s, dense_dim=None) -> SparseCsrTensor:
    """``to_sparse_csr()`` of a COO matrix: its coalesced entries."""
    _only_matrices(s.ndim)
    if s.dense_dim():
        raise NotImplementedError("to_sparse_csr: dense dims are not in Ember")
    c = coalesce(s.detach())
    rows, cols = c._sp_indices
    return _from_rows_cols(rows, cols, c._sp_values, s.shape)


def sparse_csr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None,
                      device=None, pin_memory=False, requires_grad=False,
                      check_invariants=None) -> SparseCsrTensor:
    """A CSR matrix from its compressed row indices, column indices and values; ``size``
    defaults to ``(len(crow_indices) - 1, max(col_indices) + 1)``.

    >>> import ember
    >>> ember.sparse_csr_tensor([0, 1, 2], [1, 0], [3., 4.]).to_dense()
    tensor([[0., 3.],
            [4., 0.]])
    """
    from .._factories import tensor as _tensor
    warn_unchecked_invariants(check_invariants)

    def arr(x):
        return np.array(x._data if isinstance(x, Tensor) else x, _I64).reshape(-1)
    crow, col = arr(crow_indices), arr(col_indices)
    if not isinstance(values, Tensor):
        values = _tensor(values, dtype=dtype)
    elif dtype is not None and dtype is not values.dtype:
        values = values.to(dtype)
    if size is None:
        size = (crow.size - 1, int(col.max()) + 1 if col.size else 0)
    _only_matrices(len(size))
    out = _make_csr(crow, col, values.detach(), tuple(int(n) for n in size))
    if requires_grad:
        out.requires_grad_(True)
    return out


class _MatrixDescr(ctypes.Structure):
    """MKL's ``struct matrix_descr`` (type, fill mode, diagonal)."""
    _fields_ = [("type", ctypes.c_int), ("mode", ctypes.c_int), ("diag", ctypes.c_int)]


# mkl_spblas.h: SPARSE_INDEX_BASE_ZERO, SPARSE_OPERATION_NON_TRANSPOSE, SPARSE_LAYOUT_ROW_MAJOR,
# a SPARSE_MATRIX_TYPE_GENERAL descriptor (fill mode and diagonal unused)
_BASE_ZERO, _NON_TRANSPOSE, _ROW_MAJOR = 0, 10, 101
_GENERAL = _MatrixDescr(20, 40, 50)
_MKL_TYPES = {np.dtype(np.float32): ("s", ctypes.c_float),
              np.dtype(np.float64): ("d", ctypes.c_double)}
_INT32_MAX = 2 ** 31 - 1


def _mkl_csr_mm(a: SparseCsrTensor, b: np.ndarray) -> np.ndarray | None:
    """``a @ b`` by MKL's ``mkl_sparse_?_mm``, the call torch's MKL build makes
    (``sparse::impl::mkl::addmm_dense_result``: a CSR descriptor over 32-bit indices, row-major
    dense operands, alpha 1, beta 0 on a zeroed result); None where MKL is not installed, the
    dtype is not float32/float64 or a size does not fit MKL's 32-bit integers."""
    kind = _MKL_TYPES.get(b.dtype)
    if kind is None or max(a.shape[0], a.shape[1], b.shape[1], a._col.size) > _INT32_MAX:
        return None
    prefix, scalar = kind
    p, i = ctypes.c_void_p, ctypes.c_int
    create = _vml.bind(f"mkl_sparse_{prefix}_create_csr",
                       (ctypes.POINTER(p), i, i, i, p, p, p, p), i)
    if create is None:
        return None
    mm = _vml.bind(f"mkl_sparse_{prefix}_mm", (i, scalar, p, _MatrixDescr, i, p, i, i, scalar,
                                               p, i), i)
    destroy = _vml.bind("mkl_sparse_destroy", (p,), i)
    crow = a._crow.astype(np.int32)
    col = a._col.astype(np.int32)
    vals = np.ascontiguousarray(a._csr_values._data)
    b = np.ascontiguousarray(b)
    n = b.shape[1]
    out = np.zeros((a.shape[0], n), b.dtype)
    handle = p()
    status = create(ctypes.byref(handle), _BASE_ZERO, a.shape[0], a.shape[1],
                    crow.ctypes.data, crow[1:].ctypes.data, col.ctypes.data, vals.ctypes.data)
    if status:
        return None
    try:
        status = mm(_NON_TRANSPOSE, 1.0, handle, _GENERAL, _ROW_MAJOR, b.ctypes.data, n,
                    max(n, 1), 0.0, out.ctypes.data, max(n, 1))
    finally:
        destroy(handle)
    return None if status else out


def csr_mm(a: SparseCsrTensor, b: Tensor) -> Tensor:
    """A CSR matrix times a dense one as torch computes it: by MKL's ``mkl_sparse_?_mm`` where
    MKL is installed (torch's Linux build makes that call; its kernel depends on the CPU: on an
    AVX-512 Xeon each row's ``val * b[col]`` fused into one chain in stored order, on a Zen 4
    each product rounded, then added), else as ``addmm_out_sparse_csr_native_cpu`` (each
    row's products rounded and added in stored order)."""
    if not isinstance(b, Tensor) or b.is_sparse or b.is_sparse_csr or b.ndim != 2:
        raise NotImplementedError("Ember multiplies a CSR matrix by a dense matrix only")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                           f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected mat1 and mat2 to have the same dtype, but got: "
                           f"{a.dtype.cpp_name} != {b.dtype.cpp_name}")
    if grad_mode._state.enabled and (a.requires_grad or b.requires_grad):
        raise NotImplementedError("Ember's CSR matrix product has no autograd")
    dense = np.asarray(b._data)
    out = _mkl_csr_mm(a, dense) if a._col.size and dense.size else None
    if out is None:
        out = np.zeros((a.shape[0], b.shape[1]), b._data.dtype)
        _axpy_rows(out, a._rows(), a._col, a._csr_values._data, dense, fused=False)
    return _wrap(out)
