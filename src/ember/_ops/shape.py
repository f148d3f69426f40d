"""Shape ops and views: view/reshape, squeeze/unsqueeze, expand, permute/transpose, select,
slicing, unbind, cat/stack, clone and dtype copies.

View ops (``view=True``) return NumPy views of the input's array and share its version
counter, exactly where torch's do; their backward formulas map the gradient back.
"""

from __future__ import annotations

import builtins
import operator

from .. import _dtype as D
from .. import _errors, _meta
from .. import _memory_format as _mf
from .._device import xp
from . import registry as _R
from .registry import NONE, check_devices, expose, op
from .util import norm_dim, norm_dims

# ----------------------------------------------------------------------------- size helpers


def infer_size(shape, numel: int) -> tuple[int, ...]:
    """``shape`` with its one ``-1`` filled in, or torch's error."""
    shape = tuple(map(operator.index, shape))      # (a float or a str is no size)
    if -1 not in shape and min(shape, default=0) >= 0:
        known = 1
        for s in shape:
            known *= s
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for i, s in enumerate(shape):
        if s != -1:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape "
                                   f"{list(shape)}")
            known *= s
    if neg:
        if known == 0 and numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} "
                               "because the unspecified dimension size -1 can be any value "
                               "and is ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = shape[:neg[0]] + (numel // known,) + shape[neg[0] + 1:]
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def _shape_arg(shape, given=None, name: str = "size", op: str = "", options=None):
    """A torch ``*size`` argument: ints by position or one sequence, or (``given``) the same
    passed by torch's keyword ``name``. ``options``: the method's printed signatures, whose
    parser error a call giving none raises (the argument is required)."""
    if options and not shape and given is None:
        raise _errors.parser_error(op, options, (), {})
    if given is not None:
        if shape:
            raise _errors.parse_failure(op, True, shape, {name: given}) or TypeError(
                f"{op}() got multiple values for argument '{name}'")
        shape = (given,)
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)) or (
            len(shape) == 1 and type(shape[0]).__name__ == "Size"):
        return tuple(shape[0])
    return tuple(shape)


# ----------------------------------------------------------------------------- views

@op("ViewBackward0", name="view", method=False, function=False, view=True, promote=NONE,
    self=lambda grad, self_shape: grad.reshape(self_shape))
def _view(self, shape):
    if self.flags.c_contiguous and 1 not in self.shape:
        return self.reshape(shape)     # (NumPy's function wrappers cost ~1 us a call)
    return _strict_view(self, shape)


def _strict_view(self, shape):
    """``self`` viewed in ``shape`` with torch's strides, or torch's error where no view
    has that shape."""
    try:
        return _torch_view(self, xp.reshape(self, shape, copy=False))
    except ValueError:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.") from None


def _torch_view(self, out):
    """NumPy's view ``out`` of ``self`` with the strides torch gives its dims of size 1."""
    if not out.size or 1 not in out.shape:
        return out
    st = _mf.view_strides(self.shape, self.strides, out.shape)
    if st is None or st == out.strides:
        return out
    return xp.lib.stride_tricks.as_strided(out, out.shape, st, writeable=out.flags.writeable)


@op("UnsafeViewBackward0", name="unsafe_view", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape: grad.reshape(self_shape))
def _unsafe_view(self, shape):
    # (a view, as ATen's: an input no view of which has the shape is refused)
    return self.reshape(shape) if self.flags.c_contiguous else _strict_view(self, shape)


_VIEW_OPTIONS = ("(torch.dtype dtype)", "(tuple of ints size)")


@expose(function=False)
def view(self, *sizes, size=None, dtype=None):
    """A view with another shape (one dim may be -1); shares storage.

    ``view(dtype)`` reinterprets the bytes as another dtype.
    """
    by_position = dtype is None and len(sizes) == 1 and isinstance(sizes[0], D.dtype)
    if by_position:
        dtype = sizes[0]
    if not sizes and size is None and dtype is None:
        raise _errors.invalid_arguments("view", ("(torch.dtype dtype)", "(tuple of ints size)"),
                                        (), {})
    if dtype is not None:
        if sizes and not by_position or size is not None:    # (both a dtype and sizes)
            _raise_parsed(TypeError("view() takes a dtype or sizes"), "view", sizes,
                          size=size, dtype=dtype)
        from .._tensor import Tensor
        _check_view_dtype(self, dtype)
        return Tensor._wrap(self._data.view(dtype.np))
    try:
        shape = _shape_arg(sizes, size, "size", "view", _VIEW_OPTIONS)
        return _view(self, infer_size(shape, self._data.size))
    except (TypeError, RuntimeError) as e:
        _raise_parsed(e, "view", sizes, size=size)


def _raise_parsed(err: Exception, op: str, sizes: tuple, **given) -> None:
    """Raise torch's parser error for a call of Tensor method ``op`` (``*sizes``, the
    keywords ``given`` not None) that its parser refuses; else ``err``."""
    new = _errors.parse_failure(op, True, sizes,
                                {k: v for k, v in given.items() if v is not None})
    if new is None:
        raise err
    raise new from None


def _check_view_dtype(self, dtype) -> None:
    """ATen's ``view(dtype)`` checks when the element size changes."""
    old, new = self.element_size(), dtype.itemsize
    if old == new:
        return
    what = f"to view {self.dtype.scalar_name} as {dtype.scalar_name} (different element sizes)"
    if self.ndim == 0:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    stride = self.stride()
    if old < new:
        ratio = new // old
        if self.shape[-1] % ratio:
            raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got "
                               f"{self.shape[-1]}")
        if self.storage_offset() % ratio:
            raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, "
                               f"but got {self.storage_offset()}")
    if stride[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {stride[-1]}")
    if old < new:
        for i, st in enumerate(stride[:-1]):
            if st % ratio:
                raise RuntimeError(f"self.stride({i}) must be divisible by {ratio} {what}, but "
                                   f"got {st}")


@expose(varargs=True)
def reshape(input, shape):
    """A view when the strides allow it, else a copy, with the new shape (the method takes
    its sizes one by one too)."""
    shape = infer_size(_shape_arg((shape,)), input._data.size)
    if not input._data.flags.c_contiguous:
        try:
            xp.reshape(input._data, shape, copy=False)
        except ValueError:
            return _unsafe_view(clone(input, _mf.contiguous_format), shape)
        return _reshape_alias(input, shape)      # torch's view of strided input
    return _view(input, shape)


@op("ReshapeAliasBackward0", name="_reshape_alias", method=False, function=False, view=True,
    promote=None, self=lambda grad, self_shape: grad.reshape(self_shape))
def _reshape_alias(self, shape):
    """ATen's ``_reshape_alias``: the view ``reshape`` makes of a strided input."""
    return _torch_view(self, self.reshape(shape))


@expose(function=False)
def view_as(self, other):
    return view(self, other.shape)


@expose(function=False)
def reshape_as(self, other):
    return reshape(self, other.shape)


@expose
def flatten(input, start_dim=0, end_dim=-1):
    """Merge dims ``start_dim … end_dim`` into one."""
    if input.is_quantized:
        return input.flatten(start_dim, end_dim)
    nd = input._data.ndim
    if nd == 0:
        return reshape(input, (1,))
    s, e = norm_dim(start_dim, nd), norm_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shp = input._data.shape
    # (the merged size written out: -1 is ambiguous in an empty tensor)
    return reshape(input, shp[:s] + (int(xp.prod(shp[s:e + 1])),) + shp[e + 1:])


@op("UnsqueezeBackward0", name="unsqueeze", view=True, promote=NONE,
    self=lambda grad, dim: grad.squeeze(dim))
def _unsqueeze(self, dim):
    out = self[(slice(None),) * dim + (None,)]
    # torch's stride for the new dim: the next dim's extent (size * stride), 1 at the end;
    # NumPy's newaxis has stride 0
    st = self.strides[dim] * self.shape[dim] if dim < self.ndim else self.itemsize
    if out.strides[dim] != st:
        strides = out.strides[:dim] + (st,) + out.strides[dim + 1:]
        out = xp.lib.stride_tricks.as_strided(out, out.shape, strides,
                                              writeable=out.flags.writeable)
    return out


@expose(overloads=("(Tensor input, int dim)",))
def unsqueeze(input, dim):
    """A view with a new dim of size 1 at ``dim``."""
    return _unsqueeze(input, norm_dim(dim, input._data.ndim + 1))


@op("SqueezeBackward0", name="squeeze_all", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, self_shape: grad.reshape(self_shape))
def _squeeze_all(self):
    return self.squeeze()


@op("SqueezeBackward1", name="squeeze_dim", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, self_shape, dim: grad.reshape(self_shape))
def _squeeze_dim(self, dim):
    # (a 0-d tensor: itself, dim 0 or -1 naming it)
    return self.squeeze(dim) if self.ndim and self.shape[dim] == 1 else self.view()


@op("SqueezeBackward2", name="squeeze_dims", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, self_shape, dim: grad.reshape(self_shape))
def _squeeze_dims(self, dim):
    return self.squeeze(tuple(d for d in dim if self.shape[d] == 1))


@op("SqueezeBackward4", name="squeeze_inplace_dim", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, dim: grad.reshape(self_shape))
def _squeeze_matmul(self, dim):
    """torch's ``mm(...).squeeze_(dim)`` in matmul: in place on a fresh product, so the
    result is no view (an in-place op on it records no ``CopySlices``)."""
    return self.squeeze(dim)


SQUEEZE_OVERLOADS = ("(Tensor input)", "(Tensor input, int dim)",
                     "(Tensor input, tuple of ints dim)")


@expose(overloads=SQUEEZE_OVERLOADS, varargs=True)
def squeeze(input, dim=_errors.NOT_GIVEN):
    """Remove dims of size 1 (all, or only ``dim`` when it has size 1)."""
    nd = input._data.ndim
    if dim is _errors.NOT_GIVEN:
        return _squeeze_all(input)
    if dim is None:
        raise _errors.Unparsed("squeeze() received an invalid combination of arguments")
    if isinstance(dim, (tuple, list)):
        return _squeeze_dims(input, norm_dims(dim, nd) if nd else ())
    return _squeeze_dim(input, norm_dim(dim, nd) if nd else 0)


@op("ExpandBackward0", name="expand_", method=False, function=False, view=True, promote=NONE,
    self=lambda grad, self_shape: grad.sum_to_size(self_shape))
def _expand(self, size):
    lead = len(size) - self.ndim
    strides = [0] * lead + [st if n == m else 0 for st, n, m in
                            zip(self.strides, self.shape, size[lead:])]
    if self.flags.c_contiguous:     # the strided view made directly (as_strided: ~4 us)
        out = xp.ndarray(size, self.dtype, self, 0, strides)
    else:
        out = xp.lib.stride_tricks.as_strided(self, size, strides)
    if any(st == 0 and n > 1 for st, n in zip(strides, size)):
        out.flags.writeable = False     # repeated elements: written only through torch's checks
    return out


@expose(function=False)
def expand(self, *sizes, size=None, implicit=False):
    """A broadcast view with ``sizes`` (-1 keeps a dim); no copy."""
    try:
        return _expand_sizes(self, _shape_arg(
            sizes, size, "size", "expand", ("(tuple of ints size, *, bool implicit = False)",)))
    except (TypeError, RuntimeError) as e:
        _raise_parsed(e, "expand", sizes, size=size)


def _expand_sizes(self, sizes):
    nd = self._data.ndim
    if len(sizes) < nd:
        raise RuntimeError(f"expand({self.type()}{{{list(self.shape)}}}, size={list(sizes)}):"
                           f" the number of sizes provided ({len(sizes)}) must be greater or "
                           f"equal to the number of dimensions in the tensor ({nd})")
    lead = len(sizes) - nd
    out = list(sizes)
    for i in range(len(sizes) - 1, -1, -1):     # torch checks from the last dim
        s = sizes[i]
        if i >= lead:
            cur = self._data.shape[i - lead]
            if s == -1:
                out[i] = cur
            elif cur != 1 and cur != s:
                raise RuntimeError(
                    f"The expanded size of the tensor ({s}) must match the existing size "
                    f"({cur}) at non-singleton dimension {i}.  Target sizes: {list(sizes)}.  "
                    f"Tensor sizes: {list(self.shape)}")
        elif s == -1:
            raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                               f"leading, non-existing dimension {i}")
    return _expand(self, tuple(out))


@expose(function=False)
def expand_as(self, other):
    return expand(self, other.shape)


@expose(function=False)
def sum_to_size(self, *sizes, size=None):
    """Sum ``self`` down to ``size`` (the inverse of broadcasting)."""
    from .util import sum_to_shape
    return sum_to_shape(self, _shape_arg(sizes, size, "size", "sum_to_size"))


def _inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


@op("PermuteBackward0", name="permute_", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, dims: grad.permute(_inverse(dims)))
def _permute(self, dims):
    return self.transpose(dims)


@expose(varargs=True)
def permute(input, dims):
    """A view with the dims reordered (the method takes them one by one too)."""
    dims = _shape_arg((dims,))
    nd = input._data.ndim
    if len(dims) != nd:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {nd} is not equal to len(dims) = {len(dims)}")
    dims = tuple(norm_dim(d, nd) for d in dims)
    if len(set(dims)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _permute(input, dims)


@op("TransposeBackward0", name="transpose_", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1))
def _transpose(self, dim0, dim1):
    return self.swapaxes(dim0, dim1) if self.ndim else self.view()


@expose(overloads=("(Tensor input, int dim0, int dim1)",))
def transpose(input, dim0, dim1):
    """A view with ``dim0`` and ``dim1`` swapped."""
    nd = input._data.ndim
    d0, d1 = norm_dim(dim0, nd), norm_dim(dim1, nd)   # a 0-d tensor accepts 0 and -1
    return _transpose(input, d0, d1) if nd else _transpose(input, 0, 0)


@expose
def swapaxes(input, axis0, axis1):
    """``transpose`` under NumPy's name and parameter names."""
    return transpose(input, axis0, axis1)
swapdims = expose(transpose, name="swapdims")


@op("TBackward0", name="t_", method=False, function=False, view=True, promote=NONE,
    self=lambda grad: grad.t(), raw={"self": lambda grad: grad.T})
def _t(self):
    return self.T


@expose
def t(input):
    """Transpose of a matrix (vectors and scalars are returned as views of themselves)."""
    if input._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{input._data.ndim}D")
    if not _R._state.enabled and input.__class__ is _R.Tensor and _R.run is _R.PLAIN_RUNNERS[0]:
        return _plain_view(input, input._data.T)        # (backward's formulas)
    return _t(input)


def _plain_view(input, arr):
    """What ``run`` does for a view op with no graph to record, inline: ``arr``, a NumPy view
    of ``input``'s array, as a view of ``input``."""
    res = _R._wrap(arr)
    _R._share(res, input)
    return res


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


@expose(overloads=("(Tensor input, int dim, int index)",))
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
    return select_at(input, dim, index % n)


def select_at(input, dim: int, index: int):
    """:func:`select` at a valid ``dim`` and ``index`` (both from 0)."""
    arr = input._data
    if input.__class__ is _R.Tensor and arr.__class__ is xp.ndarray \
            and (arr.dtype.kind != "u" or arr.itemsize == 1) \
            and _R.run is _R.PLAIN_RUNNERS[0] and not _R._requires(_select, (input,)):
        # no graph to record (a dataset's samples): the view as ``run`` makes it
        return _plain_view(input, arr[(builtins.slice(None),) * dim + (index, ...)])
    return _select(input, dim, index)


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


@expose(overloads=("(Tensor input, int dim, Tensor start, int length)",
                    "(Tensor input, int dim, int start, int length)",))
def narrow(input, dim, start, length):
    """A view of ``length`` elements of ``dim`` from ``start``."""
    if not input._data.ndim:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = norm_dim(dim, input._data.ndim)
    n = input._data.shape[dim]
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if not -n <= start <= n:
        raise IndexError(f"start out of range (expected to be in range of [{-n}, {n}], but "
                         f"got {start})")
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
    return _unbind(input, norm_dim(dim, input._data.ndim, scalar=False))


# ----------------------------------------------------------------------------- cat, stack

def _split_grad(grad, sizes, dim):
    out, start = [], 0
    for s in sizes:
        out.append(grad.narrow(dim, start, s))
        start += s
    return out


def _saved_dim(dim: int) -> int:
    """A dim as torch's node keeps it: as given, a negative one read back as a uint64."""
    return dim % (1 << 64)


@expose
def cat(tensors, dim=0, *, out=None):
    """Concatenate tensors along an existing ``dim``."""
    from .registry import _requires_list, record_list
    tensors = list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    if _meta.USED[0]:
        check_devices(tensors)
    if out is not None:
        from .registry import check_out_grad
        check_out_grad("cat", tensors, out)
    if tensors[0].is_quantized and out is None:
        from ..ao.quantization import _ops as quantized
        return quantized.cat(tensors, dim)
    dt = D.result_type(*tensors) if builtins.len(tensors) > 0 else None
    # (legacy empty 1-d tensors are skipped, torch's positions still count them)
    real, numbers = [], []
    for i, t in enumerate(tensors):
        if not (t._data.ndim == 1 and t._data.shape[0] == 0):
            real.append(t)
            numbers.append(i)
    if not real:
        real, numbers = tensors[:1], [0]
    nd = real[0]._data.ndim
    if nd == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = norm_dim(dim, nd)
    ref = real[0]._data.shape
    for i, t in zip(numbers, real):
        s = t._data.shape
        if builtins.len(s) != nd:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {nd} and "
                               f"{builtins.len(s)}")
        for k in range(nd):
            if k != d and s[k] != ref[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {ref[k]} but got size {s[k]} for tensor "
                                   f"number {i} in the list.")
    arrays = [t._data.astype(dt.np, copy=False) for t in real]
    shape = list(ref)
    shape[d] = builtins.sum(a.shape[d] for a in arrays)
    arr = xp.concatenate(arrays, axis=d, out=_mf.empty(shape, dt.np, _mf.common(arrays)))
    from .._tensor import Tensor
    result = Tensor._wrap(arr)
    if out is not None:
        from .registry import _write_out
        return _write_out(out, arr)
    if _requires_list(tensors):
        sizes = [t._data.shape[d] if t._data.ndim else 0 for t in tensors]
        legacy = [t._data.ndim == 1 and t._data.shape[0] == 0 and nd != 1 for t in tensors]
        sizes = [0 if e else s for e, s in zip(legacy, sizes)]
        record_list("CatBackward0", tensors, result,
                    lambda grad: [g[:0, 0] if e else g for g, e in
                                  zip(_split_grad(grad, sizes, d), legacy)], _saved_dim(dim))
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
    if _meta.USED[0]:
        check_devices(tensors)
    if out is not None:
        from .registry import check_out_grad
        check_out_grad("stack", tensors, out)
    shape = tensors[0]._data.shape
    for i, t in enumerate(tensors):
        if t._data.shape != shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(shape)} at entry 0 and {list(t.shape)} at entry {i}")
    d = norm_dim(dim, builtins.len(shape) + 1)
    dt = tensors[0].dtype
    if builtins.any(t.dtype is not dt for t in tensors):   # (one dtype: a batch's samples)
        dt = D.result_type(*tensors)
    npdt = dt.np
    arrays = [a if a.dtype is npdt else a.astype(npdt, copy=False)
              for a in (t._data for t in tensors)]
    stacked = shape[:d] + (builtins.len(arrays),) + shape[d:]
    if d == builtins.len(shape):
        # torch: cat of the unsqueezed inputs, whose new last dim (stride 1) no channels-last
        # format accepts: contiguous
        arrays = [a[..., None] for a in arrays]
        cat_shape, fmt = stacked, None
    else:                               # torch: cat along ``d``, then a view that splits it
        cat_shape = shape[:d] + (shape[d] * builtins.len(arrays),) + shape[d + 1:]
        fmt = _mf.common(arrays)
    arr = xp.concatenate(arrays, axis=d, out=_mf.empty(cat_shape, dt.np, fmt))
    arr = arr.reshape(stacked)
    from .._tensor import Tensor
    result = Tensor._wrap(arr)
    if out is not None:
        from .registry import _write_out
        return _write_out(out, arr)
    if _requires_list(tensors):
        record_list("StackBackward0", tensors, result, lambda grad: list(grad.unbind(d)),
                    _saved_dim(dim))
    return result


# ----------------------------------------------------------------------------- copies

@op("CloneBackward0", promote=NONE, self=lambda grad: grad)
def clone(self, *, memory_format=None):
    """A copy that stays in the graph (``CloneBackward0``); by default it keeps a dense
    layout's strides, as torch's ``preserve_format``."""
    if memory_format is None and _mf.plain_dense(self):
        return self.copy()
    from .._memory_format import copy_to_format
    return copy_to_format(self, memory_format)


@op("ToCopyBackward0", name="_to_copy", method=False, function=False, promote=NONE,
    self=lambda grad: grad)
def _to_copy(self, dtype):
    D.warn_complex_to_real(self.dtype, dtype.np)
    if self.__class__ is _meta.MetaArray:
        return _meta.empty(self.shape, dtype.np)    # (nothing to convert)
    r = D.cast(self, dtype)
    if not (_mf.plain_dense(self) or (self.flags.c_contiguous and self.size
                                      and _mf._same_steps(r, self))):
        target = _mf.empty_like(self, r.dtype)      # torch's empty_like (preserve_format)
        if target.strides != r.strides or not r.size:
            xp.copyto(target, r)
            r = target
    if dtype is D.bfloat16 and self.dtype in (xp.float32, xp.float64) and r.ndim and r.size:
        _vector_bf16_nans(self, r)
    return r


def _vector_bf16_nans(src, r):
    """torch's float32/float64 -> bfloat16 copy converts with vectors (``cvtfp32_bf16``,
    whose NaN is 0xFFFF) and one by one elsewhere (NaN 0x7FC0, as NumPy). float32: every
    element where the inner dim steps contiguously through both tensors (its kernel's tail
    is a partial vector), none where it is strided or broadcast; float64 (``vec::convert``
    along contiguous rows): steps of 16 elements, each row's rest one by one."""
    nan = xp.isnan(src)
    if not nan.any():
        return
    if src.dtype == xp.float64:
        from . import _sleef
        nan &= ~_sleef._scalar_mask(src, step=16)
    else:
        dims = [d for d in range(r.ndim) if r.shape[d] != 1]
        if dims and src.strides[min(dims, key=lambda d: r.strides[d])] != src.itemsize:
            return
    r.view(xp.uint16)[nan] = 0xFFFF



# ----------------------------------------------------------------------------- more views

def _dims_list(d):
    return list(d) if isinstance(d, (tuple, list)) else [d]


@expose(overloads=("(Tensor input, int source, int destination)",
                    "(Tensor input, tuple of ints source, tuple of ints destination)",))
def movedim(input, source, destination):
    """Move the dims ``source`` to the positions ``destination`` (a permuted view)."""
    nd = input._data.ndim
    src, dst = _dims_list(source), _dims_list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) "
                           f"should contain the same number of dims as destination ({dst} dims)")
    src = [norm_dim(d, nd) for d in src]
    dst = [norm_dim(d, nd) for d in dst]
    if len(set(src)) != len(src):
        raise RuntimeError(f"movedim: repeated dim in `source` ({_dims_list(source)})")
    if len(set(dst)) != len(dst):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({_dims_list(destination)})")
    if nd == 0:
        from .indexing import _alias
        return _alias(input)
    perm = [-1] * nd
    for s, d in zip(src, dst):
        perm[d] = s
    rest = iter(d for d in range(nd) if d not in src)
    perm = [p if p != -1 else next(rest) for p in perm]
    return _permute(input, tuple(perm))


moveaxis = expose(movedim, name="moveaxis")


def _matrix_T(self):
    if self._data.ndim == 0:        # (torch's: a 0-d tensor is its own)
        return self
    if self._data.ndim < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {self._data.ndim}-D tensor.")
    return transpose(self, -2, -1)


def _matrix_H(self):
    if self._data.ndim == 0:
        return self.conj()
    if self._data.ndim < 2:
        raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. "
                           f"Got {self._data.ndim}-D tensor.")
    return adjoint(self)


def _H(self):
    if self._data.ndim not in (0, 2):
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{self._data.ndim}-D tensor.")
    return transpose(self, 0, 1) if self._data.ndim == 2 else self


@expose
def adjoint(input):
    """The conjugate transpose of the last two dims (a view for real tensors; a 0-d tensor's
    conjugate)."""
    if input._data.ndim == 0:
        return input.conj()
    if input._data.ndim < 2:
        raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of "
                           f"matrices. Got {input._data.ndim}-D tensor.")
    out = transpose(input, -2, -1)
    return out.conj() if input.dtype.is_complex else out


def _install_properties():
    from .._tensor import Tensor
    Tensor.mT = property(_matrix_T, doc="Transpose of the last two dims (a view).")
    Tensor.mH = property(_matrix_H, doc="Conjugate transpose of the last two dims.")
    Tensor.H = property(_H, doc="Conjugate transpose of a matrix.")


_install_properties()


@expose(varargs=True)
def broadcast_to(input, size):
    """``input`` expanded to ``size`` (a view; the method takes the sizes one by one too)."""
    return expand(input, _shape_arg((size,)))


@expose(method=False)
def broadcast_tensors(*tensors):
    """Expand each tensor to the shapes' broadcast (views; a tensor already that shape as is)."""
    from .util import broadcast_shapes
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = broadcast_shapes(*[t._data.shape for t in tensors])
    return tuple(t if t._data.shape == shape else _expand(t, shape) for t in tensors)


def _repeat_backward(grad, self_shape, repeats):
    lead = len(repeats) - len(self_shape)
    shape = (1,) * lead + tuple(self_shape)
    inter, dims = [], []
    for r, s in zip(repeats, shape):
        if r != 1:
            dims.append(len(inter))
            inter.append(r)
        inter.append(s)
    g = grad.reshape(inter) if dims else grad
    if dims:
        g = g.sum(tuple(dims))
    return g.reshape(self_shape)


@op("RepeatBackward0", name="repeat_", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, repeats: _repeat_backward(grad, self_shape, repeats))
def _repeat(self, repeats):
    lead = len(repeats) - self.ndim
    out = xp.tile(self.reshape((1,) * lead + self.shape), repeats)
    return out if out.flags.c_contiguous else out.copy(order="C")     # (torch's: contiguous)


@expose(function=False)
def repeat(self, *sizes, repeats=None):
    """Tile the tensor ``sizes[i]`` times along each dim (a copy: ``RepeatBackward0``)."""
    sizes = _shape_arg(sizes, repeats, "repeats", "repeat", ("(tuple of ints repeats)",))
    if len(sizes) < self._data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    shape = (1,) * (len(sizes) - self._data.ndim) + self._data.shape
    target = [int(n) * int(s) for n, s in zip(shape, sizes)]
    for t in target:
        if t < 0:       # torch names the first negative size of the result
            raise RuntimeError(f"Trying to create tensor with negative dimension {t}: {target}")
    return _repeat(self, tuple(max(int(s), 0) for s in sizes))


@expose(varargs=True)
def tile(input, dims):
    """``repeat`` with ``dims`` padded with leading 1s to the tensor's rank (the method takes
    them one by one too)."""
    dims = _shape_arg((dims,))
    dims = (1,) * (input._data.ndim - len(dims)) + dims
    return repeat(input, dims)


@expose
def repeat_interleave(input=None, repeats=None, dim=None, *, output_size=None):
    """Repeat each element ``repeats`` times along ``dim`` (the flattened tensor when None)."""
    from .._tensor import Tensor
    from .indexing import index_select
    if input is None:            # torch.repeat_interleave(repeats=counts)
        input, repeats = repeats, None
    if repeats is None:          # torch.repeat_interleave(counts): the indices repeated
        c = input._data
        return Tensor._wrap(xp.repeat(xp.arange(c.shape[0]), c))
    if dim is None:
        input = flatten(input)
        dim = 0
    nd = input._data.ndim
    dim = norm_dim(dim, nd)
    if isinstance(repeats, Tensor):
        if repeats._data.ndim == 0 or repeats._data.size == 1 and repeats._data.ndim == 1:
            counts = xp.full(input._data.shape[dim], int(repeats._data.reshape(())))
        else:
            counts = repeats._data
            if counts.ndim != 1:
                raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
            if counts.shape[0] != input._data.shape[dim]:
                raise RuntimeError("repeats must have the same size as input along dim, but got "
                                   f"repeats.size(0) = {counts.shape[0]} and input.size({dim})"
                                   f" = {input._data.shape[dim]}")
        if (counts < 0).any():
            raise RuntimeError("repeats can not be negative")
        idx = Tensor._wrap(xp.repeat(xp.arange(len(counts)), counts))
        return index_select(input, dim, idx)
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    shp = input._data.shape
    out = unsqueeze(input, dim + 1)
    out = expand(out, shp[:dim + 1] + (repeats,) + shp[dim + 1:])
    return view(clone(out, _mf.contiguous_format),
                shp[:dim] + (shp[dim] * repeats,) + shp[dim + 1:])


# ----------------------------------------------------------------------------- atleast, stacks

@expose(method=False)
def atleast_1d(*tensors):
    """Each tensor with at least one dim (0-d tensors become shape ``[1]``)."""
    if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
        t = tensors[0]
        return reshape(t, (1,)) if t._data.ndim == 0 else t
    ts = tensors[0] if len(tensors) == 1 else tensors
    return tuple(atleast_1d(t) for t in ts)


@expose(method=False)
def atleast_2d(*tensors):
    """Each tensor with at least two dims (a 1-d tensor becomes a row)."""
    if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
        t = tensors[0]
        nd = t._data.ndim
        return reshape(t, (1, 1)) if nd == 0 else (unsqueeze(t, 0) if nd == 1 else t)
    ts = tensors[0] if len(tensors) == 1 else tensors
    return tuple(atleast_2d(t) for t in ts)


@expose(method=False)
def atleast_3d(*tensors):
    """Each tensor with at least three dims (torch's placement of the new dims)."""
    if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
        t = tensors[0]
        nd = t._data.ndim
        if nd == 0:
            return reshape(t, (1, 1, 1))
        if nd == 1:
            return unsqueeze(unsqueeze(t, 0), -1)
        return unsqueeze(t, -1) if nd == 2 else t
    ts = tensors[0] if len(tensors) == 1 else tensors
    return tuple(atleast_3d(t) for t in ts)


@expose(method=False)
def hstack(tensors, *, out=None):
    """Concatenate along dim 1 (dim 0 for 1-d tensors)."""
    ts = [atleast_1d(t) for t in tensors]
    if not ts:
        raise RuntimeError("hstack expects a non-empty TensorList")
    return cat(ts, 0 if ts[0]._data.ndim == 1 else 1, out=out)


@expose(method=False)
def vstack(tensors, *, out=None):
    """Concatenate along dim 0 after making each tensor at least 2-d."""
    ts = [atleast_2d(t) for t in tensors]
    if not ts:
        raise RuntimeError("vstack expects a non-empty TensorList")
    return cat(ts, 0, out=out)


row_stack = expose(vstack, name="row_stack", method=False)


@expose(method=False)
def dstack(tensors, *, out=None):
    """Concatenate along dim 2 after making each tensor at least 3-d."""
    ts = [atleast_3d(t) for t in tensors]
    if not ts:
        raise RuntimeError("dstack expects a non-empty TensorList")
    return cat(ts, 2, out=out)


@expose(method=False)
def column_stack(tensors, *, out=None):
    """Stack 0-d and 1-d tensors as columns, then concatenate along dim 1."""
    if not tensors:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    ts = [reshape(t, (t._data.size, 1)) if t._data.ndim <= 1 else t for t in tensors]
    return cat(ts, 1, out=out)


# ----------------------------------------------------------------------------- splits

def _cat_grads(grads, dim):
    return cat(grads, dim)


@op("SplitBackward0", name="split_", method=False, function=False, view=True, promote=NONE,
    outputs=-1, self=lambda grads, dim: _cat_grads(grads, dim))
def _split(self, split_size, dim):
    n = self.shape[dim]
    idx = [builtins.slice(None)] * self.ndim
    out = []
    starts = range(0, n, split_size) if split_size else [0]
    for s in starts:
        idx[dim] = builtins.slice(s, builtins.min(s + split_size, n) if split_size else 0)
        out.append(self[tuple(idx)])
    if n == 0 and split_size:
        out = [self[tuple(idx)]]
    return tuple(out)


@op("SplitWithSizesBackward0", name="split_with_sizes", method=False, function=False,
    view=True, promote=NONE, outputs=-1, self=lambda grads, dim: _cat_grads(grads, dim))
def _split_with_sizes(self, split_sizes, dim):
    idx = [builtins.slice(None)] * self.ndim
    out, s = [], 0
    for k in split_sizes:
        idx[dim] = builtins.slice(s, s + k)
        out.append(self[tuple(idx)])
        s += k
    return tuple(out)


@expose(method=False)
def split(tensor, split_size_or_sections, dim=0):
    """Split into chunks of ``split_size`` (or of the given sizes) along ``dim`` (views)."""
    nd = tensor._data.ndim
    if nd == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = norm_dim(dim, nd)
    n = tensor._data.shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if builtins.any(s < 0 for s in sizes) or builtins.sum(sizes) != n:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} "
                               f"(input tensor's size at dimension {d}), but got "
                               f"split_sizes={sizes}")
        return _split_with_sizes(tensor, tuple(sizes), d)
    size = int(split_size_or_sections)
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got "
                           f"split_size={size}")
    if size == 0 and n != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                           f"dimension size of {n}")
    return _split(tensor, size, d)


@expose(function=False, name="split")
def _split_method(self, split_size, dim=0):
    """Split into chunks of ``split_size`` (or of the given sizes) along ``dim`` (views)."""
    return split(self, split_size, dim)


_split_method.__qualname__ = "Tensor.split"     # (torch's is Python: its TypeErrors name it)


@expose
def split_with_sizes(input, split_sizes, dim=0):
    """Split into pieces of the given sizes along ``dim`` (views)."""
    return split(input, list(split_sizes), dim)


def _chunk_size(input, chunks, dim):
    """torch's checks for ``chunk``; the normalised dim, its length and the piece size."""
    nd = input._data.ndim
    if nd == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = norm_dim(dim, nd)
    n = input._data.shape[d]
    return d, n, (n + chunks - 1) // chunks


@expose(overloads=("(Tensor input, int chunks, int dim = 0)",))
def chunk(input, chunks, dim=0):
    """Split into ``chunks`` nearly equal pieces along ``dim`` (the last may be smaller)."""
    d, n, size = _chunk_size(input, chunks, dim)
    if size == 0 and n == 0:        # torch's: ``chunks`` empty pieces
        return input.split_with_sizes([0] * chunks, d)
    return _split(input, size, d)


@op("UnsafeSplitBackward0", name="unsafe_split_", method=False, function=False, promote=NONE,
    outputs=-1, self=lambda grads, dim: _cat_grads(grads, dim))
def _unsafe_split(self, split_size, dim):
    n = self.shape[dim]
    return tuple(xp.split(self, range(split_size, n, split_size), axis=dim))


@expose
def unsafe_split(input, split_size, dim=0):
    """``split`` whose pieces are not tracked as views (node ``UnsafeSplitBackward0``)."""
    nd = input._data.ndim
    if nd == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if int(split_size) <= 0:
        return split(input, split_size, dim)
    return _unsafe_split(input, int(split_size), norm_dim(dim, nd))


@expose
def unsafe_chunk(input, chunks, dim=0):
    """``chunk`` whose pieces are not tracked as views (node ``UnsafeSplitBackward0``)."""
    d, n, size = _chunk_size(input, chunks, dim)
    if n == 0:
        return chunk(input, chunks, dim)
    return _unsafe_split(input, size, d)


def _sections(indices_or_sections, sections, indices, tensor_indices_or_sections):
    """The one of torch's overload names (``sections``, ``indices`` …) that was given."""
    for v in (sections, indices, tensor_indices_or_sections):
        if v is not None:
            return v
    if indices_or_sections is None:
        raise _errors.Unparsed("missing 1 required positional argument: 'indices_or_sections'")
    return indices_or_sections


@expose(overloads=("(Tensor input, tuple of ints indices, int dim = 0)",
                    "(Tensor input, Tensor tensor_indices_or_sections, int dim = 0)",
                    "(Tensor input, int sections, int dim = 0)",))
def tensor_split(input, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                 tensor_indices_or_sections=None):
    """Split at the given indices, or into ``sections`` pieces (the first ones larger)."""
    from .._tensor import Tensor
    indices_or_sections = _sections(indices_or_sections, sections, indices,
                                    tensor_indices_or_sections)
    nd = input._data.ndim
    if nd == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    d = norm_dim(dim, nd)
    n = input._data.shape[d]
    ios = indices_or_sections
    if isinstance(ios, Tensor):
        ios = int(ios.item()) if ios._data.ndim == 0 else [int(v) for v in ios._data]
    if isinstance(ios, (list, tuple)):
        bounds = [0] + [builtins.min(builtins.max(int(i) + (n if i < 0 else 0), 0), n)
                        for i in ios] + [n]
    else:
        k = int(ios)
        if k <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {k}")
        q, r = divmod(n, k)
        bounds = [0]
        for i in range(k):
            bounds.append(bounds[-1] + q + (1 if i < r else 0))
    return tuple(_slice(input, d, s, builtins.max(s, e), 1)
                 for s, e in zip(bounds[:-1], bounds[1:]))


@expose
def hsplit(input, indices_or_sections=None, *, sections=None, indices=None):
    """``tensor_split`` along dim 1 (dim 0 for 1-d tensors)."""
    d = 1 if input._data.ndim > 1 else 0
    return _split_along("hsplit", input, indices_or_sections, sections, indices, d, 1)


def _split_along(name, input, indices_or_sections, sections, indices, d, need):
    """``h``/``v``/``dsplit``: ``tensor_split`` along ``d`` of a tensor of at least ``need``
    dims, a number of sections dividing the dim exactly (torch's errors otherwise)."""
    nd = input._data.ndim
    if nd < need:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {need} dimension, "
                           f"but got a tensor with {nd} dimensions!")
    ios = _sections(indices_or_sections, sections, indices, None)
    if isinstance(ios, int):
        n = input._data.shape[d]
        if ios == 0 or n % ios:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the "
                               f"size of the dimension {n} is not divisible by the split_size "
                               f"{ios}!")
    return tensor_split(input, ios, d)


@expose
def vsplit(input, indices_or_sections=None, *, sections=None, indices=None):
    """``tensor_split`` along dim 0."""
    return _split_along("vsplit", input, indices_or_sections, sections, indices, 0, 2)


@expose
def unflatten(input, dim, sizes):
    """Expand dim ``dim`` into ``sizes`` (a view)."""
    nd = input._data.ndim
    if not nd:      # (torch wraps the error, with its C++ backtrace after these lines)
        raise RuntimeError(f"unflatten got an unexpected error:\nDimension specified as {dim} "
                           "but tensor has no dimensions")
    d = norm_dim(dim, nd)
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    shp = input._data.shape
    bad = RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size "
                       f"of dim {d} ({shp[d]}) in the input tensor")
    try:
        inner = infer_size(sizes, shp[d]) if -1 in sizes else sizes
    except RuntimeError as e:
        # ATen rewords infer_size's "shape '[...]' is invalid" error, and only that one
        if not str(e).startswith("shape '"):
            raise
        raise bad from None
    prod = 1
    for s in inner:
        prod *= s
    if prod != shp[d]:
        raise bad
    return view(input, shp[:d] + tuple(inner) + shp[d + 1:])


# ----------------------------------------------------------------------------- flips, rolls

@op("FlipBackward0", promote=NONE, self=lambda grad, dims: grad.flip(dims))
def _flip(self, dims):
    # (torch's result is empty_like(self): self's layout)
    return _mf.copy_to_format(xp.flip(self, dims) if dims else self, like=self)


@expose(varargs=True)
def flip(input, dims):
    """Reverse the order of elements along ``dims`` (a copy; the method takes them one by
    one too)."""
    dims = _shape_arg((dims,))
    dims = norm_dims(dims, input._data.ndim)      # a 0-d tensor accepts 0 and -1
    return _flip(input, dims if input._data.ndim else ())


@expose
def fliplr(input):
    """Flip along dim 1."""
    if input._data.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return _flip(input, (1,))


@expose
def flipud(input):
    """Flip along dim 0."""
    if input._data.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return _flip(input, (0,))


def _neg(v):
    return tuple(-s for s in v)


@op("RollBackward0", promote=NONE,
    self=lambda grad, shifts, dims: grad.roll(_neg(shifts), dims or None))
def _roll(self, shifts, dims):
    if not dims:
        return xp.roll(self.reshape(-1), shifts).reshape(self.shape)
    return xp.ascontiguousarray(xp.roll(self, shifts, dims))     # torch's is contiguous


@expose(overloads=("(Tensor input, tuple of ints shifts, tuple of ints dims = ())",))
def roll(input, shifts, dims=None):
    """Shift elements circularly along ``dims`` (the flattened tensor when None)."""
    shifts = tuple(_dims_list(shifts))
    if dims is None or (isinstance(dims, (list, tuple)) and not dims):
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                               f"dims:0")
        return _roll(input, shifts, ())
    dims = tuple(_dims_list(dims))
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(dims)}")
    nd = input._data.ndim
    return _roll(input, shifts, tuple(norm_dim(d, nd, scalar=False) for d in dims))


@op("Rot90Backward0", promote=NONE, self=lambda grad, k, dims: grad.rot90(-k, dims))
def _rot90(self, k, dims):
    # ATen's: a flip (self's layout) transposed for odd ``k``; a contiguous clone for 0
    if not k:
        return xp.array(self, order="C")
    d0, d1 = dims
    flipped = _flip.kernel(self, dims if k == 2 else (d1 if k == 1 else d0,))
    return flipped if k == 2 else flipped.swapaxes(d0, d1)


@expose
def rot90(input, k=1, dims=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane of ``dims``."""
    pair = tuple(dims)     # (the parameters kept: a parser error reads them back)
    nd = input._data.ndim
    if len(pair) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(pair)}")
    if nd < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {nd}")
    d0, d1 = norm_dim(pair[0], nd), norm_dim(pair[1], nd)
    if d0 == d1:        # (torch names them as given)
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {pair[0]} "
                           f"and dim1 = {pair[1]}")
    return _rot90(input, int(k) % 4, (d0, d1))


# ----------------------------------------------------------------------------- meshgrid, unfold

@expose(method=False)
def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-d tensors (``indexing='ij'`` or ``'xy'``); views."""
    import warnings
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn(_errors.internal(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument.", "aten/src/ATen/native/TensorShape.cpp:4215"), UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise ValueError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                         f"received: {indexing}")
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t._data.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: {t}")
    ts = list(tensors)
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t._data.size for t in ts)
    out = []
    for i, t in enumerate(ts):
        vs = [1] * len(ts)
        vs[i] = -1
        out.append(_expand(view(t, tuple(vs)), shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


@op("UnfoldBackwardBackward0", name="unfold_backward", method=False, function=False,
    promote=NONE, grad_in=lambda grad, dim, size, step: grad.unfold(dim, size, step))
def _unfold_backward(grad_in, input_sizes, dim, size, step):
    out = xp.zeros(input_sizes, grad_in.dtype)
    win = xp.lib.stride_tricks.sliding_window_view(out, size, axis=dim, writeable=True)
    idx = [builtins.slice(None)] * len(input_sizes)
    idx[dim] = builtins.slice(None, None, step)
    n = grad_in.shape[dim]
    for j in range(n):       # windows may overlap: add them one at a time
        idx[dim] = j * step
        win[tuple(idx)] += grad_in[(builtins.slice(None),) * dim + (j,)]
    return out


@op("UnfoldBackward0", name="unfold_", method=False, function=False, view=True, promote=NONE,
    self=lambda grad, self_shape, dimension, size, step:
        _unfold_backward(grad, self_shape, dimension, size, step))
def _unfold(self, dimension, size, step):
    win = xp.lib.stride_tricks.sliding_window_view(self, size, axis=dimension)
    idx = [builtins.slice(None)] * self.ndim
    idx[dimension] = builtins.slice(None, None, step)
    return win[tuple(idx)]


@expose(function=False)
def unfold(self, dimension, size, step):
    """All windows of ``size`` elements with stride ``step`` along ``dimension`` (a view)."""
    nd = self._data.ndim
    d = norm_dim(dimension, nd) if nd else 0
    n = self._data.shape[d] if nd else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if nd == 0:
        return _view(self, (1,))
    return _unfold(self, d, size, step)


@op("AsStridedBackward0", name="as_strided_", method=False, function=False, view=True,
    promote=NONE, self=lambda grad, self_shape, size, stride, offset, geometry:
        _as_strided_backward(grad, self_shape, size, stride, offset, geometry))
def _as_strided(self, size, stride, offset, geometry):
    from .._storage import root_array
    base = root_array(self)
    it = self.itemsize
    return xp.lib.stride_tricks.as_strided(
        base.reshape(-1)[offset:] if offset else base.reshape(-1),
        size, tuple(s * it for s in stride))


def _positions(size, stride, offset):
    pos = xp.full(tuple(size), offset, dtype=xp.int64)
    for d, (n, s) in enumerate(zip(size, stride)):
        shp = [1] * len(size)
        shp[d] = n
        pos = pos + (xp.arange(n) * s).reshape(shp)
    return pos


def _as_strided_double(gg, input_sizes, size, stride, offset, geometry):
    """The adjoint of the as_strided backward: ``gg`` placed in storage, read as the view."""
    from .._tensor import Tensor
    out_pos = _positions(size, stride, offset)
    in_pos = _positions(input_sizes, *geometry)
    n = int(builtins.max(out_pos.max(initial=0), in_pos.max(initial=0))) + 1
    storage = Tensor._wrap(xp.zeros(n, gg._data.dtype)).index_put(
        (Tensor._wrap(in_pos.reshape(-1)),), gg.reshape(-1))
    return storage[Tensor._wrap(out_pos)]


@op("AsStridedBackwardBackward0", name="as_strided_backward", method=False, function=False,
    promote=NONE, tensors=("grad",),
    grad=lambda grad, input_sizes, size, stride, offset, geometry:
        _as_strided_double(grad, input_sizes, size, stride, offset, geometry))
def _as_strided_backward(grad, input_sizes, size, stride, offset, geometry):
    in_stride, in_offset = geometry
    out_pos = _positions(size, stride, offset)
    in_pos = _positions(input_sizes, in_stride, in_offset)
    n = int(builtins.max(out_pos.max(initial=0), in_pos.max(initial=0))) + 1
    storage = xp.zeros(n, grad.dtype)
    xp.add.at(storage, out_pos.reshape(-1), grad.reshape(-1))
    return storage[in_pos]


@expose
def as_strided(input, size, stride, storage_offset=None):
    """A view of the storage with the given sizes and strides (in elements)."""
    shape, strides = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(shape) != len(strides):
        raise RuntimeError("mismatch in length of strides and shape")
    off = input.storage_offset() if storage_offset is None else int(storage_offset)
    from .._storage import root_array
    check_storage_bounds(shape, strides, off, input.element_size(), root_array(input._data).size)
    geometry = (tuple(input.stride()), input.storage_offset())
    return _as_strided(input, shape, strides, off, geometry)


def check_storage_bounds(size, stride, offset: int, itemsize: int, storage_numel: int) -> None:
    """ATen's ``setStorage`` check: the view must lie inside a storage of ``storage_numel``
    elements."""
    need = offset + 1 + builtins.sum((n - 1) * s for n, s in zip(size, stride)) \
        if all(size) else 0
    if need > storage_numel:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {itemsize} requiring a storage size of {need * itemsize} are out of "
            f"bounds for storage of size {storage_numel * itemsize}")


def _narrow_copy_backward(grad, self_shape, dim, given, length):
    if given < 0 and given + length == 0 < length:
        # torch's backward slices from the start as given: ``x[-2:0]`` is empty
        raise RuntimeError(_errors.broadcast(0, length, dim))
    return _slice_backward(grad, self_shape, dim, given, given + length, 1)


@op("NarrowCopyBackward0", name="narrow_copy_", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, dim, given, length:
        _narrow_copy_backward(grad, self_shape, dim, given, length))
def _narrow_copy(self, dim, start, length, given):
    return self[(builtins.slice(None),) * dim + (builtins.slice(start, start + length),)].copy()


@expose
def narrow_copy(input, dim, start, length):
    """A copy of ``length`` elements of ``dim`` from ``start`` (``narrow``, not a view)."""
    if not input._data.ndim:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = norm_dim(dim, input._data.ndim)
    n = input._data.shape[dim]
    given = start
    start = start + n if start < 0 else start
    if start + length > n:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    return _narrow_copy(input, dim, start, length, given)


@op("UnsafeSplitWithSizesBackward0", name="unsafe_split_with_sizes_", method=False,
    function=False, promote=NONE, outputs=-1, self=lambda grads, dim: _cat_grads(grads, dim))
def _unsafe_split_with_sizes(self, split_sizes, dim):
    bounds = [0]
    for k in split_sizes:
        bounds.append(bounds[-1] + k)
    return tuple(self[(builtins.slice(None),) * dim + (builtins.slice(s, e),)]
                 for s, e in zip(bounds[:-1], bounds[1:]))


@expose
def unsafe_split_with_sizes(input, split_sizes, dim=0):
    """``split_with_sizes`` whose pieces are copies, not tracked as views."""
    split(input, list(split_sizes), dim)        # torch's checks
    return _unsafe_split_with_sizes(input, tuple(int(s) for s in split_sizes),
                                    norm_dim(dim, input._data.ndim))


@expose
def dsplit(input, indices_or_sections=None, *, sections=None, indices=None):
    """``tensor_split`` along dim 2 (of a tensor of at least 3 dims)."""
    return _split_along("dsplit", input, indices_or_sections, sections, indices, 2, 3)
