"""Indexing: ``x[...]`` and ``x[...] = v``.

Basic indices (ints, slices, None, ``...``) compose views exactly as torch does
(``SelectBackward0``, ``SliceBackward0``, ``UnsqueezeBackward0``); any tensor, list or bool
index makes one advanced-indexing copy (``IndexBackward0``). Assignment writes through the
same view with ``copy_`` (or ``index_put_`` for advanced indices), so it is recorded.
"""

from __future__ import annotations

import builtins

import numpy as np

from .._device import xp
from .registry import NONE, op
from .shape import _slice, _unsqueeze, select


def _is_basic(i) -> bool:
    return i is None or i is Ellipsis or isinstance(i, (builtins.int, np.integer, slice)) \
        and not isinstance(i, builtins.bool)


def _normalise(index):
    from .._tensor import Tensor
    if not isinstance(index, tuple):
        index = (index,)
    out = []
    for i in index:
        if isinstance(i, Tensor):
            if i.ndim == 0 and i.dtype._category == 1:
                i = builtins.int(i.item())
            else:
                i = i._data
        out.append(i)
    return tuple(out)


def _basic(self, index):
    nd = self._data.ndim
    n_real = builtins.sum(1 for i in index if i is not None and i is not Ellipsis)
    if builtins.sum(1 for i in index if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_real > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    out, dim = self, 0
    for i in index:
        if i is Ellipsis:
            dim += nd - n_real
        elif i is None:
            out = _unsqueeze(out, dim)
            dim += 1
        elif isinstance(i, slice):
            size = out._data.shape[dim]
            start, stop, step = i.indices(size)
            if i.step is not None and i.step <= 0:
                raise ValueError("step must be greater than zero")
            if (start, stop, step) != (0, size, 1):
                out = _slice(out, dim, start, builtins.max(start, stop), step)
            elif out is self:
                out = _slice(out, dim, 0, size, 1)
            dim += 1
        else:
            size = out._data.shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size "
                                 f"{size}")
            out = select(out, dim, builtins.int(i))
    if out is self:
        out = _slice(self, 0, 0, self._data.shape[0], 1) if nd else _alias(self)
    return out


@op("AliasBackward0", name="alias", method=False, function=False, view=True, promote=NONE,
    self=lambda grad: grad)
def _alias(self):
    return self.view()


def _index_backward(grad, self_shape, index):
    from .._tensor import Tensor
    out = np.zeros(self_shape, grad._data.dtype)
    np.add.at(out, index, grad._data)
    return Tensor._wrap(out) if not grad.requires_grad else _index_put_grad(grad, self_shape,
                                                                             index)


@op("IndexPutBackward0", name="index_put_grad", method=False, function=False, promote=NONE,
    grad=lambda grad, index: _index(grad, index))
def _index_put_grad(grad, self_shape, index):
    out = xp.zeros(self_shape, grad.dtype)
    xp.add.at(out, index, grad)
    return out


@op("IndexBackward0", name="index", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, index: _index_put_grad(grad, self_shape, index))
def _index(self, index):
    return self[index]


def _check_advanced(self, index):
    for i in index:
        if isinstance(i, np.ndarray) and i.dtype.kind == "f":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if isinstance(i, (list, tuple)):
            arr = np.asarray(i)
            if arr.dtype.kind == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool "
                                 "tensors")


def getitem(self, index):
    """``self[index]`` with torch's semantics and errors."""
    index = _normalise(index)
    if builtins.all(_is_basic(i) for i in index):
        if self._data.ndim == 0 and any(isinstance(i, (builtins.int, slice)) for i in index):
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        return _basic(self, index)
    _check_advanced(self, index)
    idx = tuple(np.asarray(i) if isinstance(i, list) else i for i in index)
    try:
        self._data[idx]
    except IndexError as e:
        raise IndexError(str(e).replace("axis", "dimension").replace("array", "tensor")) \
            from None
    return _index(self, idx)


def setitem(self, index, value):
    """``self[index] = value``: a recorded in-place write."""
    from .._tensor import Tensor
    index = _normalise(index)
    if builtins.all(_is_basic(i) for i in index):
        target = _basic(self, index) if index != () else self
        if isinstance(value, Tensor):
            target.copy_(value)
        else:
            target.fill_(value)
        return
    idx = tuple(np.asarray(i) if isinstance(i, list) else i for i in index)
    _index_put_(self, idx, value)


def _index_put_(self, idx, value):
    from .._tensor import Tensor
    from .registry import run_inplace
    val = value if isinstance(value, Tensor) else Tensor._wrap(np.asarray(value, self._data.dtype))
    return run_inplace(_index_put, (self, idx, val))


@op("IndexPutBackward0", name="index_put", method=False, function=False, promote=NONE,
    tensors=("self", "values"),
    self=lambda grad, indices: _masked_zero(grad, indices),
    values=lambda grad, indices, values_shape: _index(grad, indices).sum_to_size(values_shape)
    if _index(grad, indices).shape != tuple(values_shape) else _index(grad, indices))
def _index_put(self, indices, values):
    out = self.copy()
    out[indices] = values
    return out


@op("IndexPutBackward0", name="masked_zero", method=False, function=False, promote=NONE,
    grad=lambda grad, indices: _masked_zero(grad, indices))
def _masked_zero(grad, indices):
    out = grad.copy()
    out[indices] = 0
    return out
