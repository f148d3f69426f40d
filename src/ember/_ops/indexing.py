"""Indexing: ``x[...]``, ``x[...] = v``, and the gather/scatter/index/mask op family.

Basic indices (ints, slices, None, ``...``) compose views exactly as torch does
(``SelectBackward0``, ``SliceBackward0``, ``UnsqueezeBackward0``), applied first; the tensor,
list and bool indices left then make one advanced-indexing copy (``IndexBackward0``) of that
view, with NumPy's rule for where the advanced dims go (torch's, once the ints are gone).
Assignment writes through the same view with ``copy_``/``fill_`` or ``index_put_``, so it is a
recorded in-place op (``CopySlices`` on the base).

Index tensors reach the kernels as arrays; the formulas get them back as tensors.
"""

from __future__ import annotations

import builtins
import numbers

import numpy as np

from .. import _dtype as D
from .. import _errors
from .. import _memory_format as _mf
from .._device import xp
from .registry import (
    NONE,
    _scalar_name,
    check_no_overlap,
    expose,
    op,
    overlap_warns,
    run,
    run_inplace,
)
from .shape import _slice, _unsqueeze, select, select_at

# ----------------------------------------------------------------------------- helpers


def _T():
    from .._tensor import Tensor
    return Tensor


def _zeros(shape, like):
    return _T()._wrap(xp.zeros(tuple(shape), like._data.dtype))


def _grid(index, dim):
    """NumPy fancy-index tuple that picks ``x[i][index[i][j]]...`` along ``dim``."""
    nd = index.ndim
    out = []
    for d in range(nd):
        if d == dim:
            out.append(index)
        else:
            shp = [1] * nd
            shp[d] = index.shape[d]
            out.append(xp.arange(index.shape[d]).reshape(shp))
    return tuple(out)


def _norm(dim, nd):
    from .util import norm_dim
    return norm_dim(dim, nd) if nd else norm_dim(dim, 1)


def _check_gather(name, self, dim, index, src=None, bounds=True):
    """torch's checks of a gather/scatter's index and shapes; ``bounds=False`` leaves the
    index values to the kernel (:func:`_index_bounds`: scatter's, after the in-place write's
    overlap test and the kernel's dtype dispatch)."""
    if not isinstance(index, _T()) or index._data.dtype.kind not in "iu" or (
            name != "gather" and index._data.dtype != np.int64):
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index" if name == "gather"
                           else f"{name}(): Expected dtype int64 for index")
    nd = self._data.ndim
    d = _norm(dim, nd)
    if builtins.max(index._data.ndim, 1) != builtins.max(nd, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as "
                           f"{'input' if name == 'gather' else 'self'} tensor")
    ishape, sshape = index._data.shape, self._data.shape
    for k in range(index._data.ndim):
        if k != d and ishape[k] > sshape[k]:
            if src is not None:
                raise RuntimeError(f"Expected index {list(ishape)} to be no larger than self "
                                   f"{list(sshape)} apart from dimension {d} and to be no larger "
                                   f"size than src {list(src.shape)}")
            raise RuntimeError(f"Size does not match at dimension {k} expected index "
                               f"{list(ishape)} to be no larger than self {list(sshape)} apart "
                               f"from dimension {d}")
    if src is not None and isinstance(src, _T()):
        for k in range(index._data.ndim):
            if ishape[k] > (src._data.shape[k] if src._data.ndim else 1):
                raise RuntimeError(f"Expected index {list(ishape)} to be no larger than self "
                                   f"{list(sshape)} apart from dimension {d} and to be no "
                                   f"larger size than src {list(src.shape)}")
    if bounds:
        _index_bounds(self._data, d, index._data)
    return d


def _index_bounds(self, d, index):
    """torch's error for the first index (in its kernel's order) outside ``self``'s dim
    ``d`` (arrays; no negative index)."""
    n = self.shape[d] if self.ndim else 1
    if index.size:
        a = _scan_order(index, d) if index.ndim else index
        bad = a[(a < 0) | (a >= n)]
        if bad.size:
            raise RuntimeError(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension "
                               f"{d} with size {n}")


def _scan_order(a, d):
    """``a`` (an index) transposed to the order torch's scatter/gather kernel reads it, so
    that the first bad index in C order is the one it reports: along ``d`` inside each
    element when ``d`` is the last dim; else ``d`` outside the iterator's inner (coalesced)
    dims."""
    nd = a.ndim
    if d == nd - 1:
        return a
    other = [k for k in range(nd) if k != d and a.shape[k] != 1]
    ones = [k for k in range(nd) if k != d and a.shape[k] == 1]
    inner = other[-1:]
    for k in reversed(other[:-1]):
        if a.strides[k] != a.strides[inner[0]] * a.shape[inner[0]]:
            break
        inner.insert(0, k)
    outer = [k for k in other if k not in inner]
    return a.transpose(ones + outer + [d] + inner)


def _as1d(a):
    return a.reshape(1) if a.ndim == 0 else a


# ----------------------------------------------------------------------------- gather, scatter

def _gather_backward(grad, self_shape, dim, index):
    return _zeros(self_shape, grad).scatter_add(dim, index, grad)


def _gather_sparse_backward(grad, self_shape, dim, index):
    """ATen's ``_gather_sparse_backward``: an uncoalesced COO tensor holding each gradient
    element at its gathered position (``gather(..., sparse_grad=True)``)."""
    from ..sparse._sparse import _make
    g, i = grad._data, index._data
    nd = len(self_shape)
    if nd == 0:
        rows = np.empty((0, g.size), np.int64)
    elif g.ndim == 0:
        rows = i.reshape(1, 1).astype(np.int64)
    else:
        grid = list(np.indices(g.shape, np.int64).reshape(nd, -1))
        grid[dim] = i.reshape(-1).astype(np.int64)
        rows = np.stack(grid) if g.size else np.empty((nd, 0), np.int64)
    return _make(rows, _T()._wrap(np.ascontiguousarray(g.reshape(-1))), self_shape, False)


@op("GatherBackward0", name="gather_", method=False, function=False, promote=NONE,
    tensors=("self", "index"), holomorphic=False,  # (a scatter of the gradient, as written)
    # (the node keeps the input and sparse_grad, as torch's)
    self=lambda grad, self, dim, index, sparse_grad: (
        _gather_sparse_backward if sparse_grad else _gather_backward)(grad, self._data.shape,
                                                                      dim, index))
def _gather(self, dim, index, sparse_grad=False):
    s, i = _as1d(self), _as1d(index)
    return s[_grid(i % builtins.max(s.shape[dim], 1), dim)].reshape(index.shape)


@expose(overloads=("(Tensor input, int dim, Tensor index, *, bool sparse_grad = False, "
                    "Tensor out = None)",))
def gather(input, dim, index, *, sparse_grad=False, out=None):
    """Values of ``input`` along ``dim`` at ``index`` (``out[i][j] = input[i][index[i][j]]``)."""
    d = _check_gather("gather", input, dim, index)
    return run(_gather, (input, d, index, bool(sparse_grad)), out)


# (torch's scatter kernels share one check, which names scatter for scatter_add and
# scatter_reduce too)
_SCATTER_DTYPE = "scatter(): Expected self.dtype to be equal to src.dtype"


def _scatter_kernel(self, dim, index, src, reduce=None):
    _index_bounds(self, dim, index)
    out = self.copy()
    o, i = _as1d(out), _as1d(index)
    g = _grid(i % builtins.max(o.shape[dim], 1), dim)
    if isinstance(src, xp.ndarray) and src.ndim:
        src = src[tuple(builtins.slice(0, n) for n in i.shape)]
    if reduce is None:
        o[g] = src
    elif reduce == "add":
        xp.add.at(o, g, xp.broadcast_to(src, i.shape))
    else:
        xp.multiply.at(o, g, xp.broadcast_to(src, i.shape))
    return out


@op("ScatterBackward0", name="scatter_src", method=False, function=False, promote=NONE,
    tensors=("self", "index", "src"),
    self=lambda grad, dim, index: grad.scatter(dim, index, 0.),
    src=lambda grad, dim, index: grad.gather(dim, index))
def _scatter_src(self, dim, index, src, reduce):
    return _scatter_kernel(self, dim, index, src)


@op("ScatterBackward1", name="scatter_value", method=False, function=False, promote=NONE,
    tensors=("self", "index"),
    self=lambda grad, dim, index: grad.scatter(dim, index, 0.))
def _scatter_value(self, dim, index, value, reduce):
    return _scatter_kernel(self, dim, index, D.scalar_array(value, self.dtype))


def _no_scatter_derivative(grad):
    raise RuntimeError("derivative for aten::scatter is not implemented")


# scatter(reduce="add" | "multiply") has no derivative in torch: a NotImplemented node
@op("NotImplemented", name="scatter_reduce_src", method=False, function=False, promote=NONE,
    tensors=("self", "index", "src"), self=_no_scatter_derivative, src=_no_scatter_derivative)
def _scatter_reduce_src(self, dim, index, src, reduce):
    return _scatter_kernel(self, dim, index, src, reduce)


@op("NotImplemented", name="scatter_reduce_value", method=False, function=False,
    promote=NONE, tensors=("self", "index"), self=_no_scatter_derivative)
def _scatter_reduce_value(self, dim, index, value, reduce):
    return _scatter_kernel(self, dim, index, D.scalar_array(value, self.dtype), reduce)


def _scatter_args(name, self, dim, index, src, value, reduce):
    if src is None:
        src = value
    if src is None:
        raise TypeError(f"{name}() missing required argument 'src' or 'value'")
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    d = _check_gather(name, self, dim, index, src if isinstance(src, _T()) else None,
                      bounds=False)
    if isinstance(src, _T()):
        if src.dtype != self.dtype:
            raise RuntimeError(_SCATTER_DTYPE)
        if reduce is None:
            return _scatter_src, (self, d, index, src, reduce)
        _errors.warn_once("scatter_reduce", _errors.internal(
            "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
            "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
            "reduction options.", "aten/src/ATen/native/TensorAdvancedIndexing.cpp:225"))
        return _scatter_reduce_src, (self, d, index, src, reduce)
    return (_scatter_value if reduce is None else _scatter_reduce_value), (self, d, index, src,
                                                                           reduce)


@expose
def scatter(input, dim, index, src=None, value=None, *, reduce=None, out=None):
    """``input`` with ``src`` (a tensor or number) written at ``index`` along ``dim``."""
    o, args = _scatter_args("scatter", input, dim, index, src, value, reduce)
    return run(o, args, out)


@expose(function=False)
def scatter_(self, dim, index, src=None, value=None, *, reduce=None):
    """In-place :meth:`scatter`."""
    o, args = _scatter_args("scatter", self, dim, index, src, value, reduce)
    return run_inplace(o, args)


@op("ScatterAddBackward0", name="scatter_add_op", method=False, function=False, promote=NONE,
    tensors=("self", "index", "src"),
    self=lambda grad: grad, src=lambda grad, dim, index: grad.gather(dim, index))
def _scatter_add(self, dim, index, src):
    return _scatter_kernel(self, dim, index, src, "add")


def _scatter_add_args(self, dim, index, src):
    d = _check_gather("scatter_add", self, dim, index, src, bounds=False)
    if src.dtype != self.dtype:
        raise RuntimeError(_SCATTER_DTYPE)
    return (self, d, index, src)


@expose
def scatter_add(input, dim, index, src, *, out=None):
    """``input`` with ``src`` added at ``index`` along ``dim`` (repeats accumulate)."""
    return run(_scatter_add, _scatter_add_args(input, dim, index, src), out)


@expose(function=False)
def scatter_add_(self, dim, index, src):
    """In-place :meth:`scatter_add`."""
    return run_inplace(_scatter_add, _scatter_add_args(self, dim, index, src))


# torch's forward also takes "max" and "min" for amax and amin (its backward refuses them)
_REDUCE_INIT = {"sum": 0, "prod": 1, "mean": 0, "amax": -np.inf, "amin": np.inf,
                "max": -np.inf, "min": np.inf}


def _check_differentiable_reduce(reduce):
    if reduce in ("max", "min"):
        raise RuntimeError("Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                           f"'amin' but got {reduce}.")


def _scatter_count(self, dim, index, include_self):
    cnt = xp.zeros(self.shape, xp.int64) + (1 if include_self else 0)
    _as1d(cnt)
    xp.add.at(_as1d(cnt), _grid(_as1d(index) % builtins.max(_as1d(cnt).shape[dim], 1), dim), 1)
    return cnt


def _sr_self_grad(grad, self, index, src, dim, reduce, include_self, result):
    _check_differentiable_reduce(reduce)
    T = _T()
    hit = _scatter_count(self._data, dim, index._data, False) > 0
    if reduce == "sum":
        return grad if include_self else grad.masked_fill(T._wrap(hit), 0.)
    if reduce == "mean":
        n = T._wrap(_scatter_count(self._data, dim, index._data, include_self).clip(1, None)
                    .astype(grad._data.dtype))
        g = grad / n
        return g if include_self else g.masked_fill(T._wrap(hit), 0.)
    if reduce == "prod":
        g = grad * result / self
        return g if include_self else grad.masked_fill(T._wrap(hit), 0.)
    eq = (self == result)
    if not include_self:
        eq = T._wrap(eq._data & ~hit)
    n = _amax_count(self, index, src, dim, include_self, result)
    return grad * eq / n


def _amax_count(self, index, src, dim, include_self, result):
    own = (self == result).to(self.dtype)
    if not include_self:
        own = own.masked_fill(_T()._wrap(_scatter_count(self._data, dim, index._data, False) > 0),
                              0.)
    return own.scatter_add(dim, index, (src == result.gather(dim, index)).to(src.dtype))


def _sr_src_grad(grad, self, index, src, dim, reduce, include_self, result):
    _check_differentiable_reduce(reduce)
    T = _T()
    if reduce == "sum":
        return grad.gather(dim, index)
    if reduce == "mean":
        n = T._wrap(_scatter_count(self._data, dim, index._data, include_self).clip(1, None)
                    .astype(grad._data.dtype))
        return (grad / n).gather(dim, index)
    if reduce == "prod":
        return (grad * result).gather(dim, index) / src
    n = _amax_count(self, index, src, dim, include_self, result)
    return (grad / n).gather(dim, index) * (src == result.gather(dim, index))


@op("ScatterReduceBackward0", name="scatter_reduce_op", method=False, function=False,
    promote=NONE, tensors=("self", "index", "src"),
    self=lambda grad, self, index, src, dim, reduce, include_self, result:
        _sr_self_grad(grad, self, index, src, dim, reduce, include_self, result),
    src=lambda grad, self, index, src, dim, reduce, include_self, result:
        _sr_src_grad(grad, self, index, src, dim, reduce, include_self, result))
def _scatter_reduce(self, dim, index, src, reduce, include_self):
    if not index.size:
        return self.copy()
    if not include_self:        # (torch first scatters the reduction's initial value in)
        _index_bounds(self, dim, index)
    if (reduce == "mean" and self.dtype == xp.bool_) or (
            reduce in ("amax", "amin") and self.dtype.kind == "c"):
        from .registry import _scalar_name
        raise NotImplementedError(f'"scatter_gather_tensor_cpu_reduce_{reduce}" not implemented '
                                  f"for '{_scalar_name(D._BY_NP[self.dtype])}'")
    _index_bounds(self, dim, index)
    out = self.copy()
    o, i = _as1d(out), _as1d(index)
    g = _grid(i % builtins.max(o.shape[dim], 1), dim)
    s = _as1d(src)[tuple(builtins.slice(0, n) for n in i.shape)]
    if not include_self:
        init = _REDUCE_INIT[reduce]
        if out.dtype.kind in "iub" and not np.isfinite(init):
            init = np.iinfo(out.dtype).min if init < 0 else np.iinfo(out.dtype).max
        o[g] = init
    ufunc = {"sum": xp.add, "mean": xp.add, "prod": xp.multiply, "amax": xp.maximum,
             "amin": xp.minimum, "max": xp.maximum, "min": xp.minimum}[reduce]
    ufunc.at(o, g, s)
    if reduce == "mean":
        n = _scatter_count(self, dim, index, include_self)
        if out.dtype.kind in "fcV":
            out[...] = out / xp.maximum(n, 1)
        else:
            out[...] = out // xp.maximum(n, 1)
    return out


def _sr_args(self, dim, index, src, reduce, include_self):
    if reduce not in _REDUCE_INIT:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    d = _check_gather("scatter_reduce", self, dim, index, src, bounds=False)
    if src.dtype != self.dtype:
        raise RuntimeError(_SCATTER_DTYPE)
    return (self, d, index, src, reduce, bool(include_self))


@expose
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True, out=None):
    """Reduce ``src`` into ``input`` at ``index`` (``sum prod mean amax amin``)."""
    return run(_scatter_reduce, _sr_args(input, dim, index, src, reduce, include_self), out)


@expose(function=False)
def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    """In-place :meth:`scatter_reduce`."""
    return run_inplace(_scatter_reduce, _sr_args(self, dim, index, src, reduce, include_self))


# ----------------------------------------------------------------------------- index_* family

def _check_index_vec(name, index, vec_error=IndexError):
    if not isinstance(index, _T()):
        raise RuntimeError(f"{name}(): Expected dtype int32 or int64 for index")
    dt = index._data.dtype
    if dt != xp.int64 and (dt != xp.int32 or name in ("index_fill_", "index_copy_")):
        raise _index_dtype_error(name, index.dtype)
    if index._data.ndim > 1:
        raise vec_error(f"{name}(): Index is supposed to be a vector")


def _index_dtype_error(name, dtype):
    """torch's error for an index of a dtype ``name`` does not take (int64 alone for
    index_fill_ and index_copy_, int32 or int64 for the others), each op its own words."""
    if name == "index_fill_":
        return IndexError("index_fill_(): Expected dtype int64 for index.")
    if name == "index_copy_":
        return RuntimeError("index_copy_(): Expected a long tensor for index, but got "
                            f"{_scalar_name(dtype)}")
    if name in ("index_add_", "index_reduce_"):
        return RuntimeError(f"{name}(): Expected dtype int32/int64 for index but got: "
                            f"{_scalar_name(dtype)}")
    return RuntimeError(f"{name}(): Expected dtype int32 or int64 for index")


def _moved(a, dim):
    return xp.moveaxis(a.reshape(1) if a.ndim == 0 else a, dim, 0)


@op("IndexSelectBackward0", name="index_select_", method=False, function=False, promote=NONE,
    tensors=("self", "index"),
    self=lambda grad, self_shape, dim, index: _zeros(self_shape, grad).index_add(dim, index, grad))
def _index_select(self, dim, index):
    if self.ndim == 0:      # (a 0-d result, as torch's, for its one index)
        return self.reshape(1)[index.reshape(-1) % 1].reshape(())
    return xp.take(self, index.reshape(-1), axis=dim)


@expose(overloads=("(Tensor input, int dim, Tensor index, *, Tensor out = None)",))
def index_select(input, dim, index, *, out=None):
    """The entries of ``input`` along ``dim`` at the positions in the 1-d ``index``."""
    _check_index_vec("index_select", index)
    nd = input._data.ndim
    d = _norm(dim, nd)
    n = input._data.shape[d] if nd else 1
    if not nd and index._data.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{index._data.size} value(s)")
    if index._data.size and not n:
        if nd <= 1:
            raise IndexError("index out of range in self")
        raise RuntimeError(_errors.INDEX_SELECT_EMPTY)
    bad = index._data[(index._data < 0) | (index._data >= n)] if index._data.size else ()
    if len(bad):        # (no negative index; torch's kernel along a later dim says so)
        # (an empty self's bound check says so along any dim)
        if nd > 1 and (0 < d and (d < nd - 1 or nd == 2) or not input._data.size):
            raise RuntimeError(f"INDICES element is out of DATA bounds, id="
                               f"{int(bad.reshape(-1)[0])} axis_dim={n}")
        raise IndexError("index out of range in self")
    return run(_index_select, (input, d, index), out)


def _index_add_src(grad, dim, index, alpha, source_shape):
    g = grad.index_select(dim, index) if grad.ndim else grad
    if len(source_shape) == 0:
        g = g.reshape(())
    return g * alpha if alpha != 1 else g


@op("IndexAddBackward0", name="index_add_op", method=False, function=False, promote=NONE,
    tensors=("self", "index", "source"), self=lambda grad: grad,
    source=lambda grad, dim, index, alpha, source_shape:
        _index_add_src(grad, dim, index, alpha, source_shape))
def _index_add(self, dim, index, source, alpha):
    out = self.copy()
    if not out.size or not source.size:
        return out
    if alpha != 1 and out.dtype in (np.float32, np.float64):
        return _index_add_scaled(out, dim, index.reshape(-1), xp.asarray(source), alpha)
    src = source if alpha == 1 else source * xp.asarray(alpha).astype(source.dtype)
    if out.dtype.kind == "c" and out.ndim <= 1:
        # (a vector's elements take ``self += source * alpha``, the complex product taken
        # even for alpha 1: an infinite part makes the other NaN)
        from . import _fused
        src = _fused.complex_product(source, out.dtype.type(alpha), True)
    if alpha == 1 and out.dtype == xp.float16 and out.ndim > 1:
        # (torch accumulates float16 slices in float32 and rounds once; a vector's elements,
        # or any scaled source, add one by one in float16)
        acc = out.astype(xp.float32)
        xp.add.at(_moved(acc, dim), index.reshape(-1),
                  _moved(xp.asarray(src, xp.float32), dim))
        return acc.astype(xp.float16)
    xp.add.at(_moved(out, dim), index.reshape(-1), _moved(xp.asarray(src), dim))
    return out


def _index_add_scaled(out, dim, index, source, alpha):
    """``index_add_cpu_``'s loop over the indices in order with a float ``alpha``: each slice
    of a matrix (or more) takes ``add_(slice, alpha=alpha)`` (the add kernel's fused
    multiply-add), a vector's elements ``self += source * alpha`` (the product rounded)."""
    from . import _fused
    view, src = _moved(out, dim), _moved(source, dim)
    a = out.dtype.type(alpha)
    if out.ndim > 1:
        for i, j in enumerate(index.tolist()):
            view[j] = _fused.add(view[j], src[i], a)
    else:
        flat = src.reshape(-1)
        for i, j in enumerate(index.tolist()):
            view[j] = view[j] + flat[i] * a
    return out


def _index_src_check(name, self, dim, index, source):
    _check_index_vec(name, index)
    nd = self._data.ndim
    d = _norm(dim, nd)
    if source.dtype != self.dtype:
        sn, on = _scalar_name(self.dtype), _scalar_name(source.dtype)
        if name == "index_copy_":
            raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, "
                               f"but got (self) {sn} and (source) {on}")
        raise RuntimeError(f"{name}(): self ({sn}) and source ({on}) must have the same scalar "
                           "type")
    ns = source._data.shape[d] if source._data.ndim else 1
    if index._data.size != ns:
        if not source._data.ndim and name == "index_copy_":
            raise IndexError(f"index_copy_(): When source is scalar, index should have one "
                             f"element (got {index._data.size})")
        if not source._data.ndim and name == "index_add_":     # (torch's message reads
            raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")  # it)
        if name == "index_add_":
            raise RuntimeError(f"index_add_(): Number of indices ({index._data.size}) should be "
                               f"equal to source.size(dim): ({ns}), for dim: {d}")
        raise IndexError(f"{name}(): Number of indices ({index._data.size}) should be equal to "
                         f"source.size(dim) ({ns})")
    if source.dtype != self.dtype:
        raise RuntimeError(f"{name}(): self ({_scalar_name(self.dtype)}) and source "
                           f"({_scalar_name(source.dtype)}) must have the same scalar type")
    n = self._data.shape[d] if nd else 1
    bad = index._data[(index._data < 0) | (index._data >= n)] \
        if index._data.size and source._data.size and not (
            name == "index_add_" and nd > 1 and not self._data.size) else ()
    if len(bad):        # (no negative index; nothing is read with no source, nor, by
        # index_add, written into an empty matrix)
        i = int(bad.reshape(-1)[0])
        if name == "index_copy_":
            raise IndexError(f"index_copy_(): index {i} is out of bounds for dimension {d} with "
                             f"size {n}")
        if nd > 1 and d in (0, nd - 1):     # (the first and last dims: other kernels)
            raise RuntimeError(f"index {i} is out of bounds for dimension {d} with size {n}")
        raise IndexError("index out of range in self")
    return d


@expose
def index_add(input, dim, index, source, *, alpha=1, out=None):
    """``input`` with ``alpha * source`` added at ``index`` along ``dim``."""
    d = _index_src_check("index_add_", input, dim, index, source)
    return run(_index_add, (input, d, index, source, alpha), out)


@expose(function=False)
def index_add_(self, dim, index, source, *, alpha=1):
    """In-place :meth:`index_add`."""
    d = _index_src_check("index_add_", self, dim, index, source)
    return run_inplace(_index_add, (self, d, index, source, alpha))


@op("IndexCopyBackward0", name="index_copy_op", method=False, function=False, promote=NONE,
    tensors=("self", "index", "source"),
    self=lambda grad, dim, index: grad.index_fill(dim, index, 0.),
    source=lambda grad, dim, index, source_shape: _index_add_src(grad, dim, index, 1,
                                                                 source_shape))
def _index_copy(self, dim, index, source):
    out = self.copy()
    _moved(out, dim)[index.reshape(-1)] = _moved(xp.asarray(source), dim)
    return out


@expose
def index_copy(input, dim, index, source, *, out=None):
    """``input`` with the slices of ``source`` copied to ``index`` along ``dim``."""
    d = _index_src_check("index_copy_", input, dim, index, source)
    return run(_index_copy, (input, d, index, source), out)


@expose(function=False)
def index_copy_(self, dim, index, source):
    """In-place :meth:`index_copy`."""
    _norm(dim, self._data.ndim)
    check_no_overlap(self._data)       # (torch's first test of an index_copy_ after the dim)
    d = _index_src_check("index_copy_", self, dim, index, source)
    return run_inplace(_index_copy, (self, d, index, source))


def _index_fill_kernel(self, dim, index, value):
    out = _mf.copy_to_format(self)         # (torch's clone: the input's layout)
    if out.size:
        _moved(out, dim)[index.reshape(-1)] = D.scalar_array(value, self.dtype)
    return out


# (expanded self)
_INDEX_FILL_SHARED = overlap_warns("index_fill_", "mask] = scalar",
                                   "aten/src/ATen/native/TensorAdvancedIndexing.cpp:1913")
_MASKED_FILL_SHARED = overlap_warns("masked_fill_", "mask] = scalar",
                                   "aten/src/ATen/native/TensorAdvancedIndexing.cpp:2450")


@op("IndexFillBackward0", name="index_fill_value", method=False, function=False, promote=NONE,
    overlap=_INDEX_FILL_SHARED, tensors=("self", "index"),
    self=lambda grad, dim, index: grad.index_fill(dim, index, 0.))
def _index_fill0(self, dim, index, value):
    return _index_fill_kernel(self, dim, index, value)


@op("IndexFillBackward1", name="index_fill_tensor", method=False, function=False,
    promote=NONE, overlap=_INDEX_FILL_SHARED, tensors=("self", "index", "value"),
    self=lambda grad, dim, index: grad.index_fill(dim, index, 0.),
    value=lambda grad, dim, index: (grad.index_select(dim, index) if grad.ndim else grad).sum())
def _index_fill1(self, dim, index, value):
    return _index_fill_kernel(self, dim, index, value)


def _index_fill_restride_error(self, d, count):
    """torch's error for index_fill along an empty dim: its kernel restrides ``self`` to the
    index's length there (stride 0), past the end of the empty storage."""
    a = self._data
    sizes, strides = list(a.shape), list(self.stride())
    sizes[d], strides[d] = count, 0
    if 0 in sizes:      # (another empty dim: nothing is written, nor checked)
        return
    need = a.itemsize * (1 + sum((s - 1) * st for s, st in zip(sizes, strides)))
    raise RuntimeError(f"setStorage: sizes {sizes}, strides {strides}, storage offset 0, and "
                       f"itemsize {a.itemsize} requiring a storage size of {need} are out of "
                       "bounds for storage of size 0")


def _index_fill_args(self, dim, index, value):
    _check_index_vec("index_fill_", index)
    nd = self._data.ndim
    d = _norm(dim, nd)
    n = self._data.shape[d] if nd else 1
    if not n and index._data.size:
        _index_fill_restride_error(self, d, index._data.size)
    bad = index._data[(index._data < -n) | (index._data >= n)] if self._data.size else ()
    if len(bad):
        raise IndexError(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension {d} "
                         f"with size {n}")
    if isinstance(value, _T()):
        if value._data.ndim:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                               f"tensor with {value._data.ndim} dimension(s).")
        return _index_fill1, (self, d, index, value)
    return _index_fill0, (self, d, index, value)


@expose
def index_fill(input, dim, index, value):
    """``input`` with ``value`` written at ``index`` along ``dim``."""
    o, args = _index_fill_args(input, dim, index, value)
    return run(o, args)


@expose(function=False)
def index_fill_(self, dim, index, value):
    """In-place :meth:`index_fill`."""
    o, args = _index_fill_args(self, dim, index, value)
    return run_inplace(o, args)


# ----------------------------------------------------------------------------- masks

def _check_mask(name, mask, legacy=False):
    if mask.dtype != D.bool:
        if legacy:
            raise RuntimeError(f"{name} only supports boolean masks, but got mask with dtype "
                               f"{_scalar_name(mask.dtype)}")
        raise RuntimeError(f"{name} only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype.cpp_name}")


def _masked_fill_kernel(self, mask, value):
    # (torch's out-of-place masked_fill clones contiguous: so is NumPy's where here; a 0-d
    # result stays 0-d, which ascontiguousarray would not keep)
    out = xp.where(mask, D.scalar_array(value, self.dtype), self)
    return out if out.flags.c_contiguous else out.copy(order="C")


@op("MaskedFillBackward0", name="masked_fill_value", method=False, function=False,
    promote=NONE, overlap=_MASKED_FILL_SHARED, tensors=("self", "mask"),
    self=lambda grad, mask: grad.masked_fill(mask, 0.))
def _masked_fill0(self, mask, value):
    return _masked_fill_kernel(self, mask, value)


@op("MaskedFillBackward1", name="masked_fill_tensor", method=False, function=False,
    promote=NONE, overlap=_MASKED_FILL_SHARED, tensors=("self", "mask", "value"),
    self=lambda grad, mask: grad.masked_fill(mask, 0.),
    value=lambda grad, mask: _where_mask(grad, mask).sum())
def _masked_fill1(self, mask, value):
    return _masked_fill_kernel(self, mask, value)


def _where_mask(grad, mask):
    return grad.masked_fill(_T()._wrap(~mask._data), 0.)


def _masked_fill_args(self, mask, value):
    _check_mask("masked_fill_", mask)
    from .util import broadcast_shapes
    broadcast_shapes(mask._data.shape, self._data.shape)
    if isinstance(value, _T()):
        if value._data.ndim:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value._data.ndim} dimension(s).")
        return _masked_fill1, (self, mask, value)
    return _masked_fill0, (self, mask, value)


@expose(overloads=("(Tensor input, Tensor mask, Tensor value)",
                   "(Tensor input, Tensor mask, Number value)"))
def masked_fill(input, mask, value):
    """``input`` with ``value`` where the (broadcast) bool ``mask`` is True."""
    o, args = _masked_fill_args(input, mask, value)
    return run(o, args)


@expose(function=False)
def masked_fill_(self, mask, value):
    """In-place :meth:`masked_fill`."""
    o, args = _masked_fill_args(self, mask, value)
    return run_inplace(o, args)


def _masked_scatter_src(grad, mask, source_shape):
    sel = grad.masked_select(mask)
    n = 1
    for s in source_shape:
        n *= s
    from .shape import cat
    pad = n - sel.shape[0]
    if pad:
        sel = cat([sel, _zeros((pad,), grad)])
    return sel.reshape(source_shape)


@op("MaskedScatterBackward0", name="masked_scatter_op", method=False, function=False,
    promote=NONE, tensors=("self", "mask", "source"),
    self=lambda grad, mask: grad.masked_fill(mask, 0.),
    source=lambda grad, mask, source_shape: _masked_scatter_src(grad, mask, source_shape))
def _masked_scatter(self, mask, source):
    shape = np.broadcast_shapes(self.shape, mask.shape)
    out = xp.broadcast_to(self, shape).copy()
    m = xp.broadcast_to(mask, shape)
    k = int(m.sum())
    out[m] = source.reshape(-1)[:k]
    return out


def _masked_scatter_args(self, mask, source):
    if source.dtype != self.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{_scalar_name(self.dtype)} and {_scalar_name(source.dtype)}")
    if mask.dtype != D.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {_scalar_name(mask.dtype)}")
    from .util import broadcast_shapes
    shape = broadcast_shapes(self._data.shape, mask._data.shape)
    if source._data.size < int(xp.broadcast_to(mask._data, shape).sum()):
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return (self, mask, source)


@expose
def masked_scatter(input, mask, source):
    """``input`` with the leading elements of ``source`` written where ``mask`` is True."""
    return run(_masked_scatter, _masked_scatter_args(input, mask, source))


@expose(function=False)
def masked_scatter_(self, mask, source):
    """In-place :meth:`masked_scatter`."""
    return run_inplace(_masked_scatter, _masked_scatter_args(self, mask, source))


def _masked_select_backward(grad, self_shape, mask):
    from .util import broadcast_shapes
    shape = broadcast_shapes(tuple(self_shape), tuple(mask.shape))
    return _zeros(shape, grad).masked_scatter(mask, grad)


@op("MaskedSelectBackward0", name="masked_select_", method=False, function=False,
    promote=NONE, tensors=("self", "mask"),
    self=lambda grad, self_shape, mask: _masked_select_backward(grad, self_shape, mask))
def _masked_select(self, mask):
    shape = np.broadcast_shapes(self.shape, mask.shape)
    return xp.broadcast_to(self, shape)[xp.broadcast_to(mask, shape)]


@expose
def masked_select(input, mask, *, out=None):
    """The 1-d tensor of the elements of ``input`` where the bool ``mask`` is True."""
    if mask.dtype != D.bool:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    from .util import broadcast_shapes
    broadcast_shapes(mask._data.shape, input._data.shape)  # ATen: expand_outplace(mask, self)
    return run(_masked_select, (input, mask), out)


# ----------------------------------------------------------------------------- take, nonzero

def _take_backward(grad, self_shape, index):
    n = 1
    for s in self_shape:
        n *= s
    flat = _zeros((n,), grad).index_add(0, index.reshape(-1), grad.reshape(-1))
    return flat.reshape(self_shape)


@op("TakeBackward0", name="take_", method=False, function=False, promote=NONE,
    tensors=("self", "index"),
    self=lambda grad, self_shape, index: _take_backward(grad, self_shape, index))
def _take(self, index):
    return self.reshape(-1)[index]


@expose
def take(input, index, *, out=None):
    """``input`` treated as 1-d, at ``index`` (the result has ``index``'s shape)."""
    if index._data.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{_scalar_name(index.dtype)}")
    n = input._data.size
    i = index._data
    if i.size and not n:
        raise IndexError("take(): tried to take from an empty tensor")
    if i.size and ((i < -n) | (i >= n)).any():
        bad = int(i[(i < -n) | (i >= n)].reshape(-1)[0])
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} "
                         "elements.")
    if (i < 0).any():
        index = _T()._wrap(i % n)
    return run(_take, (input, index), out)


@expose
def take_along_dim(input, indices, dim=None, *, out=None):
    """``gather`` with ``indices`` broadcast against ``input`` (flattened when dim is None)."""
    if indices._data.dtype != np.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_scalar_name(indices.dtype)}")
    if dim is None:
        return gather(input.reshape(-1), 0, indices.reshape(-1), out=out)
    nd = input._data.ndim
    if indices._data.ndim != nd:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {nd} dimensions for input, and "
                           f"{indices._data.ndim} dimensions for indices")
    d = _norm(dim, nd)
    from .util import broadcast_shapes
    si, ii = list(input._data.shape), list(indices._data.shape)
    si[d] = ii[d] = 1
    shape = broadcast_shapes(si, ii)
    s_in = tuple(shape[:d]) + (input._data.shape[d],) + tuple(shape[d + 1:])
    s_ix = tuple(shape[:d]) + (indices._data.shape[d],) + tuple(shape[d + 1:])
    if s_in != input._data.shape:
        input = input.expand(s_in)
    if s_ix != indices._data.shape:
        indices = indices.expand(s_ix)
    return gather(input, d, indices, out=out)


@expose
def nonzero(input, *, out=None, as_tuple=False):
    """The indices of the non-zero elements: an ``(n, ndim)`` int64 tensor, or a tuple."""
    T = _T()
    a = input._data
    D.no_barebones_kernel("nonzero_count_cpu", input.dtype)
    if input.is_meta:
        raise NotImplementedError(_errors.META_NONZERO)
    if as_tuple:
        if a.ndim == 0:
            return (T._wrap(xp.zeros(int(a != 0), xp.int64)),)
        return tuple(T._wrap(i.astype(xp.int64)) for i in xp.nonzero(a))
    res = xp.argwhere(a).astype(xp.int64)
    if out is not None:
        return _nonzero_out(out, res)
    return T._wrap(res)


def _nonzero_out(out, res):
    """Write nonzero's ``res`` into ``out`` as torch does: into an ``(ndim, n)`` tensor it then
    transposes (strides ``(1, n)``), unless ``out`` already has the shape but not that layout."""
    from .registry import _write_out
    if out.dtype is not D.int64:
        raise RuntimeError("nonzero: Expected out tensor to have scalar type Long but got "
                           f"scalar type{out.dtype.scalar_name}")
    if out._data.shape == res.shape and not out._data.T.flags.c_contiguous:
        return _write_out(out, res)
    if out._data.shape != res.shape and out._data.size:     # (torch names the (n, ndim) shape)
        import warnings
        warnings.warn(_errors.out_resized(out._data.shape, res.shape), UserWarning,
                      stacklevel=_errors.user_stacklevel())
        out._data = xp.empty(0, out._data.dtype)
    _write_out(out, res.T)
    out._data = out._data.T
    return out


@expose
def argwhere(input):
    """The indices of the non-zero elements, an ``(n, ndim)`` int64 tensor."""
    return nonzero(input)


# ----------------------------------------------------------------------------- x[...]

@op("AliasBackward0", name="alias", method=False, function=False, view=True, promote=NONE,
    self=lambda grad: grad)
def _alias(self):
    return self.view()


@op("IndexPutBackward0", name="index_put_grad", method=False, function=False, promote=NONE,
    grad=lambda grad, index: _index(grad, index))
def _index_put_grad(grad, self_shape, index):
    out = xp.zeros(self_shape, grad.dtype)
    xp.add.at(out, index, grad)
    return out


@op("IndexBackward0", name="index", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, index: _index_put_grad(grad, self_shape, index))
def _index(self, index):
    return _index_layout(self[index], self, index)


def _index_layout(res, src, index):
    """``res = src[index]`` laid out as torch's index kernel lays it out: TensorIterator over
    ``src`` restrided to the result's shape (stride 0 along the indexed dims) and the index
    tensors (stride 0 elsewhere), ``src`` first (masks count as their nonzero indices)."""
    if res.ndim < 2 or not res.size:
        return res
    ents = []
    for i in index:
        if isinstance(i, np.ndarray) and i.dtype == bool:
            ents.extend(np.nonzero(i))
        else:
            ents.append(i if isinstance(i, np.ndarray) else None)
    ents += [None] * (src.ndim - len(ents))
    adv = [k for k, e in enumerate(ents) if e is not None]
    ishape = np.broadcast_shapes(*[ents[k].shape for k in adv])
    if adv == list(range(adv[0], adv[-1] + 1)):        # in place, else moved to the front
        before, after = list(range(adv[0])), list(range(adv[-1] + 1, src.ndim))
    else:
        before, after = [], [k for k in range(src.ndim) if k not in adv]
    if len(before) + len(ishape) + len(after) != res.ndim:
        return res
    zero_b, zero_a = [0] * len(before), [0] * len(after)
    st = [src.strides[k] for k in before] + [0] * len(ishape) + [src.strides[k] for k in after]
    operands = [np.lib.stride_tricks.as_strided(src, res.shape, st)]
    for k in adv:
        e = np.broadcast_to(ents[k], ishape)
        operands.append(np.lib.stride_tricks.as_strided(
            e, res.shape, zero_b + list(e.strides) + zero_a))
    return _mf.ti_layout(res, *operands)


_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
              "are valid indices (got {})")


_SEQUENCE_INDEX = _errors.internal(
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed "
    "in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be "
    "interpreted as tensor index, x[torch.tensor(seq)], which will result either in an error or "
    "a different result", "torch/csrc/autograd/python_variable_indexing.cpp:349")


_BYTE_INDEX = _errors.internal("indexing with dtype torch.uint8 is now deprecated, please use a "
                               "dtype torch.bool instead.",
                               "aten/src/ATen/native/IndexingUtils.h:37")


def _sequence_as_tuple(index) -> bool:
    """torch's ``treatSequenceAsTuple`` (NumPy's old heuristic): a short list holding a
    tensor, a sequence, a slice, ``...`` or None is a tuple of indices."""
    return isinstance(index, list) and len(index) < 32 and any(
        isinstance(o, (_T(), list, tuple, range, slice, np.ndarray)) or o is Ellipsis or o is None
        for o in index)


def _normalise(index, warn_bytes=True):
    """``index`` as a tuple of ints, slices, None, Ellipsis and NumPy index arrays (a uint8
    mask as bool: torch's deprecation warning unless ``warn_bytes`` is False, where the
    caller decides, see :func:`_byte_mask_fill`)."""
    T = _T()
    if _sequence_as_tuple(index):
        import warnings
        warnings.warn(_SEQUENCE_INDEX, UserWarning, stacklevel=4)
        index = tuple(index)
    if not isinstance(index, tuple):
        index = (index,)
    out = []
    for i in index:
        if isinstance(i, (T, np.ndarray)):      # (torch takes a NumPy array as a tensor)
            a = i._data if isinstance(i, T) else i
            if a.dtype.kind in "fc" or (a.ndim and a.dtype.kind == "i" and a.itemsize < 4):
                raise IndexError("tensors used as indices must be long, int, byte or bool "
                                 "tensors")
            if a.dtype == np.uint8 and a.ndim and warn_bytes:
                import warnings
                warnings.warn(_BYTE_INDEX, UserWarning, stacklevel=_errors.user_stacklevel())
            if a.ndim == 0 and a.dtype.kind in "iu":
                i = builtins.int(a)
            elif a.ndim == 0 and a.dtype == bool:
                i = builtins.bool(a)        # (as a Python bool)
            elif a.dtype.kind in "bu" and isinstance(i, T) and i.is_meta:
                raise NotImplementedError(_errors.META_NONZERO)     # (a mask's nonzero())
            else:
                i = a if a.dtype.kind != "u" else a.astype(bool)
        elif isinstance(i, (list, range)):
            a = np.asarray(i) if len(i) else np.zeros(0, np.int64)
            if a.dtype.kind == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool "
                                 "tensors")
            i = a if a.dtype.kind in "biu" else a.astype(np.int64)
        elif isinstance(i, (np.integer,)):
            i = builtins.int(i)
        elif isinstance(i, str):        # torch reads it as data for a tensor
            raise TypeError(f"new(): invalid data type '{type(i).__name__}'")
        elif not (i is None or i is Ellipsis or isinstance(i, (builtins.int, slice))):
            raise IndexError(_BAD_INDEX.format(type(i).__name__))
        out.append(i)
    return tuple(out)


def _decompose(self, index):
    """Apply the basic part of ``index`` as views; return the view and the advanced index."""
    nd = self._data.ndim
    consumed = 0
    for i in index:
        if isinstance(i, np.ndarray):
            consumed += i.ndim if i.dtype == bool else 1
        elif i is not None and i is not Ellipsis and not isinstance(i, builtins.bool):
            consumed += 1
    if consumed > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    out, dim = self, 0
    adv = []             # (dim in out, array)
    seen_ell = False
    for pos, i in enumerate(index):
        if i is Ellipsis:
            if not seen_ell:
                dim += nd - consumed
            seen_ell = True
        elif i is None:
            out = _unsqueeze(out, dim)
            dim += 1
        elif isinstance(i, builtins.bool):
            # torch: a new dim, indexed by [0] (True) or [] (False): an index copy
            out = _unsqueeze(out, dim)
            adv.append((dim, np.zeros(builtins.int(i), np.int64)))
            dim += 1
        elif isinstance(i, slice):
            size = out._data.shape[dim]
            if i.step == 0:
                raise ValueError("slice step cannot be zero")
            if i.step is not None and i.step < 0:
                raise ValueError("step must be greater than zero")
            start, stop, step = i.indices(size)
            if (start, stop, step) != (0, size, 1) or (out is self and not adv and
                                                        len(index) == 1):
                out = _slice(out, dim, start, builtins.max(start, stop), step)
            dim += 1
        elif isinstance(i, np.ndarray):
            k = i.ndim if i.dtype == bool else 1
            if i.dtype == bool:
                want = out._data.shape[dim:dim + k]
                if i.shape != want:
                    for j, (a, b) in enumerate(zip(i.shape, want)):
                        if a != b:
                            raise IndexError(
                                f"The shape of the mask {list(i.shape)} at index {j} does not "
                                f"match the shape of the indexed tensor "
                                f"{list(out._data.shape)} at index {dim + j}")
            adv.append((dim, i))
            dim += k
        else:
            size = out._data.shape[dim]
            if not -size <= i < size:        # torch names the index's position
                raise IndexError(f"index {i} is out of bounds for dimension {pos} with size "
                                 f"{size}")
            out = select(out, dim, builtins.int(i))
    return out, adv


def _advanced_index(view, adv):
    idx = []
    pos = 0
    arrays = []
    for dim, a in adv:
        while pos < dim:
            idx.append(slice(None))
            pos += 1
        idx.append(a)
        pos += a.ndim if a.dtype == bool else 1
        if a.dtype != bool:
            arrays.append((dim, a))
    shape = view._data.shape
    for k, (dim, a) in enumerate(arrays):
        n = shape[dim]
        bad = a[(a < -n) | (a >= n)]
        if bad.size and not n:      # (torch's check of an empty dimension names nothing)
            raise IndexError("index is out of bounds for dimension with size 0")
        if bad.size:
            raise IndexError(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension "
                             f"{k} with size {n}")
    shapes = [a.shape if a.dtype != bool else (int(a.sum()),) for _, a in adv]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with "
                         f"shapes {', '.join(str(list(s)) for s in shapes)}") from None
    return tuple(idx)


def _zero_dim_single(self, index):
    """torch's errors for a lone int or slice indexing a 0-dim tensor (any other index, a
    tuple of them too, has too many indices)."""
    if self._data.ndim == 0:
        if type(index) is builtins.int:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        if isinstance(index, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")


def getitem(self, index):
    """``self[index]`` with torch's semantics and errors."""
    if type(index) is builtins.int and self._data.ndim:
        n = self._data.shape[0]
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size {n}")
        return select_at(self, 0, index % n)
    _zero_dim_single(self, index)
    index = _normalise(index)
    view, adv = _decompose(self, index)
    if not adv:
        return _alias(self) if view is self else view
    return _index(view, _advanced_index(view, adv))


def setitem(self, index, value):
    """``self[index] = value``: a recorded in-place write."""
    T = _T()
    if isinstance(value, int) and not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    if not isinstance(value, (T, numbers.Number, np.generic)):
        raise TypeError(f"can't assign a {type(value).__name__} to a {self.type()}")
    _zero_dim_single(self, index)
    fill = _byte_mask_fill(index, value)
    view, adv = _decompose(self, _normalise(index, warn_bytes=False))
    if fill:
        raise RuntimeError(_BYTE_FILL)
    if not adv and view is not self and view._data.shape == self._data.shape and \
            view._data.strides == self._data.strides and \
            view._data.__array_interface__["data"] == self._data.__array_interface__["data"]:
        view = self                   # torch skips no-op slices when writing (CopyBackwards)
    if isinstance(value, T) and value._data.shape != view._data.shape and value._data.ndim:
        lead = 0                      # torch drops the value's leading size-1 dims first
        while lead < value._data.ndim and value._data.shape[lead] == 1:
            lead += 1
        if lead:
            value = value.view(value._data.shape[lead:])
        if not adv:
            value = value.expand(view._data.shape)
    if not adv:
        if isinstance(value, T):
            view.copy_(value)
        else:
            check_no_overlap(view._data)      # (torch copies a number in: no shared writes)
            view.fill_(value)
        return
    idx = _advanced_index(view, adv)
    if isinstance(value, T) and value.dtype != view.dtype and not value._data.ndim:
        value = value.to(view.dtype)          # torch's setitem converts a 0-d value first
    if not isinstance(value, T):
        # (torch's scalar_tensor: a one-element fill)
        value = T._wrap(D.scalar_array(value, view._data.dtype, 1))
    run_inplace(_index_put, _index_put_args(view, idx, value, False, prepared=True))


@op("IndexPutBackward0", name="index_put_op", method=False, function=False, promote=NONE,
    overlap=overlap_warns("index_put_", "indices] = tensor",
                          "aten/src/ATen/native/TensorAdvancedIndexing.cpp:976"),
    tensors=("self", "values"),
    self=lambda grad, indices, accumulate: grad if accumulate else _masked_zero(grad, indices),
    values=lambda grad, indices: _index(grad, indices))
def _index_put(self, indices, values, accumulate=False):
    out = _mf.copy_to_format(self)         # (torch's clone: the input's layout)
    if accumulate:
        xp.add.at(out, indices, values)
    else:
        out[indices] = values
    return out


@op("IndexPutBackward0", name="masked_zero", method=False, function=False, promote=NONE,
    grad=lambda grad, indices: _masked_zero(grad, indices))
def _masked_zero(grad, indices):
    out = grad.copy()
    out[indices] = 0
    return out


def _byte_mask_fill(raw, value) -> bool:
    """Whether torch's index_put_ writes ``value`` through ``masked_fill_`` with a uint8 mask
    among the ``raw`` indices, which raises :data:`_BYTE_FILL` (once the mask's shape is
    checked): it does for a one-element ``value`` (None: an accumulating put, which never
    does) when the mask is the only tensor index. Any other use of a uint8 mask warns."""
    T = _T()
    items = raw if isinstance(raw, (tuple, list)) else (raw,)
    arrays = [i._data if isinstance(i, T) else i for i in items]
    if not any(isinstance(a, np.ndarray) and a.dtype == np.uint8 and a.ndim for a in arrays):
        return False
    tensors = sum(isinstance(a, (list, range, builtins.bool)) or isinstance(a, np.ndarray) and
                  (a.ndim > 0 or a.dtype == bool) for a in arrays)
    if value is not None and tensors == 1 and (not isinstance(value, T) or
                                               value._data.size == 1):
        return True
    import warnings
    warnings.warn(_BYTE_INDEX, UserWarning, stacklevel=_errors.user_stacklevel())
    return False


_BYTE_FILL = "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"


def _index_put_args(self, indices, values, accumulate, prepared=False):
    if values.dtype != self.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{_scalar_name(self.dtype)} for the destination and "
                           f"{_scalar_name(values.dtype)} for the source.")
    if prepared:
        view, idx = self, indices
    else:
        if len(indices) > self._data.ndim:
            raise IndexError(f"too many indices for tensor of dimension {self._data.ndim} "
                             f"(got {len(indices)})")
        fill = _byte_mask_fill(indices, None if accumulate else values)
        index = _normalise(tuple(i if i is not None else slice(None) for i in indices),
                           warn_bytes=False)
        view, adv = _decompose(self, index)
        if fill:
            raise RuntimeError(_BYTE_FILL)
        if view is not self:
            view = self
            idx = tuple(i if not isinstance(i, builtins.int) else np.asarray(i) for i in index)
        else:
            idx = _advanced_index(view, adv) if adv else ()
    want, have = _index_shape(view._data.shape, idx), values._data.shape
    if len(have) > len(want) or any(h != 1 and h != w for h, w in zip(have[::-1], want[::-1])):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(have)} cannot be "
                           f"broadcast to indexing result of shape {list(want)}")
    return (view, idx, values, bool(accumulate) if not prepared else accumulate)


def _index_shape(shape, idx):
    """The shape of ``array[idx]``, ``idx`` full slices and index arrays (NumPy's rule: the
    indices' broadcast shape replaces their dims if they are adjacent, else leads)."""
    kept, adv, where, pos = [], [], [], 0
    for k, i in enumerate(idx):
        if isinstance(i, slice):
            kept.append(shape[pos])
            pos += 1
        else:
            adv.append((builtins.int(i.sum()),) if i.dtype == bool else i.shape)
            where.append(k)
            pos += i.ndim if i.dtype == bool else 1
    kept += shape[pos:]
    if not adv:
        return tuple(kept)
    at = where[0] if where[-1] - where[0] == len(where) - 1 else 0
    return (*kept[:at], *np.broadcast_shapes(*adv), *kept[at:])


def _values_tensor(name, values, position) -> None:
    if not isinstance(values, _T()):
        raise TypeError(f"{name}(): argument 'values' (position {position}) must be Tensor, "
                        f"not {_errors.type_name(values)}")


@expose
def index_put(input, indices, values, accumulate=False):
    """``input`` with ``values`` put at the tensor ``indices`` (added when ``accumulate``)."""
    _values_tensor("index_put", values, 3)
    return run(_index_put, _index_put_args(input, indices, values, accumulate))


@expose(function=False)
def index_put_(self, indices, values, accumulate=False):
    """In-place :meth:`index_put`."""
    _values_tensor("index_put_", values, 2)
    return run_inplace(_index_put, _index_put_args(self, indices, values, accumulate))


# ----------------------------------------------------------------------------- index_reduce

def _index_reduce_args(self, dim, index, source, reduce, include_self):
    """torch's checks; the arguments of ``scatter_reduce`` doing the same reduction (the
    index spread over ``source``'s shape along ``dim``)."""
    _errors.warn_once("index_reduce", _errors.internal(
        "index_reduce() is in beta and the API may change at any time.",
        "aten/src/ATen/native/TensorAdvancedIndexing.cpp:1523"))
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError("index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    if index._data.dtype != xp.int64 and index._data.dtype != xp.int32:
        raise _index_dtype_error("index_reduce_", index.dtype)
    if index._data.ndim > 1:
        raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: "
                         f"{index._data.ndim} with type: {_scalar_name(index.dtype)} and size: "
                         f"{list(index._data.shape)}")
    nd = self._data.ndim
    d = _norm(dim, nd)
    if source.dtype != self.dtype:
        raise RuntimeError(f"index_reduce_(): self ({_scalar_name(self.dtype)}) and source "
                           f"({_scalar_name(source.dtype)}) must have the same scalar type")
    ns = source._data.shape[d] if source._data.ndim else 1
    if index._data.size != ns:
        raise RuntimeError(f"index_reduce_(): Number of indices ({index._data.size}) should be "
                           f"equal to source.size(dim): ({ns}), for dim: {d}")
    n = self._data.shape[d] if nd else 1
    if index._data.size and ((index._data < 0) | (index._data >= n)).any():
        raise IndexError("index out of range in self")
    return (self, d, index, source, reduce, bool(include_self))


def _spread(index, source, dim):
    """``index`` along ``dim``, repeated over ``source``'s other dims (an int64 tensor)."""
    shape = [1] * source._data.ndim
    if shape:
        shape[dim] = -1
    i = index._data.astype(np.int64).reshape(shape)
    return _T()._wrap(np.ascontiguousarray(np.broadcast_to(i, source._data.shape)))


@op("IndexReduceBackward0", name="index_reduce_op", method=False, function=False,
    promote=NONE, tensors=("self", "index", "source"),
    self=lambda grad, self, index, source, dim, reduce, include_self, result:
        _sr_self_grad(grad, self, _spread(index, source, dim), source, dim, reduce,
                      include_self, result),
    source=lambda grad, self, index, source, dim, reduce, include_self, result:
        _sr_src_grad(grad, self, _spread(index, source, dim), source, dim, reduce,
                     include_self, result))
def _index_reduce(self, dim, index, source, reduce, include_self):
    shape = [1] * source.ndim
    if shape:
        shape[dim] = -1
    spread = np.broadcast_to(index.astype(np.int64).reshape(shape), source.shape)
    return _scatter_reduce.kernel(self, dim, spread, source, reduce, include_self)


@expose
def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    """Reduce the slices of ``source`` into ``input`` at ``index`` along ``dim``
    (``prod``, ``mean``, ``amax`` or ``amin``), with or without ``input``'s own values.

    >>> ember.index_reduce(ember.ones(2), 0, ember.tensor([0, 0]), ember.tensor([2., 3.]),
    ...                    'prod')
    tensor([6., 1.])
    """
    return run(_index_reduce, _index_reduce_args(input, dim, index, source, reduce,
                                                 include_self), out)


@expose(function=False)
def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    """In-place :meth:`index_reduce`."""
    return run_inplace(_index_reduce, _index_reduce_args(self, dim, index, source, reduce,
                                                         include_self))


# ----------------------------------------------------------------------------- put

def _put_args(self, index, source, accumulate):
    if not isinstance(index, _T()) or index._data.dtype != np.int64:
        raise RuntimeError("put_(): Expected a long tensor for index, but got "
                           f"{_scalar_name(index.dtype)}")
    if source.dtype != self.dtype:
        raise RuntimeError("put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {_scalar_name(self.dtype)} and source.dtype = "
                           f"{_scalar_name(source.dtype)}")
    if source._data.size != index._data.size:
        raise IndexError("put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source._data.size}, "
                         f"index.numel() = {index._data.size}")
    n = self._data.size
    i = index._data
    if i.size and not n:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    if i.size and ((i < -n) | (i >= n)).any():
        bad = int(i[(i < -n) | (i >= n)].reshape(-1)[0])
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} "
                         "elements.")
    return (self, _T()._wrap(i % builtins.max(n, 1)), source, bool(accumulate))


@op("PutBackward0", name="put_op", method=False, function=False, promote=NONE,
    tensors=("self", "index", "source"),
    self=lambda grad, index, source, accumulate:
        grad if accumulate else grad.put(index, _zeros(source.shape, grad)),
    source=lambda grad, index, source_shape: grad.take(index).reshape(source_shape))
def _put(self, index, source, accumulate):
    out = self.copy()
    flat = out.reshape(-1)
    if accumulate:
        xp.add.at(flat, index.reshape(-1), source.reshape(-1))
    else:
        flat[index.reshape(-1)] = source.reshape(-1)
    return _mf.copy_to_format(out, like=self)    # (torch's clone: the input's layout)


@expose
def put(input, index, source, accumulate=False):
    """``input`` treated as 1-d, with ``source`` written (or added: ``accumulate``) at
    ``index``.

    >>> ember.put(ember.zeros(2, 2), ember.tensor([0, 3]), ember.tensor([1., 2.]))
    tensor([[1., 0.],
            [0., 2.]])
    """
    return run(_put, _put_args(input, index, source, accumulate))


@expose(function=False)
def put_(self, index, source, accumulate=False):
    """In-place :meth:`put`."""
    return run_inplace(_put, _put_args(self, index, source, accumulate))
