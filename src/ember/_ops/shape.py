"""Shape ops and views: view/reshape, squeeze/unsqueeze, expand, permute/transpose, select,
slicing, unbind, cat/stack, clone and dtype copies.

View ops (``view=True``) return NumPy views of the input's array and share its version
counter, exactly where torch's do; their backward formulas map the gradient back.
"""

from __future__ import annotations

import builtins

from .._device import xp
from .registry import NONE, expose, op
from .util import norm_dim, norm_dims

# ----------------------------------------------------------------------------- size helpers


def infer_size(shape, numel: int) -> tuple[int, ...]:
    """``shape`` with its one ``-1`` filled in, or torch's error."""
    shape = tuple(int(s) for s in shape)
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s}")
            known *= s
    if neg:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = shape[:neg[0]] + (numel // known,) + shape[neg[0] + 1:]
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def _shape_arg(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)) or (
            len(shape) == 1 and type(shape[0]).__name__ == "Size"):
        return tuple(shape[0])
    return tuple(shape)


# ----------------------------------------------------------------------------- views

@op("ViewBackward0", name="view", method=False, function=False, view=True, promote=NONE,
    self=lambda grad, self_shape: grad.reshape(self_shape))
def _view(self, shape):
    try:
        return xp.reshape(self, shape, copy=False)
    except ValueError:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.") from None


@op("UnsafeViewBackward0", name="unsafe_view", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape: grad.reshape(self_shape))
def _unsafe_view(self, shape):
    return xp.reshape(self, shape)


@expose(function=False)
def view(self, *shape):
    """A view with another shape (one dim may be -1); shares storage.

    ``view(dtype)`` reinterprets the bytes as another dtype.
    """
    from .. import _dtype as D
    if len(shape) == 1 and isinstance(shape[0], D.dtype):
        from .._tensor import Tensor
        return Tensor._wrap(self._data.view(shape[0].np))
    return _view(self, infer_size(_shape_arg(shape), self._data.size))


@expose
def reshape(input, *shape):
    """A view when the strides allow it, else a copy, with the new shape."""
    shape = infer_size(_shape_arg(shape), input._data.size)
    try:
        xp.reshape(input._data, shape, copy=False)
    except ValueError:
        return _unsafe_view(clone(input), shape)
    return _view(input, shape)


@expose(function=False)
def view_as(self, other):
    return view(self, other.shape)


@expose(function=False)
def reshape_as(self, other):
    return reshape(self, other.shape)


@expose
def flatten(input, start_dim=0, end_dim=-1):
    """Merge dims ``start_dim … end_dim`` into one."""
    nd = input._data.ndim
    if nd == 0:
        return reshape(input, (1,))
    s, e = norm_dim(start_dim, nd), norm_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shp = input._data.shape
    return reshape(input, shp[:s] + (-1,) + shp[e + 1:])


@op("UnsqueezeBackward0", name="unsqueeze", view=True, promote=NONE,
    self=lambda grad, dim: grad.squeeze(dim))
def _unsqueeze(self, dim):
    return xp.expand_dims(self, dim)


@expose
def unsqueeze(input, dim):
    """A view with a new dim of size 1 at ``dim``."""
    return _unsqueeze(input, norm_dim(dim, input._data.ndim + 1))


@op("SqueezeBackward0", name="squeeze_all", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, self_shape: grad.reshape(self_shape))
def _squeeze_all(self):
    return xp.squeeze(self)


@op("SqueezeBackward1", name="squeeze_dim", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, self_shape, dim: grad.reshape(self_shape))
def _squeeze_dim(self, dim):
    return xp.squeeze(self, dim) if self.shape[dim] == 1 else self.view()


@op("SqueezeBackward2", name="squeeze_dims", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, self_shape, dim: grad.reshape(self_shape))
def _squeeze_dims(self, dim):
    return xp.squeeze(self, tuple(d for d in dim if self.shape[d] == 1))


@op("SqueezeBackward4", name="squeeze_inplace_dim", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, self_shape, dim: grad.reshape(self_shape))
def _squeeze_matmul(self, dim):
    return xp.squeeze(self, dim)


@expose
def squeeze(input, dim=None):
    """Remove dims of size 1 (all, or only ``dim`` when it has size 1)."""
    nd = input._data.ndim
    if dim is None:
        return _squeeze_all(input)
    if isinstance(dim, (tuple, list)):
        return _squeeze_dims(input, norm_dims(dim, nd) if nd else ())
    return _squeeze_dim(input, norm_dim(dim, nd) if nd else 0)


@op("ExpandBackward0", name="expand_", method=False, function=False, view=True, promote=NONE,
    self=lambda grad, self_shape: grad.sum_to_size(self_shape))
def _expand(self, size):
    return xp.broadcast_to(self, size)


@expose(function=False)
def expand(self, *sizes):
    """A broadcast view with ``sizes`` (-1 keeps a dim); no copy."""
    sizes = _shape_arg(sizes)
    nd = self._data.ndim
    if len(sizes) < nd:
        raise RuntimeError(f"expand(torch.FloatTensor{{{list(self.shape)}}}, size={list(sizes)}):"
                           " the number of sizes provided ({len(sizes)}) must be greater or "
                           f"equal to the number of dimensions in the tensor ({nd})")
    lead = len(sizes) - nd
    out = []
    for i, s in enumerate(sizes):
        if i >= lead:
            cur = self._data.shape[i - lead]
            if s == -1:
                s = cur
            elif cur != 1 and cur != s:
                raise RuntimeError(
                    f"The expanded size of the tensor ({s}) must match the existing size "
                    f"({cur}) at non-singleton dimension {i}.  Target sizes: {list(sizes)}.  "
                    f"Tensor sizes: {list(self.shape)}")
        elif s == -1:
            raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                               f"leading, non-existing dimension {i}")
        out.append(s)
    return _expand(self, tuple(out))


@expose(function=False)
def expand_as(self, other):
    return expand(self, other.shape)


@expose(function=False)
def sum_to_size(self, *size):
    """Sum ``self`` down to ``size`` (the inverse of broadcasting)."""
    from .util import sum_to_shape
    return sum_to_shape(self, _shape_arg(size))


def _inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


@op("PermuteBackward0", name="permute_", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, dims: grad.permute(_inverse(dims)))
def _permute(self, dims):
    return xp.transpose(self, dims)


@expose
def permute(input, *dims):
    """A view with the dims reordered."""
    dims = _shape_arg(dims)
    nd = input._data.ndim
    if len(dims) != nd:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {nd} is not equal to len(dims) = {len(dims)}")
    return _permute(input, tuple(norm_dim(d, nd) for d in dims))


@op("TransposeBackward0", name="transpose_", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1))
def _transpose(self, dim0, dim1):
    return xp.swapaxes(self, dim0, dim1)


@expose
def transpose(input, dim0, dim1):
    """A view with ``dim0`` and ``dim1`` swapped."""
    nd = input._data.ndim
    if nd == 0:
        return _transpose(input, 0, 0)
    return _transpose(input, norm_dim(dim0, nd), norm_dim(dim1, nd))


swapaxes = expose(transpose, name="swapaxes")
swapdims = expose(transpose, name="swapdims")


@op("TBackward0", name="t_", method=False, function=False, view=True, promote=NONE,
    self=lambda grad: grad.t())
def _t(self):
    return self.T


@expose
def t(input):
    """Transpose of a matrix (vectors and scalars are returned as views of themselves)."""
    if input._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{input._data.ndim}D")
    return _t(input)


# ----------------------------------------------------------------------------- select, slice

@op("SelectBackwardBackward0", name="select_backward", method=False, function=False,
    promote=NONE, grad_output=lambda grad, dim, index: grad.select(dim, index))
def _select_backward(grad_output, input_sizes, dim, index):
    out = xp.zeros(input_sizes, grad_output.dtype)
    idx = [builtins.slice(None)] * len(input_sizes)
    idx[dim] = index
    out[tuple(idx)] = grad_output
    return out


@op("SelectBackward0", name="select_", method=False, function=False, view=True, promote=NONE,
    self=lambda grad, self_shape, dim, index: _select_backward(grad, self_shape, dim, index))
def _select(self, dim, index):
    idx = [builtins.slice(None)] * self.ndim
    idx[dim] = index
    return self[(*idx, ...)]   # the Ellipsis keeps a 0-d result a view


@expose
def select(input, dim, index):
    """The slice at ``index`` along ``dim`` (a view with that dim removed)."""
    nd = input._data.ndim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = norm_dim(dim, nd)
    n = input._data.shape[dim]
    if not -n <= index < n:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input.shape)} at dimension {dim}")
    return _select(input, dim, index % n)


@op("SliceBackwardBackward0", name="slice_backward", method=False, function=False,
    promote=NONE,
    grad_output=lambda grad, dim, start, end, step: _slice(grad, dim, start, end, step))
def _slice_backward(grad_output, input_sizes, dim, start, end, step):
    out = xp.zeros(input_sizes, grad_output.dtype)
    idx = [builtins.slice(None)] * len(input_sizes)
    idx[dim] = builtins.slice(start, end, step)
    out[tuple(idx)] = grad_output
    return out


@op("SliceBackward0", name="slice_", method=False, function=False, view=True, promote=NONE,
    self=lambda grad, self_shape, dim, start, end, step:
        _slice_backward(grad, self_shape, dim, start, end, step))
def _slice(self, dim, start, end, step):
    idx = [builtins.slice(None)] * self.ndim
    idx[dim] = builtins.slice(start, end, step)
    return self[tuple(idx)]


@expose
def narrow(input, dim, start, length):
    """A view of ``length`` elements of ``dim`` from ``start``."""
    dim = norm_dim(dim, input._data.ndim)
    n = input._data.shape[dim]
    start = start + n if start < 0 else start
    if start + length > n:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    return _slice(input, dim, start, start + length, 1)


@op("UnbindBackward0", name="unbind_", method=False, function=False, view=True, promote=NONE,
    outputs=-1, self=lambda grads, dim: stack(grads, dim))
def _unbind(self, dim):
    return tuple(xp.moveaxis(self, dim, 0))


@expose
def unbind(input, dim=0):
    """The slices along ``dim``, as a tuple of views."""
    return _unbind(input, norm_dim(dim, input._data.ndim))


# ----------------------------------------------------------------------------- cat, stack

def _split_grad(grad, sizes, dim):
    out, start = [], 0
    for s in sizes:
        out.append(grad.narrow(dim, start, s))
        start += s
    return out


@expose
def cat(tensors, dim=0, *, out=None):
    """Concatenate tensors along an existing ``dim``."""
    from .registry import _requires_list, record_list
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    from .. import _dtype as D
    dt = D.result_type(*tensors) if builtins.len(tensors) > 0 else None
    real = [t for t in tensors if not (t._data.ndim == 1 and t._data.shape[0] == 0)]
    if not real:
        real = tensors[:1]
    nd = real[0]._data.ndim
    if nd == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = norm_dim(dim, nd)
    ref = real[0]._data.shape
    for i, t in enumerate(real):
        s = t._data.shape
        if builtins.len(s) != nd:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {nd} and "
                               f"{builtins.len(s)}")
        for k in range(nd):
            if k != d and s[k] != ref[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {ref[k]} but got size {s[k]} for tensor "
                                   f"number {i} in the list.")
    arr = xp.concatenate([t._data.astype(dt.np, copy=False) for t in real], axis=d)
    from .._tensor import Tensor
    result = Tensor._wrap(arr)
    if out is not None:
        from .registry import _write_out
        return _write_out(out, arr)
    if _requires_list(tensors):
        sizes = [t._data.shape[d] if t._data.ndim else 0 for t in tensors]
        sizes = [0 if (t._data.ndim == 1 and t._data.shape[0] == 0 and nd != 1) else s
                 for t, s in zip(tensors, sizes)]
        record_list("CatBackward0", tensors, result,
                    lambda grad: _split_grad(grad, sizes, d) if nd else [grad])
    return result


concat = expose(cat, name="concat", method=False)
concatenate = expose(cat, name="concatenate", method=False)


@expose
def stack(tensors, dim=0, *, out=None):
    """Join tensors of one shape along a new ``dim``."""
    from .registry import _requires_list, record_list
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tensors[0]._data.shape
    for i, t in enumerate(tensors):
        if t._data.shape != shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(shape)} at entry 0 and {list(t.shape)} at entry {i}")
    d = norm_dim(dim, builtins.len(shape) + 1)
    from .. import _dtype as D
    dt = D.result_type(*tensors)
    arr = xp.stack([t._data.astype(dt.np, copy=False) for t in tensors], axis=d)
    from .._tensor import Tensor
    result = Tensor._wrap(arr)
    if out is not None:
        from .registry import _write_out
        return _write_out(out, arr)
    if _requires_list(tensors):
        record_list("StackBackward0", tensors, result, lambda grad: list(grad.unbind(d)))
    return result


# ----------------------------------------------------------------------------- copies

@op("CloneBackward0", promote=NONE, self=lambda grad: grad)
def clone(self, *, memory_format=None):
    """A copy that stays in the graph (``CloneBackward0``)."""
    return self.copy()


@op("ToCopyBackward0", name="_to_copy", method=False, function=False, promote=NONE,
    self=lambda grad: grad)
def _to_copy(self, dtype):
    return self.astype(dtype.np)

