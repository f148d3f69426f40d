"""Sparse COO tensors: ``sparse_coo_tensor``, ``Tensor.to_sparse`` and what torch runs on them.

A sparse tensor is a :class:`SparseTensor` (a ``Tensor`` whose ``layout`` is
``torch.sparse_coo``) holding an ``int64`` index array of shape ``(sparse_dim, nnz)``, a
dense values tensor of shape ``(nnz, *dense_sizes)`` and a coalesced flag, as torch's
``SparseTensorImpl`` does. Its ``_data`` is a :class:`_NoStorage`, which knows the shape and
dtype (so ``shape``, ``dtype``, ``dim()``, ``numel()`` are the inherited ones) and raises
torch's dispatcher error for any array work: a strided op given a sparse tensor fails as
torch's does (``NotImplementedError: Could not run 'aten::exp' with arguments from the
'SparseCPU' backend``) without a check on the dense path.

The kernels follow ATen's CPU ones in order of operations, so that float results are torch's
bits: ``coalesce`` sums duplicates in the order of torch's (unstable) sort of the flattened
indices; ``to_dense`` adds the values in stored order; a sparse × dense product adds
``value * dense_row`` into its output row with a fused multiply-add per stored entry, in
stored order (``s_addmm_out_sparse_dense_worker``, whose ``axpy`` is MKL's); ``add`` merges
the two index lists as ``add_out_sparse_contiguous`` does.
"""

from __future__ import annotations

import functools
import sys as _sys
import warnings

import numpy as np

from .. import _dtype as D
from .. import _ops
from .._layout import sparse_coo, sparse_csr
from .._tensor import Tensor, _disabled_torch_function_impl
from ..autograd import grad_mode
from ..autograd.graph import Node, _SavedByName

__all__ = ["SparseTensor", "sparse_coo_tensor", "mm", "addmm", "sum", "softmax",
           "log_softmax"]

_state = grad_mode._state
_I64 = np.int64
_builtin_sum = sum


def no_kernel(name: str, backend: str = "SparseCPU") -> str:
    """torch's dispatcher error for an op without a kernel for ``backend``."""
    return (f"Could not run 'aten::{name}' with arguments from the '{backend}' backend. This "
            "could be because the operator doesn't exist for this backend, or was omitted "
            "during the selective/custom build process (if using custom build). If you are a "
            "Facebook employee using PyTorch on mobile, please visit "
            "https://fburl.com/ptmfixes for possible resolutions.")


class SparseUnsupported(NotImplementedError, ValueError):
    """An op reached a sparse tensor's missing array (torch: no SparseCPU kernel). A
    ``ValueError`` too, so that the op runner, which turns kernel errors into torch's, puts
    the op's own name in the message (:meth:`renamed`)."""

    def __init__(self, name: str):
        super().__init__(no_kernel(name))

    @staticmethod
    def renamed(name: str) -> NotImplementedError:
        return NotImplementedError(no_kernel(name))

    @staticmethod
    def sparse_form(name: str, args, out=None):
        """The result of op ``name`` (the op runner's name, its kernel's arguments) computed
        in sparse form where Ember has it (``torch.add(s, t)``, ``torch.sum(s)``, in place
        ``dense.add_(s)`` where ``out`` is ``args[0]``), else None."""
        if out is None:
            fn = _SPARSE_FORMS.get(name)
        else:
            fn = _IN_PLACE_FORMS.get(name) if out is args[0] else None
        return None if fn is None else fn(*args)


class _NoStorage:
    """A sparse tensor's ``_data``: its shape and dtype, and no elements (any array work
    raises ``_error``, the dispatcher error of the tensor's backend)."""

    __slots__ = ("shape", "dtype", "ndim", "size", "itemsize")
    _error = SparseUnsupported

    def __init__(self, shape: tuple, dtype: np.dtype):
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)
        n = 1
        for s in shape:
            n *= s
        self.size = n
        self.itemsize = dtype.itemsize

    def __getattr__(self, name):
        raise self._error(name.strip("_"))

    def __array__(self, *args, **kwargs):
        raise self._error("_to_copy")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        raise self._error(ufunc.__name__)

    def __array_function__(self, func, types, args, kwargs):
        raise self._error(func.__name__)

    def __getitem__(self, key):
        raise self._error("index")

    def __setitem__(self, key, value):
        raise self._error("index_put_")


def _unsupported(name):
    def method(self, *args, **kwargs):
        raise self._error(name)
    return method


for _op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
            "xor", "lshift", "rshift", "lt", "le", "gt", "ge"):
    for _form in (f"__{_op}__", f"__r{_op}__", f"__i{_op}__"):
        setattr(_NoStorage, _form, _unsupported(_op))
_NoStorage.__neg__ = _NoStorage.__abs__ = _NoStorage.__invert__ = _unsupported("neg")
_NoStorage.__len__ = _unsupported("size")
_NoStorage.__iter__ = _unsupported("unbind")


# ----------------------------------------------------------------------------- autograd

class _SparseNode(_SavedByName, Node):
    """The node of a sparse op: ``_backward`` maps the output's gradient to the inputs'."""

    __slots__ = ("_backward",)

    def apply(self, grads):
        self._check_released()
        return list(self._backward(grads[0]))


_SOLE_REFS = 2          # references to an array held by one tensor, getrefcount's included
_NODES: dict = {}
_KEPT = {"": None}


def _node_class(name: str) -> type:
    cls = _NODES.get(name)
    if cls is None:
        cls = _NODES[name] = type(name, (_SparseNode,), {"__slots__": (), "_name": name})
    return cls


def _record(out, name: str, inputs, backward):
    """Give ``out`` a node of torch's name when an input requires grad (grad mode on).
    ``backward(grad)`` returns one gradient (or None) per input."""
    if not _state.enabled or not any(isinstance(a, Tensor) and a.requires_grad
                                     for a in inputs):
        return out
    node = _node_class(name)()
    node.next_functions = tuple(a._edge() if isinstance(a, Tensor) else (None, 0)
                                for a in inputs)
    node._backward = backward
    node._saved = _KEPT      # (freed by a backward that does not retain the graph, as torch's)
    out.grad_fn = node
    return out


def _accumulate(acc, grad, create_graph: bool) -> None:
    """AccumulateGrad where a sparse tensor is involved (the variable, its ``.grad`` or the
    incoming gradient), as torch's ``accumulateGrad``. The first gradient: a sparse one whose
    indices nothing else holds, its values contiguous, is taken by rebuilding it with the
    unchecked factory (flagged uncoalesced where nnz > 1); any other is cloned, flag and all.
    Later ones: ``grad + old`` where ``old`` is sparse and ``grad`` dense; else, outside grad
    mode, ``old += grad`` in place (``old`` stays the same tensor), and ``old + grad`` inside
    it."""
    var = acc.variable
    old = var._grad
    if old is None:
        if not grad.is_sparse:
            var._grad = grad.detach().clone()
        elif not create_graph and grad._sp_values._data.flags.c_contiguous \
                and _sys.getrefcount(grad._sp_indices) <= _SOLE_REFS:
            var._grad = _make(grad._sp_indices, grad._sp_values, grad.shape, grad._nnz() < 2)
        else:
            var._grad = grad.clone()
    elif old.is_sparse and not grad.is_sparse:
        var._grad = grad + old
    elif create_graph or _state.enabled:
        var._grad = old + grad
    elif old.is_sparse:
        old._assign(add(old, grad))
    else:
        old.add_(grad)
    post = var.__dict__.get("_post_accumulate_grad_hooks")
    if post:
        for hook in list(post.values()):
            hook(var)


# ----------------------------------------------------------------------------- the tensor

def _wrap(arr: np.ndarray) -> Tensor:
    return Tensor._wrap(arr)


class SparseTensor(Tensor):
    """A sparse COO tensor (``layout == torch.sparse_coo``), as ``torch.sparse_coo_tensor``
    and ``Tensor.to_sparse()`` make it.

    >>> import ember
    >>> s = ember.sparse_coo_tensor([[0, 1], [2, 0]], [3., 4.], (2, 3),
    ...                             check_invariants=False)
    >>> s.to_dense()
    tensor([[0., 0., 3.],
            [4., 0., 0.]])
    """

    __torch_function__ = _disabled_torch_function_impl

    __slots__ = ("_sp_indices", "_sp_values", "_sp_coalesced")

    is_sparse = True

    @property
    def layout(self):
        return sparse_coo

    # ----- structure
    def sparse_dim(self) -> int:
        """The number of sparse dimensions (the rows of ``indices()``)."""
        return self._sp_indices.shape[0]

    def dense_dim(self) -> int:
        """The number of dense dimensions (those of each value)."""
        return self._sp_values._data.ndim - 1

    def _nnz(self) -> int:
        return self._sp_indices.shape[1]

    def is_coalesced(self) -> bool:
        """Whether the indices are sorted and unique (as ``coalesce()`` leaves them)."""
        return self._sp_coalesced

    def _indices(self) -> Tensor:
        return _wrap(self._sp_indices)

    def _values(self) -> Tensor:
        return self._sp_values

    def indices(self) -> Tensor:
        """The ``(sparse_dim, nnz)`` indices of a coalesced tensor."""
        if not self._sp_coalesced:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call "
                               ".coalesce() first")
        return _wrap(self._sp_indices)

    def values(self) -> Tensor:
        """The values of a coalesced tensor (``ValuesBackward0`` where it requires grad)."""
        if not self._sp_coalesced:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call "
                               ".coalesce() first")
        if not (_state.enabled and self.requires_grad):
            return self._sp_values
        return _record(_wrap(self._sp_values._data), "ValuesBackward0", (self,), lambda g: (
            _make(self._sp_indices, _wrap(np.ascontiguousarray(g._data)), self.shape,
                  True),))

    def coalesce(self) -> SparseTensor:
        """Sorted, unique indices, the values of duplicates summed (self if coalesced)."""
        return coalesce(self)

    def to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
        """The strided tensor with these entries (duplicates summed in stored order)."""
        return to_dense(self, dtype)

    def to_sparse(self, *args, **kwargs) -> SparseTensor:
        sparse_dim = args[0] if args else kwargs.get("sparse_dim")
        if sparse_dim is not None and sparse_dim != self.sparse_dim():
            raise RuntimeError("to_sparse: conversion from Sparse to Sparse with "
                               "sparse_dim argument !=self.sparse_dim() is not supported")
        return self

    def to_sparse_coo(self, sparse_dim=None) -> SparseTensor:
        return self.to_sparse(sparse_dim)

    # ----- copies and conversions
    def detach(self) -> SparseTensor:
        return _make(self._sp_indices, self._sp_values.detach(), self.shape,
                     self._sp_coalesced)

    def clone(self, *, memory_format=None) -> SparseTensor:
        return _make(self._sp_indices.copy(), _wrap(np.array(self._sp_values._data)),
                     self.shape, self._sp_coalesced)

    def to(self, *args, **kwargs) -> SparseTensor:
        from .._factories import parse_to
        kwargs.pop("memory_format", None)
        dtype, copy = parse_to(args, kwargs)
        if dtype is None or dtype is self.dtype:
            return self.clone() if copy else self
        return _make(self._sp_indices, self._sp_values.detach().to(dtype), self.shape,
                     self._sp_coalesced)

    def float(self, memory_format=None):
        return self.to(D.float32)

    def double(self, memory_format=None):
        return self.to(D.float64)

    def half(self, memory_format=None):
        return self.to(D.float16)

    def long(self, memory_format=None):
        return self.to(D.int64)

    def int(self, memory_format=None):
        return self.to(D.int32)

    def _set_grad(self, value) -> None:
        if isinstance(value, Tensor) and not value.is_sparse:
            raise RuntimeError("attempting to assign a gradient to a tensor that has data of a "
                               "different type")
        Tensor.grad.fset(self, value)

    grad = property(Tensor.grad.fget, _set_grad, Tensor.grad.fdel, Tensor.grad.__doc__)

    def _grad_accumulator(self):
        acc = Tensor._grad_accumulator(self)
        if "accumulate" not in acc.__dict__:
            acc.accumulate = functools.partial(_accumulate, acc)
        return acc

    # ----- printing and pickling
    def __repr__(self, *, tensor_contents=None) -> str:
        from .._printing import format_sparse
        gf = self.grad_fn
        return format_sparse(self._sp_indices, self._sp_values._data, self.dtype.name,
                             self.shape, default_dtype_name=D.get_default_dtype().name,
                             grad_fn_name=type(gf).__name__ if gf is not None else None,
                             requires_grad=self.requires_grad)

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return (_rebuild_sparse, (sparse_coo, (self._indices(), self._sp_values.detach(),
                                               tuple(self.shape), self._sp_coalesced)))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        new = self.clone()
        new._requires_grad = self._requires_grad
        memo[id(self)] = new
        return new

    # ----- arithmetic
    def __add__(self, other):
        return add(self, other)

    def add(self, other, *, alpha=1):
        return add(self, other, alpha)

    def __radd__(self, other):
        if isinstance(other, Tensor) and not other.is_sparse:
            return _add_dense_sparse(other, self, 1)
        raise RuntimeError(_SPARSE_DENSE)

    def __sub__(self, other):
        return add(self, other, -1)

    def sub(self, other, *, alpha=1):
        return add(self, other, -alpha)

    def __rsub__(self, other):
        if isinstance(other, Tensor) and not other.is_sparse:
            return _add_dense_sparse(other, self, -1)
        raise RuntimeError(_SPARSE_DENSE)

    def __mul__(self, other):
        return mul(self, other)

    __rmul__ = __mul__

    # ----- in place (outside autograd: an optimizer's state and a leaf's .grad)
    def _assign(self, other: SparseTensor) -> SparseTensor:
        """Take ``other``'s indices, values and flag (torch's in-place sparse kernels write
        the result into ``self``'s impl)."""
        self._sp_indices = other._sp_indices
        self._sp_values = other._sp_values
        self._sp_coalesced = other._sp_coalesced
        self._vc.value += 1
        return self

    def add_(self, other, *, alpha=1) -> SparseTensor:
        """In-place :func:`add` of a sparse tensor."""
        return self._assign(add(self, other, alpha))

    def sub_(self, other, *, alpha=1) -> SparseTensor:
        return self._assign(add(self, other, -alpha))

    def mul_(self, other) -> SparseTensor:
        """The values times a number (or 0-d tensor), in place."""
        return self._assign(_scale(self, other, None, np.multiply))

    def div_(self, other) -> SparseTensor:
        return self._assign(_scale(self, other, None, np.true_divide))

    def zero_(self) -> SparseTensor:
        """No entries left (torch's ``sparse_resize_and_clear_``): coalesced, nnz 0."""
        vals = self._sp_values._data
        return self._assign(_make(np.zeros((self.sparse_dim(), 0), _I64),
                                  _wrap(np.zeros((0,) + vals.shape[1:], vals.dtype)),
                                  self.shape, True))

    def mul(self, other):
        return mul(self, other)

    def __truediv__(self, other):
        return _scale(self, other, "DivBackward0", np.true_divide)

    div = __truediv__

    def __neg__(self):
        return _scale(self, -1, "NegBackward0", np.multiply)

    neg = __neg__

    def t(self) -> SparseTensor:
        """The transpose of a sparse matrix (its index rows swapped; a 1-d tensor as is)."""
        if self.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                               f"{self.ndim}D")
        if self.ndim < 2:
            return self
        return _transpose(self, 0, 1, "TBackward0")

    def transpose(self, dim0: int, dim1: int) -> SparseTensor:
        from .._ops.util import norm_dim
        return _transpose(self, norm_dim(dim0, self.ndim), norm_dim(dim1, self.ndim),
                          "TransposeBackward0")

    def sum(self, dim=None, keepdim=False, dtype=None):
        if keepdim:
            raise SparseUnsupported("sum.dim_IntList")
        return sum(self, dim, dtype=dtype)

    # ----- what torch refuses on a sparse tensor, with its messages
    def view(self, *shape):
        raise NotImplementedError(no_kernel("view"))

    def reshape(self, *shape):
        raise RuntimeError("reshape is not implemented for sparse tensors")

    def contiguous(self, memory_format=None):
        raise RuntimeError("unsupported memory format option Contiguous")

    def is_contiguous(self, memory_format=None) -> bool:
        return False

    def stride(self, dim=None):
        return 0 if dim is not None else (0,) * self.ndim

    def storage_offset(self) -> int:
        return 0

    def data_ptr(self) -> int:
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def tolist(self):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def numpy(self, *, force: bool = False):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() "
                        "first.")

    def item(self):
        n = self.numel()
        if n != 1:
            raise RuntimeError(f"a Tensor with {n} elements cannot be converted to Scalar")
        return self.to_dense().item()

    @property
    def nbytes(self):
        raise RuntimeError(
            "nbytes is not defined for sparse tensors.  If you want the size of the "
            "constituent tensors, add the nbytes of the indices and values.  If you want the "
            "size of the  equivalent dense tensor, multiply numel() by element_size()")


SparseTensor.__module__ = Tensor.__module__
SparseTensor.__name__ = SparseTensor.__qualname__ = "Tensor"     # torch: one Tensor class
_SPARSE_DENSE = "add(sparse, dense) is not supported. Use add(dense, sparse) instead."


def _make(indices: np.ndarray, values: Tensor, size, coalesced: bool) -> SparseTensor:
    """A sparse tensor (no autograd) over ``indices`` (int64, sparse_dim x nnz) and the
    plain tensor ``values``."""
    t = SparseTensor._wrap(_NoStorage(tuple(size), values._data.dtype))
    t._sp_indices = indices
    t._sp_values = values
    t._sp_coalesced = coalesced
    return t


def _rebuild_sparse(layout, data):
    """``torch._utils._rebuild_sparse_tensor``: a COO tensor from its pickled parts."""
    indices, values, size, coalesced = data
    return _make(np.ascontiguousarray(indices._data, _I64), values, size, bool(coalesced))


# ----------------------------------------------------------------------------- helpers

def _keys(indices: np.ndarray, sizes) -> np.ndarray:
    """Row-major flattened indices (torch's ``flatten_indices``)."""
    key = np.zeros(indices.shape[1], _I64)
    for d, n in enumerate(sizes):
        if d:
            key *= n
        key += indices[d]
    return key


def _by_rank(keys: np.ndarray):
    """The entries in waves: each key's first occurrence, then each one's second, ...
    (within a wave the keys are distinct, so a vectorised update per wave keeps every key's
    updates in stored order)."""
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    first = np.ones(sk.size, bool)
    first[1:] = sk[1:] != sk[:-1]
    starts = np.flatnonzero(first)
    rank = np.arange(sk.size) - starts[np.cumsum(first) - 1]
    for k in range(int(rank.max()) + 1 if sk.size else 0):
        yield order[rank == k]


def _values_grad(grad, indices: np.ndarray, size, values_shape) -> Tensor:
    """The gradient of the values stored at ``indices`` from the gradient of the whole
    tensor: its element at each index (dense), or the matching coalesced value (sparse)."""
    if not grad.is_sparse:
        return _wrap(np.ascontiguousarray(grad._data[tuple(indices)]))
    g = coalesce(grad)
    sd = indices.shape[0]
    gk = _keys(g._sp_indices, size[:sd])
    k = _keys(indices, size[:sd])
    pos = np.searchsorted(gk, k)
    found = pos < gk.size
    found[found] = gk[pos[found]] == k[found]
    gv = g._sp_values._data
    out = np.zeros(values_shape, gv.dtype)
    out[found] = gv[pos[found]]
    return _wrap(out)


def _as_dense_grad(grad):
    return grad.to_dense() if grad is not None and grad.is_sparse else grad


# ----------------------------------------------------------------------------- construction

_WARNED = [False]
_INVARIANTS_WARNING = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will "
    "occur when operating on a sparse tensor which violates the invariants, but checks incur "
    "performance overhead. To silence this warning, explicitly opt in or out. See "
    "`torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance.  (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:816.)")


def warn_unchecked_invariants(check_invariants) -> None:
    """torch's once-per-process warning of a sparse factory called without
    ``check_invariants`` (pointed at the user's line)."""
    if check_invariants is None and not _WARNED[0]:
        _WARNED[0] = True
        from .. import _errors
        warnings.warn(_INVARIANTS_WARNING, UserWarning, stacklevel=_errors.user_stacklevel())


def sparse_coo_tensor(indices=None, values=None, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None,
                      is_coalesced=None):
    """A sparse COO tensor with ``values[k]`` at ``indices[:, k]`` (duplicates allowed: they
    add up). ``size`` defaults to the smallest that holds the indices. Given a size alone
    (``sparse_coo_tensor((2, 3))``), an empty one of that size.

    >>> import ember
    >>> ember.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3),
    ...                         check_invariants=False)
    tensor(indices=tensor([[0, 1, 1],
                           [2, 0, 2]]),
           values=tensor([3., 4., 5.]),
           size=(2, 3), nnz=3, layout=torch.sparse_coo)
    """
    from .._factories import tensor as _tensor
    warn_unchecked_invariants(check_invariants)
    if values is None:                   # torch's size-only overload
        if (indices is None) == (size is None):
            raise TypeError("sparse_coo_tensor() received an invalid combination of arguments")
        from .._ops.util import as_size
        size = as_size(size if indices is None else indices)
        indices = np.zeros((len(size), 0), _I64)
        values = _tensor([], dtype=dtype)
    if not isinstance(values, Tensor):
        values = _tensor(values, dtype=dtype)
    elif dtype is not None and dtype is not values.dtype:
        values = values.to(dtype)
    idx = indices._data if isinstance(indices, Tensor) else np.asarray(indices)
    if idx.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(idx.shape)}")
    idx = np.array(idx, _I64)
    sd, nnz = idx.shape
    vshape = values._data.shape
    if not vshape:
        raise RuntimeError("values must have at least one dimension (nnz), got 0-d values")
    if vshape[0] != nnz:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: "
                           f"{nnz}, nnz from values: {vshape[0]}")
    dd = len(vshape) - 1
    if size is None:
        size = tuple(int(r.max()) + 1 if nnz else 0 for r in idx) + tuple(vshape[1:])
    else:
        from .._ops.util import as_size
        size = as_size(size)
        if len(size) != sd + dd:
            raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: "
                               f"len(size) = {len(size)}, sparse_dim = {sd}, dense_dim = {dd}")
    coalesced = nnz < 2 if is_coalesced is None else bool(is_coalesced)
    out = _make(idx, values.detach(), size, coalesced)
    if requires_grad:
        out.requires_grad_(True)
        return out
    return _record(out, "SparseCooTensorWithDimsAndTensorsBackward0", (values,),
                   lambda g: (_values_grad(g, idx, size, vshape),))


def _sparse_coo_tensor_unsafe(indices, values, size=None, *, dtype=None, device=None,
                              pin_memory=False, is_coalesced=None):
    """``sparse_coo_tensor`` without checks (torch's private factory)."""
    return sparse_coo_tensor(indices, values, size, dtype=dtype, check_invariants=False,
                             is_coalesced=is_coalesced)


def coalesce(s: SparseTensor) -> SparseTensor:
    """torch's CPU coalesce: flattened indices sorted by torch's sort (its order of equal
    keys), each run of duplicates summed in that order."""
    if s._sp_coalesced:
        return s
    from .._ops.sorting import _sort_indices
    idx = s._sp_indices
    sd = idx.shape[0]
    key = _keys(idx, s.shape[:sd])
    perm = _sort_indices(_wrap(key), 0, False, False)
    sk = key[perm]
    vals = s._sp_values._data[perm]
    n = sk.size
    first = np.ones(n, bool)
    first[1:] = sk[1:] != sk[:-1]
    starts = np.flatnonzero(first)
    group = np.cumsum(first) - 1
    rank = np.arange(n) - starts[group]
    out = vals[first].copy()
    for k in range(1, int(rank.max()) + 1 if n else 0):
        sel = rank == k
        out[group[sel]] += vals[sel]
    res = _make(np.ascontiguousarray(idx[:, perm[first]]), _wrap(out), s.shape, True)
    return _record(res, "CoalesceBackward0", (s,), lambda g: (g,))


def to_dense(s: SparseTensor, dtype=None) -> Tensor:
    """The strided tensor of ``s``: zeros, then each stored value added at its index, in
    stored order."""
    idx = s._sp_indices
    sd = idx.shape[0]
    vals = s._sp_values._data
    size = tuple(s.shape)
    out = np.zeros(size, vals.dtype)
    if idx.shape[1]:
        flat = out.reshape((-1,) + size[sd:])
        np.add.at(flat, _keys(idx, size[:sd]), vals)
    res = _wrap(out)
    res = _record(res, "ToDenseBackward0", (s,), lambda g: (_sparse_mask(g, coalesce(s)),))
    return res if dtype is None or dtype is res.dtype else res.to(dtype)


def dense_to_sparse(x: Tensor, sparse_dim=None, *, layout=None, blocksize=None,
                    dense_dim=None) -> SparseTensor:
    """``Tensor.to_sparse()``: the nonzero entries (rows of the leading ``sparse_dim`` dims
    with a nonzero element) in row-major order, coalesced."""
    if layout is sparse_csr:
        from ._csr import dense_to_csr
        return dense_to_csr(x, dense_dim)
    if layout is not None and layout is not sparse_coo:
        raise NotImplementedError(f"to_sparse: layout {layout} is not supported by Ember "
                                  "(sparse COO and CSR tensors only)")
    a = x._data
    nd = a.ndim
    sd = nd if sparse_dim is None else int(sparse_dim)
    if not 0 <= sd <= nd:
        raise RuntimeError(f"dense_to_sparse: sparse_dim argument must be in [0,{nd}] range, "
                           f"but {sd} is given")
    nz = a != 0
    if sd < nd:
        nz = nz.any(axis=tuple(range(sd, nd)))
    idx = np.array(np.nonzero(nz), _I64).reshape(sd, -1)
    vals = np.ascontiguousarray(a[tuple(idx)]) if sd else a[None].copy()
    if not sd:
        idx = np.zeros((0, 1), _I64)
    out = _make(idx, _wrap(vals), x.shape, True)
    name = "ToSparseBackward1" if sparse_dim is None else "ToSparseBackward0"
    return _record(out, name, (x,), lambda g: (_as_dense_grad(g),))


def _sparse_mask(dense: Tensor, mask: SparseTensor) -> SparseTensor:
    """``dense`` at ``mask``'s indices, as a sparse tensor with ``mask``'s pattern (indices
    of its own)."""
    idx = mask._sp_indices
    vals = np.ascontiguousarray(dense._data[tuple(idx)])
    out = _make(idx.copy(), _wrap(vals), mask.shape, mask._sp_coalesced)
    return _record(out, "SparseMaskBackward0", (dense,), lambda g: (_as_dense_grad(g),))


# ----------------------------------------------------------------------------- products

def _check_mm(s: SparseTensor, d: Tensor) -> None:
    if s.sparse_dim() != 2:
        raise RuntimeError(f"addmm: matrices expected, got {s.sparse_dim()}D tensor")
    if s.dense_dim() != 0:
        raise RuntimeError(f"addmm: scalar values expected, got {s.dense_dim()}D values")
    if d.ndim != 2:
        d.size(-2)      # (torch's IndexError for a 1-d operand)
        raise RuntimeError(f"addmm: matrices expected, got {d.ndim}D tensor")
    if d.dtype is not s.dtype:
        raise RuntimeError(f"expected scalar type {s.dtype.scalar_name} but found "
                           f"{d.dtype.scalar_name}")
    if d.shape[0] != s.shape[1]:
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {s.shape[1]}, "
                           f"got {d.shape[0]}")


def _axpy_rows(r: np.ndarray, rows, cols, vals, dense: np.ndarray, fused: bool = True) -> None:
    """``r[row] += val * dense[col]`` for each stored entry in order, one rounding per
    update where the dtype is float32/float64 (MKL's fused axpy) unless ``fused`` is False
    (a product rounded, then the sum)."""
    if not rows.size:
        return
    fused = fused and r.dtype.char in "fd"
    if fused:
        from .._ops._exact import fma
    for e in _by_rank(rows):
        rr = rows[e]
        x = dense[cols[e]]
        if fused:
            a = np.ascontiguousarray(np.broadcast_to(vals[e][:, None], x.shape))
            r[rr] = fma(a, x, r[rr])
        else:
            r[rr] += (vals[e][:, None] * x).astype(r.dtype)


def _addmm_kernel(t, s: SparseTensor, d: Tensor, beta, alpha) -> Tensor:
    """``beta * t + alpha * (s @ d)`` as ``s_addmm_out_sparse_dense_worker`` computes it."""
    m, n = s.shape[0], d.shape[1]
    dt = d._data.dtype
    if beta == 0 or t is None:
        r = np.zeros((m, n), dt)
    elif beta == 1:
        r = np.array(np.broadcast_to(t._data, (m, n)), dt)
    else:
        r = np.array(np.broadcast_to((t * beta)._data, (m, n)), dt)
    vals = s._sp_values._data
    if alpha != 1:
        vals = (vals * dt.type(alpha)).astype(dt)
    idx = s._sp_indices
    _axpy_rows(r, idx[0], idx[1], vals, np.asarray(d._data))
    return _wrap(r)


def _mat2_grad(g, s, alpha):
    """The dense operand's gradient, ``s.t() @ g`` by the sparse kernel (torch's
    ``mm_mat2_backward`` for a sparse first operand)."""
    out = _addmm_kernel(None, _transpose(s.detach(), 0, 1, None), g, 0, 1)
    return out if alpha == 1 else out * alpha


def _addmm(t, s: SparseTensor, d: Tensor, beta, alpha, name: str) -> Tensor:
    """``beta * t + alpha * (s @ d)`` recorded as ``name``: ``SparseAddmmBackward0`` gives
    the sparse operand a sparse gradient (``grad @ d.t()`` at its coalesced indices),
    ``MmBackward0`` / ``AddmmBackward0`` a dense one (torch's general ``mm`` backward)."""
    if d.is_sparse:
        raise SparseUnsupported("mm")
    _check_mm(s, d)
    out = _addmm_kernel(t, s, d, beta, alpha)

    def backward(g):
        gt = gs = None
        if t is not None and t.requires_grad:
            from .._ops.util import sum_to_shape
            gt = sum_to_shape(g if beta == 1 else g * beta, tuple(t.shape))
        if s.requires_grad:
            gs = g.mm(d.detach().t())
            if name == "SparseAddmmBackward0":
                gs = _sparse_mask(gs, coalesce(s.detach()))
            gs = gs if alpha == 1 else gs * alpha
        return gt, gs, _mat2_grad(g, s, alpha) if d.requires_grad else None
    return _record(out, name, (t, s, d), backward)


def _spgemm(a: SparseTensor, b: SparseTensor) -> SparseTensor:
    """``_sparse_sparse_matmul`` on the CPU: both operands coalesced, each row of the result
    accumulated as ``_csr_matmult`` does (``sums[k] += a_ij * b_jk`` for the row's entries
    ``j`` in order, the product rounded, from zero), its columns sorted; coalesced."""
    if a.ndim != 2 or b.ndim != 2 or a.dense_dim() or b.dense_dim():
        raise SparseUnsupported("_sparse_sparse_matmul")
    (m, n), (n2, p) = a.shape, b.shape
    if n != n2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({m}x{n} and {n2}x{p})")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"mat1 dtype {a.dtype.scalar_name} does not match mat2 dtype "
                           f"{b.dtype.scalar_name}")
    ca, cb = coalesce(a.detach()), coalesce(b.detach())
    (ai, aj), av = ca._sp_indices, ca._sp_values._data
    (bj, bk), bv = cb._sp_indices, cb._sp_values._data
    starts = np.searchsorted(bj, np.arange(n + 1))
    counts = starts[aj + 1] - starts[aj]            # B's entries in the row each A entry meets
    pair_a = np.repeat(np.arange(aj.size), counts)
    pair_b = starts[aj][pair_a] + np.arange(pair_a.size) - np.repeat(
        np.cumsum(counts) - counts, counts)
    prod = av[pair_a] * bv[pair_b]
    key = ai[pair_a] * p + bk[pair_b]
    keys, group = np.unique(key, return_inverse=True)
    out = np.zeros(keys.size, av.dtype)
    for e in _by_rank(key):       # (the pairs come in A's order: each key's j ascending)
        out[group[e]] += prod[e]
    idx = np.stack([keys // p, keys % p]) if p else np.zeros((2, keys.size), _I64)
    return _make(idx.astype(_I64), _wrap(out), (m, p), True)


_SPGEMM_DENSE = ('mat2_.is_sparse() INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/'
                 'ATen/native/sparse/SparseMatMul.cpp":266, please report a bug to PyTorch. ')


def _matrix_mask(t: SparseTensor, mask: SparseTensor) -> SparseTensor:
    """``_sparse_matrix_mask``: ``t``'s entries, those not in ``mask``'s pattern zeroed."""
    sizes = t.shape[:2]
    inside = np.isin(_keys(t._sp_indices, sizes), _keys(mask._sp_indices, sizes))
    vals = np.where(inside, t._sp_values._data, t._sp_values._data.dtype.type(0))
    return _make(t._sp_indices.copy(), _wrap(vals), t.shape, True)


def sparse_mm(a: SparseTensor, b: SparseTensor, name: str) -> SparseTensor:
    """A sparse matrix times a sparse one (:func:`_spgemm`), recorded as ``name``:
    ``SparseSparseMatmulBackward0`` (``torch.sparse.mm``) masks each gradient to its operand's
    pattern as ``sparse_sparse_matmul_backward`` does; ``MmBackward0`` (``torch.mm``) leaves
    the products whole."""
    out = _spgemm(a, b)

    masked = name == "SparseSparseMatmulBackward0"

    def backward(g):
        if not g.is_sparse and masked:
            raise RuntimeError(_SPGEMM_DENSE)
        product = _spgemm if g.is_sparse else any_mm      # (a dense gradient: dense ones)
        ga = gb = None
        if a.requires_grad:
            ga = product(g, _transpose(b.detach(), 0, 1, None))
            if masked:
                ga = _matrix_mask(ga, coalesce(a.detach()))
        if b.requires_grad:
            gb = product(_transpose(a.detach(), 0, 1, None), g)
            if masked:
                gb = _matrix_mask(gb, coalesce(b.detach()))
        return ga, gb
    return _record(out, name, (a, b), backward)


def mm(mat1: SparseTensor, mat2: Tensor) -> Tensor:
    """``torch.sparse.mm``: a sparse matrix times a dense one (``SparseAddmmBackward0``; the
    sparse operand's gradient is sparse, with its coalesced pattern) or a sparse one
    (``SparseSparseMatmulBackward0``, a sparse result)."""
    if not mat1.is_sparse:
        return mat1.mm(mat2)
    if mat2.is_sparse:
        return sparse_mm(mat1, mat2, "SparseSparseMatmulBackward0")
    return _addmm(None, mat1, mat2, 0, 1, "SparseAddmmBackward0")


def addmm(mat: Tensor, mat1: SparseTensor, mat2: Tensor, *, beta=1.0, alpha=1.0) -> Tensor:
    """``torch.sparse.addmm``: ``beta * mat + alpha * (mat1 @ mat2)`` for a sparse ``mat1``
    (``SparseAddmmBackward0``)."""
    if not mat1.is_sparse:
        from .._ops import function
        return function("addmm")(mat, mat1, mat2, beta=beta, alpha=alpha)
    return _addmm(mat, mat1, mat2, beta, alpha, "SparseAddmmBackward0")


def any_mm(a: Tensor, b: Tensor) -> Tensor:
    """``torch.mm`` with a sparse operand: sparse @ dense, or dense @ sparse as
    ``(b.t() @ a.t()).t()`` (torch's column-major result), sparse @ sparse, all
    ``MmBackward0``."""
    if a.is_sparse_csr:
        from ._csr import csr_mm
        return csr_mm(a, b)
    if a.is_sparse and b.is_sparse:
        return sparse_mm(a, b, "MmBackward0")
    if a.is_sparse:
        return _addmm(None, a, b, 0, 1, "MmBackward0")
    bt, at = _transpose(b.detach(), 0, 1, None), a.detach().t()
    _check_mm(bt, at)
    out = _wrap(_addmm_kernel(None, bt, at, 0, 1)._data.T)
    return _record(out, "MmBackward0", (a, b), lambda g: (
        any_mm(g, b.detach().t()) if a.requires_grad else None,
        a.detach().t().mm(g) if b.requires_grad else None))


def dense_mv(s: SparseTensor, v: Tensor) -> Tensor:
    """``torch.mv`` / ``matmul`` of a sparse matrix and a dense vector (``MvBackward0``):
    the product kernel on the vector as one column."""
    if v.is_sparse or s.dense_dim():
        raise SparseUnsupported("mv")
    col = _wrap(np.ascontiguousarray(v._data[:, None]))
    out = _wrap(_addmm_kernel(None, s, col, 0, 1)._data[:, 0])
    return _record(out, "MvBackward0", (s, v), lambda g: (
        g.outer(v.detach()) if s.requires_grad else None,
        _wrap(_mat2_grad(g.unsqueeze(1), s, 1)._data[:, 0]) if v.requires_grad else None))


def dense_addmm(t: Tensor, s: SparseTensor, d: Tensor, beta=1, alpha=1) -> Tensor:
    """``torch.addmm`` with a sparse ``mat1``."""
    return _addmm(t, s, d, beta, alpha, "AddmmBackward0")


# ----------------------------------------------------------------------------- arithmetic

def _transpose(s: SparseTensor, d0: int, d1: int, name) -> SparseTensor:
    sd = s.sparse_dim()
    if d0 >= sd or d1 >= sd:
        raise SparseUnsupported("transpose")
    idx = s._sp_indices.copy()
    idx[[d0, d1]] = idx[[d1, d0]]
    size = list(s.shape)
    size[d0], size[d1] = size[d1], size[d0]
    out = _make(idx, s._sp_values, size, s._sp_coalesced and d0 == d1)
    if name is None:
        return out
    if name == "TBackward0":
        return _record(out, name, (s,), lambda g: (g.t(),))
    return _record(out, name, (s,), lambda g: (g.transpose(d0, d1),))


def _scale(s: SparseTensor, other, name, ufunc) -> SparseTensor:
    """``s * c`` / ``s / c`` for a number (or 0-d tensor) ``c``: the values scaled."""
    if isinstance(other, Tensor):
        if other.is_sparse or other.ndim:
            raise SparseUnsupported("mul" if ufunc is np.multiply else "div")
        other = other.item()
    vals = s._sp_values
    v = vals * other if ufunc is np.multiply else vals / other
    out = _make(s._sp_indices, v, s.shape, s._sp_coalesced)
    if name is None:
        return out
    return _record(out, name, (s,), lambda g: (g * other if ufunc is np.multiply
                                                else g / other,))


def mul(s: SparseTensor, other) -> SparseTensor:
    """``s * other`` for a number or a 0-d tensor (sparse × sparse: not in Ember)."""
    return _scale(s, other, "MulBackward0", np.multiply)


def add(t: SparseTensor, s, alpha=1) -> SparseTensor:
    """``t + alpha * s`` of two sparse tensors, as torch's ``add_out_sparse_contiguous``
    merges their index lists (coalesced when both are)."""
    if not isinstance(s, Tensor) or not s.is_sparse:
        raise RuntimeError(_SPARSE_DENSE)
    if tuple(t.shape) != tuple(s.shape):
        raise RuntimeError(f"add: expected sizes of 'self' and 'other' to match, but "
                           f"{list(t.shape)} != {list(s.shape)}")
    if t.sparse_dim() != s.sparse_dim():
        raise SparseUnsupported("add")
    ti, si = t._sp_indices, s._sp_indices
    tv, sv = t._sp_values._data, s._sp_values._data
    dt = np.result_type(tv.dtype, sv.dtype)
    if ti.shape[1] and si.shape[1] and not (tv.flags.c_contiguous and sv.flags.c_contiguous):
        # add_out_sparse_non_contiguous: the two lists concatenated, coalesced (the flag
        # left false) once nnz exceeds numel
        if alpha != 1:
            sv = (s._sp_values * alpha)._data
        res = _make(np.concatenate([ti, si], axis=1),
                    _wrap(np.concatenate([tv.astype(dt), sv.astype(dt)])), t.shape, False)
        if res._nnz() > res.numel():
            c = coalesce(res)
            res = _make(c._sp_indices, c._sp_values, t.shape, False)
        return _record(res, "AddBackward0", (t, s),
                       lambda g: (g, g if alpha == 1 else g * alpha))
    fused = alpha != 1 and dt.char in "fd"        # (cpublas::axpy)
    sv = sv.astype(dt) if alpha == 1 or fused else (sv * dt.type(alpha)).astype(dt)
    tv = tv.astype(dt, copy=False)
    coalesced = t._sp_coalesced and s._sp_coalesced
    take_t, take_s, merged = _merge_sorted(ti, si, t.shape[:ti.shape[0]]) if coalesced \
        else _merge(ti, si)
    n = len(merged)
    out = np.zeros((n,) + tv.shape[1:], dt)
    out[take_t[0]] = tv[take_t[1]]
    if fused:
        from .._ops._exact import fma
        v = sv[take_s[1]]
        out[take_s[0]] = fma(np.full(v.shape, dt.type(alpha)), v, out[take_s[0]])
    else:
        out[take_s[0]] += sv[take_s[1]]
    idx = np.concatenate([ti, si], axis=1)[:, merged] if n else np.zeros((ti.shape[0], 0), _I64)
    res = _make(np.ascontiguousarray(idx), _wrap(out), t.shape, coalesced)
    return _record(res, "AddBackward0", (t, s),
                   lambda g: (g, g if alpha == 1 else g * alpha))


def _merge(ti: np.ndarray, si: np.ndarray):
    """torch's merge of two index lists (the smaller index first, equal ones into one entry,
    the lists taken as they are): which entry of each lands where."""
    nt, ns = ti.shape[1], si.shape[1]
    tl, sl = ti.T.tolist(), si.T.tolist()
    i = j = 0
    merged, tt, ts = [], ([], []), ([], [])
    while i < nt or j < ns:
        if i >= nt:
            cmp = -1
        elif j >= ns:
            cmp = 1
        else:
            a, b = tl[i], sl[j]
            cmp = 1 if a < b else -1 if a > b else 0
        r = len(merged)
        if cmp >= 0:
            merged.append(i)
            tt[0].append(r)
            tt[1].append(i)
            i += 1
        if cmp <= 0:
            if cmp < 0:
                merged.append(nt + j)
            ts[0].append(r)
            ts[1].append(j)
            j += 1
    return tt, ts, merged


def _merge_sorted(ti, si, sizes):
    """:func:`_merge` of two coalesced index lists, vectorised."""
    kt, ks = _keys(ti, sizes), _keys(si, sizes)
    allk = np.concatenate([kt, ks])
    _, first, inv = np.unique(allk, return_index=True, return_inverse=True)
    nt = kt.size
    return (inv[:nt], np.arange(nt)), (inv[nt:], np.arange(ks.size)), first


def _scatter_add(out: np.ndarray, d: Tensor, s: SparseTensor, alpha) -> None:
    """``out += alpha * s`` (``out`` has ``d``'s shape), each stored value added at its
    index in stored order, as ``add_out_dense_sparse_cpu``: by ``cpublas::axpy`` (a fused
    multiply-add) where the values have dense dims or ``s`` is uncoalesced, else by
    ``r += alpha * v`` (rounded product)."""
    if tuple(d.shape) != tuple(s.shape):
        raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has "
                           f"size {list(d.shape)} while other has size {list(s.shape)} (FYI: "
                           "dense-sparse addition does not currently support broadcasting)")
    nnz = s._nnz()
    if not nnz:
        return
    vals = s._sp_values._data.astype(out.dtype, copy=False)
    idx = s._sp_indices
    a = out.dtype.type(alpha)
    if alpha != 1 and out.dtype.char in "fd" and (vals.ndim > 1 or not (
            s._sp_coalesced or nnz == 1)):
        from .._ops._exact import fma
        for e in _by_rank(_keys(idx, s.shape[:idx.shape[0]])):
            at = tuple(idx[:, e])
            v = vals[e]
            out[at] = fma(np.full(v.shape, a), v, out[at])
        return
    if alpha != 1:
        vals = (vals * a).astype(out.dtype)
    np.add.at(out, tuple(idx), vals)


def _add_dense_sparse(d: Tensor, s: SparseTensor, alpha) -> Tensor:
    """``dense + alpha * sparse``: a copy of ``d`` with :func:`_scatter_add`."""
    out = np.array(d._data)
    _scatter_add(out, d, s, alpha)
    res = _wrap(out)
    return _record(res, "AddBackward0", (d, s),
                   lambda g: (g, g if alpha == 1 else g * alpha))


# ----------------------------------------------------------------------------- unary ops

def _zero_grad_values(gv, x):
    """(A marker: the op's gradient is zero, an empty sparse tensor.)"""


def _pow_grad(gv, x, exponent):
    if exponent - 1 == 0:
        raise RuntimeError(_POW_ZERO)
    return gv * (x.pow(exponent - 1) * exponent)


_POW_ZERO = ("pow: cannot raise to zeroth power on sparse tensor; it would make the result "
             "tensor dense")
_PI_180 = 0.017453292519943295
_SPARSE_DIV = ("Sparse division requires a scalar or zero-dim dense tensor divisor (got shape "
               "{} for divisor)")


class _Fails:
    """A backward torch cannot run on sparse operands: raises its error."""

    def __init__(self, error, message):
        self.error, self.message = error, message

    def __call__(self, shape):
        raise self.error(self.message.format(shape))



# torch's zero-preserving unary ops on a sparse tensor (``coalesced_unary_ufunc``: the op on
# the coalesced values, the result coalesced), by the op runner's name: the node's name and
# the values' gradient from the gradient at the same entries (``gv``) and the input values,
# as torch's formula computes it on sparse operands; None: a result without gradient (bool).
# Where torch's formula needs an op with no sparse kernel, its backward raises torch's error.
_UNARY = {
    "abs": ("AbsBackward0", lambda gv, x: gv * x.sgn()),
    "relu": ("ReluBackward0", lambda gv, x: gv.masked_fill((x > 0).logical_not(), 0)),
    "pow_scalar": ("PowBackward0", _pow_grad),
    "floor": ("FloorBackward0", _zero_grad_values),
    "ceil": ("CeilBackward0", _zero_grad_values),
    "round": ("RoundBackward0", _zero_grad_values),
    "trunc": ("TruncBackward0", _zero_grad_values),
    "sign": ("SignBackward0", _zero_grad_values),
    "frac": ("FracBackward0", lambda gv, x: gv),
    "deg2rad": ("Deg2RadBackward0", lambda gv, x: gv * _PI_180),
    "rad2deg": ("Rad2DegBackward0", lambda gv, x: gv * (180.0 / 3.141592653589793)),
    "log1p": ("Log1PBackward0", lambda gv, x: gv / (x + 1)),
    "sqrt": ("SqrtBackward0", _Fails(RuntimeError, _SPARSE_DIV)),
    "sin": ("SinBackward0", _Fails(NotImplementedError, no_kernel("cos"))),
    "sinh": ("SinhBackward0", _Fails(NotImplementedError, no_kernel("cosh"))),
    "tanh": ("TanhBackward0", _Fails(NotImplementedError, no_kernel("tanh_backward"))),
    "erf": ("ErfBackward0", _Fails(NotImplementedError, no_kernel("exp"))),
    "erfinv": ("ErfinvBackward0", _Fails(NotImplementedError, no_kernel("exp"))),
    "sgn": ("SgnBackward0", _Fails(NotImplementedError, no_kernel("_efficientzerotensor"))),
    "nan_to_num": ("NanToNumBackward0", _Fails(NotImplementedError, no_kernel("ne.Scalar"))),
    "expm1": ("Expm1Backward0", _Fails(RuntimeError, _SPARSE_DENSE)),
    "asin": ("AsinBackward0", _Fails(RuntimeError, _SPARSE_DENSE)),
    "atan": ("AtanBackward0", _Fails(RuntimeError, _SPARSE_DENSE)),
    "tan": ("TanBackward0", _Fails(RuntimeError, _SPARSE_DENSE)),
    "asinh": ("AsinhBackward0", _Fails(RuntimeError, _SPARSE_DENSE)),
    "atanh": ("AtanhBackward0", _Fails(
        RuntimeError, "memory format option is only supported by strided tensors")),
    "isnan": None, "isinf": None, "isposinf": None, "isneginf": None, "signbit": None,
}


def unary(name: str, s: SparseTensor, *args) -> SparseTensor:
    """Op ``name`` (one of :data:`_UNARY`) of a sparse tensor: the dense op on the coalesced
    values, the indices copied, the result coalesced."""
    if name == "pow_scalar" and not isinstance(args[0], Tensor) and args[0] == 0:
        raise RuntimeError(_POW_ZERO)
    from .. import _ops
    op = getattr(_ops, "pow" if name == "pow_scalar" else name)
    c = coalesce(s.detach())
    x = c._sp_values
    out = _make(c._sp_indices.copy(), op(x, *args).detach(), c.shape, True)
    entry = _UNARY[name]
    if entry is None:
        return out
    node, derivative = entry

    def backward(g):
        if derivative is _zero_grad_values:
            return (_make(np.zeros((c.sparse_dim(), 0), _I64),
                          _wrap(np.zeros((0,) + x.shape[1:], g.dtype.np)), s.shape, True),)
        if isinstance(derivative, _Fails):
            derivative(list(s.shape))
        gv = _values_grad(g, c._sp_indices, c.shape, x.shape)
        return (_make(c._sp_indices.copy(), derivative(gv, x, *args).detach(), c.shape,
                      True),)
    return _record(out, node, (s,), backward)


def _unary_method(name):
    def method(self, *args, **kwargs):
        return unary(name, self, *args, *kwargs.values())
    method.__name__ = name
    method.__doc__ = f"``{name}`` of the coalesced values (a sparse result)."
    return method


def _unary_inplace_method(name):
    def method(self, *args, **kwargs):
        if not self._sp_coalesced:
            raise RuntimeError(f"{name}_ requires coalesced input")
        if _state.enabled and self.requires_grad:
            if self.grad_fn is None:
                raise RuntimeError("a leaf Variable that requires grad is being used in an "
                                   "in-place operation.")
            raise NotImplementedError(f"{name}_ of a sparse tensor in a graph is not in Ember")
        vals = self._sp_values
        new = unary(name, self.detach(), *args, *kwargs.values())._sp_values._data
        if new.dtype != vals._data.dtype:
            raise RuntimeError(f"result type {D._BY_NP[new.dtype].scalar_name} can't be cast "
                               f"to the desired output type {vals.dtype.scalar_name}")
        vals._data[...] = new          # (torch's ufunc_ on the values: who holds them sees it)
        vals._vc.value += 1
        self._vc.value += 1
        return self
    method.__name__ = name + "_"
    method.__doc__ = f"``{name}`` of the values of a coalesced tensor, in place."
    return method


for _name, _entry in _UNARY.items():  # (methods too: some kernels never read an int's array)
    if _name != "pow_scalar":
        setattr(SparseTensor, _name, _unary_method(_name))
        if _entry is not None:
            setattr(SparseTensor, _name + "_", _unary_inplace_method(_name))


# ----------------------------------------------------------------------------- reductions

def sum(input: SparseTensor, dim=None, dtype=None) -> Tensor:
    """``torch.sparse.sum``: all elements (a dense 0-d tensor), or over ``dim`` (a sparse
    tensor while sparse dims remain, its entries coalesced; dense once none do)."""
    if not input.is_sparse:
        return input.sum() if dim is None else input.sum(dim)
    c = coalesce(input.detach())
    vals = c._sp_values
    if dtype is not None:
        vals = vals.to(dtype)
    sd = input.sparse_dim()
    if dim is None:
        out = vals.sum()
        return _record(out, "SumBackward0", (input,), lambda g: (
            _make(c._sp_indices, _wrap(np.broadcast_to(g._data, c._sp_values.shape)),
                  input.shape, True),))
    from .._ops.util import norm_dims
    dims = norm_dims(dim, input.ndim)
    sparse_sum = [d for d in dims if d < sd]
    dense_sum = [d - sd + 1 for d in dims if d >= sd]
    if dense_sum:
        vals = vals.sum(tuple(dense_sum))
    keep = [d for d in range(sd) if d not in sparse_sum]
    kept_dense = [input.shape[d] for d in range(sd, input.ndim) if d not in dims]
    if not keep:
        out = vals.sum(0) if vals.ndim > 0 else vals
        return _record(out, "SparseSumBackward0", (input,), lambda g: (
            _make(c._sp_indices, _wrap(np.broadcast_to(g._data, c._sp_values.shape)),
                  input.shape, True),))
    idx = np.ascontiguousarray(c._sp_indices[keep])
    size = [input.shape[d] for d in keep] + kept_dense
    out = coalesce(_make(idx, vals.detach(), size, len(keep) == sd))

    def backward(g):
        gv = _values_grad(g, idx, size, (idx.shape[1],) + tuple(kept_dense))
        if dense_sum:
            gv = _wrap(np.broadcast_to(
                np.expand_dims(gv._data, tuple(dense_sum)), c._sp_values.shape).copy())
        return (_make(c._sp_indices, gv, input.shape, True),)
    res = _make(out._sp_indices, out._sp_values, out.shape, True)
    return _record(res, "SparseSumBackward0", (input,), backward)


def _pools(idx: np.ndarray, sizes, dim: int) -> np.ndarray:
    """Each entry's pool (the entries sharing every sparse index but ``dim``'s), numbered
    by its key (pools are independent in torch's kernel)."""
    keep = [d for d in range(idx.shape[0]) if d != dim]
    key = _keys(idx[keep], [sizes[d] for d in keep])
    return np.unique(key, return_inverse=True)[1].reshape(-1)


def _softmax(input: SparseTensor, dim: int, dtype, log: bool) -> SparseTensor:
    """torch's ``cpu_sparse_coo_softmax`` over a sparse dim, accumulating in double: per
    pool, the max, then ``exp(x - max)`` (stored rounded) summed in stored order, then
    ``exp * (1.0 / sum)`` or ``x - (max + log(sum))``, with the C library's ``exp``/``log``.
    Its backward runs in the values' dtype and builds the pools from ``dim`` as given: a
    negative one matches no index row, so each entry is a pool of its own there (as in
    torch)."""
    from .._ops import _libm
    from .._ops.util import norm_dim
    raw_dim = dim
    dim = norm_dim(dim, input.ndim)
    sd = input.sparse_dim()
    name = "_sparse_log_softmax" if log else "_sparse_softmax"
    if dim >= sd:
        raise SparseUnsupported(name)
    src = input if dtype is None else input.detach().to(dtype)
    c = coalesce(src.detach())
    x = c._sp_values._data
    if x.dtype.char not in "fd":
        raise SparseUnsupported(name)
    dt = x.dtype
    nnz = x.shape[0]
    xd = x.reshape(nnz, -1).astype(np.float64)
    exp, ln = _libm.double_fn("exp"), _libm.double_fn("log")
    pool = _pools(c._sp_indices, c.shape, dim)
    npool = int(pool.max()) + 1 if nnz else 0
    mx = np.full((npool, xd.shape[1]), -np.inf)
    np.fmax.at(mx, pool, xd)
    with np.errstate(all="ignore"):
        e = exp(xd - mx[pool])
        sums = np.zeros_like(mx)
        np.add.at(sums, pool, e)
        if log:
            out = (xd - (mx + ln(sums))[pool]).astype(dt)
        else:
            out = (e.astype(dt).astype(np.float64) * (1.0 / sums)[pool]).astype(dt)
    res = _make(c._sp_indices, _wrap(out.reshape(x.shape)), c.shape, True)

    def backward(g):
        g = g if g.is_sparse else _sparse_mask(g, res)
        gv = _values_grad(g, c._sp_indices, c.shape, x.shape)._data.reshape(nnz, -1)
        gv = gv.astype(dt, copy=False)
        bpool = _pools(c._sp_indices, c.shape, raw_dim) if raw_dim < 0 else pool
        tmp = np.zeros((int(bpool.max()) + 1 if nnz else 0, xd.shape[1]), dt)
        with np.errstate(all="ignore"):
            if log:
                np.subtract.at(tmp, bpool, gv)
                f_exp = _libm.float_fn("exp") if dt == np.float32 else exp
                gi = gv + f_exp(out) * tmp[bpool]
            else:
                np.subtract.at(tmp, bpool, out * gv)
                gi = out * (gv + tmp[bpool])
        grad = _make(c._sp_indices, _wrap(gi.reshape(x.shape)), c.shape, True)
        return (grad if dtype is None else grad.to(input.dtype),)
    return _record(res, "SparseLogSoftmaxBackward0" if log else "SparseSoftmaxBackward0",
                   (input,), backward)


def softmax(input: SparseTensor, dim: int, *, dtype=None) -> SparseTensor:
    """``torch.sparse.softmax``: softmax over ``dim`` of the specified entries (the others
    count as -inf), the result with ``input``'s coalesced pattern."""
    if not input.is_sparse:
        raise NotImplementedError(no_kernel("_sparse_softmax", "CPU"))
    return _softmax(input, dim, dtype, False)


def log_softmax(input: SparseTensor, dim: int, *, dtype=None) -> SparseTensor:
    """``torch.sparse.log_softmax``: :func:`softmax`'s logarithm, computed as torch does."""
    if not input.is_sparse:
        raise NotImplementedError(no_kernel("_sparse_log_softmax", "CPU"))
    return _softmax(input, dim, dtype, True)


# ----------------------------------------------------------------------------- dense side

def _dense_sparse_dim(self) -> int:
    return 0


def _dense_dense_dim(self) -> int:
    return self.ndim


def _dense_to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
    return self if dtype is None or dtype is self.dtype else self.to(dtype)


def _layout_error(name: str, what: str = "sparse coordinate tensor"):
    def method(self, *args, **kwargs):
        raise RuntimeError(f"{name} expected {what} layout but got Strided")
    method.__name__ = name
    return method


def _cpu_kernel_error(name: str):
    def method(self, *args, **kwargs):
        raise NotImplementedError(no_kernel(name, "CPU"))
    method.__name__ = name
    return method


def _dense_sparse_mask(self, mask) -> Tensor:
    """The elements of this dense tensor at the sparse ``mask``'s indices, as a sparse
    tensor with ``mask``'s pattern."""
    if not getattr(mask, "is_sparse", False):
        raise NotImplementedError(no_kernel("sparse_mask", "CPU"))
    if tuple(mask.shape) != tuple(self.shape):
        raise RuntimeError("sparse_mask(): operands have incompatible sizes; self has size "
                           f"{list(self.shape)} but mask has size {list(mask.shape)}")
    return _sparse_mask(self, mask)


def _to_sparse_coo(self, sparse_dim=None):
    return dense_to_sparse(self, sparse_dim)


def _to_sparse_csr(self, dense_dim=None):
    """The CSR matrix of this strided or COO matrix."""
    from ._csr import coo_to_csr, dense_to_csr
    return (coo_to_csr if self.is_sparse else dense_to_csr)(self, dense_dim)


_DENSE_METHODS = {
    "to_sparse": dense_to_sparse, "to_sparse_coo": _to_sparse_coo, "to_dense": _dense_to_dense,
    "to_sparse_csr": _to_sparse_csr,
    "sparse_dim": _dense_sparse_dim, "dense_dim": _dense_dense_dim,
    "sparse_mask": _dense_sparse_mask,
    "indices": _layout_error("indices"), "coalesce": _layout_error("coalesce"),
    "is_coalesced": _layout_error("is_coalesced"),
    "values": _layout_error("values", "sparse tensor"),
    "_indices": _cpu_kernel_error("_indices"), "_values": _cpu_kernel_error("_values"),
    "_nnz": _cpu_kernel_error("_nnz"),
}
for _name, _fn in _DENSE_METHODS.items():
    setattr(Tensor, _name, _fn)
_ops.methods_defined(__name__)      # (torch's parser errors for them)


def _add_form(self, other, alpha=1, sign=1):
    if not isinstance(other, Tensor) or not other.is_sparse:
        if self.is_sparse:
            raise RuntimeError(_SPARSE_DENSE)
        return None
    return add(self, other, sign * alpha) if self.is_sparse \
        else _add_dense_sparse(self, other, sign * alpha)


def _add_in_place(self, other, alpha=1, sign=1):
    """``dense.add_(sparse)`` outside autograd (an optimizer's step)."""
    if self.is_sparse or not isinstance(other, Tensor) or not other.is_sparse or (
            _state.enabled and (self.requires_grad or other.requires_grad)):
        return None
    _scatter_add(self._data, self, other, sign * alpha)
    self._vc.value += 1
    return self


def _mul_form(self, other):
    if not self.is_sparse or (isinstance(other, Tensor) and (other.is_sparse or other.ndim)):
        return None
    return mul(self, other)


def _div_form(self, other, *rest):
    if rest or not self.is_sparse or (isinstance(other, Tensor) and (other.is_sparse
                                                                     or other.ndim)):
        return None
    return self / other


def _sparse_only(fn):
    def form(self, *args):
        return fn(self, *args) if self.is_sparse else None
    return form


# the module-level functions (and the methods sharing them) a sparse input reaches through
# the op runner, by the runner's op name
_SPARSE_FORMS = {
    "add": _add_form,
    "sub": lambda self, other, alpha=1: _add_form(self, other, alpha, -1),
    "mul": _mul_form,
    "div_true": _div_form,
    "neg": _sparse_only(lambda s: -s),
    "t_": _sparse_only(lambda s: s.t()),
    "transpose_": _sparse_only(lambda s, d0, d1: s.transpose(d0, d1)),
    "sum_all": _sparse_only(lambda s, dtype=None: sum(s, dtype=dtype)),
    "clone": _sparse_only(lambda s, memory_format=None: s.clone()),
    **{name: _sparse_only(functools.partial(unary, name)) for name in _UNARY},
}
_IN_PLACE_FORMS = {
    "add": _add_in_place,
    "sub": lambda self, other, alpha=1: _add_in_place(self, other, alpha, -1),
}
