"""The view scatters: ``diagonal_scatter``, ``select_scatter``, ``slice_scatter`` and
``as_strided_scatter`` — a copy of ``input`` with the elements a view would show replaced by
``src``, the out-of-place form of ``input.<view>(...).copy_(src)``.

The result has ``input``'s dtype (``src`` is converted) and, as torch's ``clone``, its layout.
The gradient of ``src`` is the view of the gradient; that of ``input`` the gradient with the
view's elements zeroed (the same scatter, of zeros).
"""

from __future__ import annotations

import builtins

from .. import _memory_format as _mf
from .._device import xp
from .._tensor import Tensor
from .registry import NONE, op
from .shape import check_storage_bounds
from .util import norm_dim


def _check_src(src_shape, view_shape) -> None:
    if tuple(src_shape) != tuple(view_shape):
        raise RuntimeError("expected src to have a size equal to the slice of self. src size = "
                           f"{list(src_shape)}, slice size = {list(view_shape)}")


def _scatter(self, src, view):
    """``self`` copied (its layout kept), ``view(copy)`` set to ``src``."""
    out = _mf.copy_to_format(self)
    view(out)[...] = src
    return out


def _zeros(t: Tensor) -> Tensor:
    return Tensor._wrap(xp.zeros(t._data.shape, t._data.dtype))


# ----------------------------------------------------------------------------- diagonal

def _diagonal_view(offset, dim1, dim2):
    """A writable view of the diagonal ``diagonal(offset, dim1, dim2)`` shows (NumPy's own
    ``diagonal`` is read-only), the diagonal last."""
    def view(a):
        b = xp.moveaxis(a, (dim1, dim2), (-2, -1))
        n1, n2 = b.shape[-2:]
        r, c = (0, offset) if offset >= 0 else (-offset, 0)
        n = builtins.max(0, builtins.min(n1 - r, n2 - c))
        b = b[..., builtins.min(r, n1):, builtins.min(c, n2):]
        return xp.lib.stride_tricks.as_strided(
            b, b.shape[:-2] + (n,), b.strides[:-2] + (b.strides[-2] + b.strides[-1],))
    return view


@op("DiagonalScatterBackward0", promote=NONE,
    self=lambda grad, src, offset, dim1, dim2: _diagonal_scatter(grad, _zeros(src), offset,
                                                                  dim1, dim2),
    src=lambda grad, offset, dim1, dim2: grad.diagonal(offset, dim1, dim2))
def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
    """``input`` with its diagonal (as :func:`diagonal` picks it) replaced by ``src``.

    >>> ember.diagonal_scatter(ember.zeros(2, 2), ember.ones(2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    nd = self.ndim
    dim1, dim2 = norm_dim(dim1, nd), norm_dim(dim2, nd)
    view = _diagonal_view(offset, dim1, dim2)
    _check_src(src.shape, view(self).shape)
    return _scatter(self, src, view)


_diagonal_scatter = diagonal_scatter


# ----------------------------------------------------------------------------- select

def _select_view(dim, index):
    return lambda a: a[(builtins.slice(None),) * dim + (index,)]


@op("SelectScatterBackward0", promote=NONE,
    self=lambda grad, src, dim, index: _select_scatter(grad, _zeros(src), dim, index),
    src=lambda grad, dim, index: grad.select(dim, index))
def select_scatter(self, src, dim, index):
    """``input`` with the slice ``input.select(dim, index)`` replaced by ``src``.

    >>> ember.select_scatter(ember.zeros(2, 2), ember.ones(2), 0, 0)
    tensor([[1., 1.],
            [0., 0.]])
    """
    nd = self.ndim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = norm_dim(dim, nd)
    n = self.shape[d]
    if not -n <= index < n:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(self.shape)} at dimension {d}")
    view = _select_view(d, index % n)
    _check_src(src.shape, view(self).shape)
    return _scatter(self, src, view)


_select_scatter = select_scatter


# ----------------------------------------------------------------------------- slice

def _slice_view(dim, start, end, step):
    return lambda a: a[(builtins.slice(None),) * dim + (builtins.slice(start, end, step),)]


def _slice_of(grad, dim, start, end, step):
    nd = grad._data.ndim
    return grad[(builtins.slice(None),) * norm_dim(dim, nd) + (builtins.slice(start, end, step),)]


@op("SliceScatterBackward0", promote=NONE,
    self=lambda grad, src, dim, start, end, step: _slice_scatter(grad, _zeros(src), dim,
                                                                  start, end, step),
    src=lambda grad, dim, start, end, step: _slice_of(grad, dim, start, end, step))
def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
    """``input`` with the slice ``start:end:step`` of ``dim`` replaced by ``src``.

    >>> ember.slice_scatter(ember.zeros(2, 4), ember.ones(2, 2), 1, 0, 4, 2)
    tensor([[1., 0., 1., 0.],
            [1., 0., 1., 0.]])
    """
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    nd = self.ndim
    d = norm_dim(dim, nd) if nd else 0
    view = _slice_view(d, start, end, step) if nd else (lambda a: a)
    _check_src(src.shape, view(self).shape)
    return _scatter(self, src, view)


_slice_scatter = slice_scatter


# ----------------------------------------------------------------------------- as_strided

def _dense_strides(shape, strides):
    """The strides of ``clone`` of a tensor of this layout: dense, in its strides' order."""
    order = sorted(range(len(shape)), key=lambda d: (-strides[d], -d))
    out = [0] * len(shape)
    step = 1
    for d in reversed(order):
        out[d] = step
        step *= builtins.max(shape[d], 1)
    return out


def _positions(size, stride, offset):
    pos = xp.full(tuple(size), offset, dtype=xp.int64)
    for d, (n, s) in enumerate(zip(size, stride)):
        shp = [1] * len(size)
        shp[d] = n
        pos = pos + (xp.arange(n, dtype=xp.int64) * s).reshape(shp)
    return pos


def _strided_layout(shape, strides, size, stride, offset):
    """Where each element of the result sits in its storage, and where the view's do."""
    out_pos = _positions(shape, _dense_strides(shape, strides), 0)
    return out_pos, _positions(size, stride, offset)


def _as_strided_scatter_grads(grad, self_shape, size, stride, storage_offset):
    # (torch's backward reads the view from the gradient made contiguous, whatever the
    # input's layout)
    out_pos, view_pos = _strided_layout(self_shape, _dense_strides(self_shape, range(
        len(self_shape), 0, -1)), size, stride, storage_offset or 0)
    n = int(out_pos.max(initial=-1)) + 1
    owner = xp.zeros(builtins.max(n, int(view_pos.max(initial=-1)) + 1), xp.int64)
    owner[out_pos.reshape(-1)] = xp.arange(out_pos.size)
    src_grad = grad.reshape(-1)[Tensor._wrap(owner[view_pos])]
    outside = xp.ones(owner.shape, bool)
    outside[view_pos.reshape(-1)] = False
    # (torch 2.13's formula keeps the gradient inside the view for ``input``, not outside)
    return grad.masked_fill(Tensor._wrap(outside[out_pos]), 0), src_grad


def _contiguous_if_grad(self, src, size, stride, storage_offset=None):
    if self.requires_grad and not self.is_contiguous():
        raise RuntimeError(
            '!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED at '
            '"/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp":4754, please report a '
            'bug to PyTorch. as_strided_scatter is currently only supported for contiguous '
            'inputs')


@op("AsStridedScatterBackward0", promote=NONE, check=_contiguous_if_grad,
    self=lambda grad, self_shape, size, stride, storage_offset:
        _as_strided_scatter_grads(grad, self_shape, size, stride, storage_offset)[0],
    src=lambda grad, self_shape, size, stride, storage_offset:
        _as_strided_scatter_grads(grad, self_shape, size, stride, storage_offset)[1])
def as_strided_scatter(self, src, size, stride, storage_offset=None):
    """``input`` (cloned, its layout kept) with the elements of
    ``as_strided(size, stride, storage_offset)`` of the clone replaced by ``src``.

    >>> ember.as_strided_scatter(ember.zeros(4), ember.ones(2), (2,), (2,))
    tensor([1., 0., 1., 0.])
    """
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    offset = 0 if storage_offset is None else int(storage_offset)
    it = self.itemsize
    check_storage_bounds(size, stride, offset, it, self.size)
    _check_src(src.shape, size)
    out = _mf.copy_to_format(self)
    strides = [s // it for s in out.strides]
    out_pos, view_pos = _strided_layout(out.shape, strides, size, stride, offset)
    storage = xp.empty(builtins.max(self.size, 1), self.dtype)
    storage[out_pos.reshape(-1)] = out.reshape(-1)
    storage[view_pos.reshape(-1)] = xp.asarray(src, self.dtype).reshape(-1)
    out[...] = storage[out_pos]
    return out
