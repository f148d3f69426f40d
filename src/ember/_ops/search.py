"""Max/min reductions and arg-reductions: max, min, amax, amin, argmax, argmin, maximum,
minimum.

``max(dim)`` returns torch's ``(values, indices)`` named tuple; the gradient flows to the
selected index (``MaxBackward0``). Full ``max()`` and ``amax`` split the gradient evenly
between tied extremes, as torch does.
"""

from __future__ import annotations

from .. import _dtype as D
from .. import _errors
from .._device import xp
from .registry import (
    NONE,
    SAME,
    _write_out,
    check_out_dtype,
    check_out_tuple,
    expose,
    no_complex,
    op,
    run,
    tensor_operands,
    write_outs,
)
from .util import c_order, norm_dim, norm_dims

RETURN_TYPES: dict = {}   # torch.return_types.<name> classes, by name


class _ReadOnlyField:
    """A field of a return type: item ``i``, which cannot be set (a structseq member)."""

    __slots__ = ("i",)

    def __init__(self, i: int):
        self.i = i

    def __get__(self, obj, cls=None):
        return self if obj is None else tuple.__getitem__(obj, self.i)

    def __set__(self, obj, value):
        raise AttributeError("readonly attribute")

    def __delete__(self, obj):
        raise AttributeError("readonly attribute")


def _return_type(name: str, fields: tuple = ("values", "indices")):
    """torch.return_types.<name>: a tuple with named, read-only fields and torch's repr
    (``values, indices`` by default), built as torch's structseqs are: from one sequence of
    ``len(fields)`` items (the ops themselves pass the items)."""
    if name in RETURN_TYPES:
        return RETURN_TYPES[name]
    n = len(fields)

    def __new__(cls, *args, **kwargs):
        if len(args) == n and n != 1 and not kwargs:
            return tuple.__new__(cls, args)
        try:
            (items,) = args
            items = tuple(items)
        except (TypeError, ValueError):
            raise TypeError("constructor requires a sequence") from None
        if len(items) != n:
            raise TypeError(f"torch.return_types.{name}() takes a {n}-sequence "
                            f"({len(items)}-sequence given)")
        return tuple.__new__(cls, items)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{name}(\n{body})"

    def __reduce__(self):
        return type(self), (tuple(self),)

    body = {"__new__": __new__, "__repr__": __repr__, "__reduce__": __reduce__,
            "__slots__": (), "__module__": "torch.return_types", "__match_args__": fields,
            "n_fields": n, "n_sequence_fields": n, "n_unnamed_fields": 0}
    body.update((f, _ReadOnlyField(i)) for i, f in enumerate(fields))
    cls = type(name, (tuple,), body)
    RETURN_TYPES[name] = cls
    return cls


MaxResult, MinResult = _return_type("max"), _return_type("min")


def _even(grad, self, result):
    """torch's evenly_distribute_backward: ties (or NaNs, when the result is NaN) share."""
    r = result._data
    mask = self == result
    if r.dtype.kind in "fc" and xp.isnan(r):
        from .._tensor import Tensor
        mask = Tensor._wrap(xp.isnan(self._data))
    return mask * (grad / mask.sum())


def _even_dims(grad, self, result, dim, keepdim):
    if not keepdim:
        for d in dim:
            result = result.unsqueeze(d)
            grad = grad.unsqueeze(d)
    mask = self == result
    return mask * (grad / mask.sum(dim, keepdim=True))


@op("IndexSelectReductionBackward0", name="value_selecting_backward", method=False,
    function=False, promote=NONE,
    grad=lambda grad, dim, indices, keepdim: _gather_back(grad, dim, indices, keepdim))
def _value_selecting_backward(grad, dim, indices, self_shape, keepdim):
    if not self_shape:
        return grad.copy()
    out = xp.zeros(self_shape, grad.dtype)
    if not keepdim:
        grad = xp.expand_dims(grad, dim)
        indices = xp.expand_dims(indices, dim)
    xp.put_along_axis(out, indices, grad, axis=dim)
    return out


@op("GatherBackward0", name="gather_reduction", method=False, function=False, promote=NONE,
    grad=lambda grad, dim, indices, keepdim, grad_shape:
        _value_selecting_backward(grad, dim, indices, grad_shape, keepdim))
def _gather_back(grad, dim, indices, keepdim):
    if grad.ndim == 0:
        return grad.copy()
    idx = indices if keepdim else xp.expand_dims(indices, dim)
    out = xp.take_along_axis(grad, idx, axis=dim)
    return out if keepdim else xp.squeeze(out, dim)


def _check_nonempty(input, name):
    if input._data.size == 0:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() "
                           "== 0. Specify the reduction dim with the 'dim' argument.")


@op("MaxBackward1", name="max_all", method=False, function=False, promote=NONE,
    self=lambda grad, self, result: _even(grad, self, result))
def _max_all(self):
    _no_complex("max_all", self)
    return xp.max(self)


@op("MinBackward1", name="min_all", method=False, function=False, promote=NONE,
    self=lambda grad, self, result: _even(grad, self, result))
def _min_all(self):
    _no_complex("min_all", self)
    return xp.min(self)


def _no_complex(kernel, arr) -> None:
    if arr.dtype.kind == "c":
        from .unary import _type_name
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(arr)}'")


def _dim_reduction(arg):
    def kernel(self, dim, keepdim=False):
        if self.ndim == 0:
            return self.copy(), xp.zeros((), xp.int64)
        idx = arg(self, axis=dim, keepdims=True)
        vals = xp.take_along_axis(self, idx, axis=dim)
        if not keepdim:
            vals, idx = xp.squeeze(vals, dim), xp.squeeze(idx, dim)
        return vals, idx.astype(xp.int64)
    return kernel


_max_dim = op("MaxBackward0", name="max_dim", method=False, function=False, promote=NONE,
              outputs=2, saved_results={"indices": 1},
              self=lambda grads, self_shape, dim, keepdim, indices:
              _value_selecting_backward(grads[0], dim, indices._data, self_shape, keepdim))
_min_dim = op("MinBackward0", name="min_dim", method=False, function=False, promote=NONE,
              outputs=2, saved_results={"indices": 1},
              self=lambda grads, self_shape, dim, keepdim, indices:
              _value_selecting_backward(grads[0], dim, indices._data, self_shape, keepdim))


def _max_kernel(self, dim, keepdim=False, indices=None):
    return _dim_reduction(xp.argmax)(self, dim, keepdim)


def _min_kernel(self, dim, keepdim=False, indices=None):
    return _dim_reduction(xp.argmin)(self, dim, keepdim)


_max_dim = _max_dim(_max_kernel)
_min_dim = _min_dim(_min_kernel)


def _check_reduce_dims(input, dims, name, given=None) -> None:
    """torch's IndexError for a reduction over a dim of size 0 (``max(dim)``, ``amax``,
    ``argmax``…; named as ``given``, the dims as passed, else normalised), and for ``name``
    over all dims of an empty tensor (``dims`` None)."""
    shape = input._data.shape
    if dims is None:
        if input._data.size == 0:
            if name in ("amax", "amin"):
                raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                                   "input.numel() == 0. Specify the reduction dim with the "
                                   "'dim' argument.")
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        return
    for d, shown in zip(dims, given or dims):
        if shape and shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {shown} to have non-zero size.")


def _run_dim(d, input, dim, keepdim, result_type, out):
    check_out_tuple("max" if d is _max_dim else "min", out)
    nd = input._data.ndim
    dim = norm_dim(dim, nd)             # (a 0-d tensor takes dim 0 or -1)
    _check_reduce_dims(input, (dim,), "max" if d is _max_dim else "min")
    if input.dtype.is_complex:
        raise RuntimeError(f"{'max' if d is _max_dim else 'min'}(): does not support complex "
                           "input")
    values, indices = run(d, (input, dim, keepdim, None))   # (the node saves these indices)
    if out is not None:
        return write_outs(out, (values, indices), result_type)
    return result_type(values, indices)


_MAX_OVERLOADS = ("(Tensor input, *, Tensor out = None)",
                  "(Tensor input, Tensor other, *, Tensor out = None)",
                  "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)")


def _max_min(name, input, dim, keepdim, other, out):
    """max/min: of all elements; with ``dim``, ``(values, indices)``; with a tensor, the
    elementwise one (a call fitting none of torch's overloads: :class:`_errors.Unparsed`)."""
    from .._tensor import Tensor
    if other is not None:
        return (maximum if name == "max" else minimum)(input, other)
    if isinstance(dim, Tensor):
        return (maximum if name == "max" else minimum)(input, dim)
    if dim is None:
        raise _errors.Unparsed(f"{name}() received an invalid combination of arguments")
    if dim is _errors.NOT_GIVEN:
        dim = None
    if dim is None and keepdim or isinstance(dim, bool) or \
            not isinstance(keepdim, (bool, xp.bool_)) or \
            out is not None and isinstance(out, (tuple, list)) is (dim is None):
        raise _errors.Unparsed(f"{name}() received an invalid combination of arguments")
    if dim is None:
        if out is not None:
            return _max_min_all_out(name, input, out)
        _check_nonempty(input, name)
        return run(_max_all if name == "max" else _min_all, (input,), out)
    return _run_dim(_max_dim if name == "max" else _min_dim, input, dim, keepdim,
                    MaxResult if name == "max" else MinResult, out)


def _max_min_all_out(name, input, out):
    """``max(input, out=)``/``min``: torch's ``unary_out`` checks that the result casts to
    ``out``, and its kernel reduces an empty tensor to its identity (no error)."""
    if not D.can_cast(input.dtype, out.dtype):
        raise RuntimeError(_errors.check_failed(
            "canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType(out.dtype()))"))
    if input._data.size or input.dtype.is_complex:
        return run(_max_all if name == "max" else _min_all, (input,), out)
    from .registry import _write_out
    npdt = input._data.dtype
    if npdt.kind == "b":
        ident = name == "min"
    elif npdt.kind in "iu":
        info = xp.iinfo(npdt)
        ident = info.min if name == "max" else info.max
    else:
        ident = -xp.inf if name == "max" else xp.inf
    return _write_out(out, xp.full((), ident, npdt))


@expose(overloads=_MAX_OVERLOADS, bools=("keepdim",))
def max(input, dim=_errors.NOT_GIVEN, keepdim=False, *, other=None, out=None):
    """The largest element; with ``dim``, ``(values, indices)``; with a tensor, maximum."""
    return _max_min("max", input, dim, keepdim, other, out)


@expose(overloads=_MAX_OVERLOADS, bools=("keepdim",))
def min(input, dim=_errors.NOT_GIVEN, keepdim=False, *, other=None, out=None):
    """The smallest element; with ``dim``, ``(values, indices)``; with a tensor, minimum."""
    return _max_min("min", input, dim, keepdim, other, out)


@op("AmaxBackward0", name="amax_", method=False, function=False, promote=NONE,
    self=lambda grad, self, result, dim, keepdim: _even_dims(grad, self, result, dim, keepdim))
def _amax(self, dim, keepdim=False):
    return c_order(xp.max(self, axis=dim, keepdims=keepdim))


@op("AminBackward0", name="amin_", method=False, function=False, promote=NONE,
    self=lambda grad, self, result, dim, keepdim: _even_dims(grad, self, result, dim, keepdim))
def _amin(self, dim, keepdim=False):
    return c_order(xp.min(self, axis=dim, keepdims=keepdim))


@expose(bools=("keepdim",))
def amax(input, dim=(), keepdim=False, *, out=None):
    """The maximum over ``dim`` (all dims when empty); ties share the gradient."""
    return _extreme_values(_amax, "max_values_cpu", "amax", input, dim, keepdim, out)


@expose(bools=("keepdim",))
def amin(input, dim=(), keepdim=False, *, out=None):
    """The minimum over ``dim`` (all dims when empty); ties share the gradient."""
    return _extreme_values(_amin, "min_values_cpu", "amin", input, dim, keepdim, out)


def _extreme_values(d, kernel, name, input, dim, keepdim, out):
    if out is not None and out.dtype is not input.dtype:
        raise RuntimeError(f"Expected the dtype for input and out to match, but got "
                           f"{input.dtype.scalar_name} for input's dtype and "
                           f"{out.dtype.scalar_name} for out's dtype.")
    dim = () if dim is None else dim
    _check_extreme_dims(input, dim, name)        # (before a repeated dim's error, as torch)
    dims = _reduction_dims(input, dim)
    if input._data.size:        # (an empty result: no kernel is looked for)
        _no_complex_kernel(input, kernel)
    res = d(input, dims, keepdim)
    return res if out is None else _write_out(out, res._data)


def _no_complex_kernel(input, kernel) -> None:
    """torch's dispatch error for a kernel built without complex types."""
    if input.dtype.is_complex:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{input.dtype.scalar_name}\'')


def _check_extreme_dims(input, dim, name) -> None:
    if dim == () or dim == []:
        _check_reduce_dims(input, None, name)
    else:
        given = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
        nd = input._data.ndim
        # torch walks the dims in the order given and names one as given
        _check_reduce_dims(input, [norm_dim(d, nd) for d in given] if nd else (), name, given)


def _reduction_dims(input, dim) -> tuple:
    """``dim`` normalised; a 0-d tensor accepts dim 0 / -1 and reduces over nothing."""
    dims = norm_dims(dim if dim != () and dim != [] else None, input._data.ndim)
    return dims if input._data.ndim else ()


_ARG_OVERLOADS = ("(Tensor input, int dim = None, bool keepdim = False, *, Tensor out = None)",)


def _arg(fn, input, dim, keepdim, out=None):
    from .._tensor import Tensor
    if not (dim is None or hasattr(dim, "__index__")):      # (the parser's, first)
        raise _errors.Unparsed(f"{fn.__name__}(): argument 'dim' must be int")
    data = input._data
    if input.dtype.is_complex:
        raise RuntimeError(f"{fn.__name__}(): does not support complex input")
    if input.dtype is D.bool:
        raise RuntimeError(f"{fn.__name__}(): does not support bool input")
    _check_reduce_dims(input, None if dim is None else (norm_dim(dim, data.ndim),)
                       if data.ndim else (), fn.__name__)
    check_out_dtype(out, D.int64)
    if dim is None:
        res = fn(data.reshape(-1))
        if keepdim:
            res = xp.asarray(res).reshape((1,) * data.ndim)
    else:
        d = norm_dim(dim, data.ndim)    # (a 0-d tensor takes dim 0 or -1)
        res = fn(data, axis=d, keepdims=keepdim) if data.ndim else 0
    res = xp.asanyarray(res, xp.int64)     # (a meta stand-in stays one)
    return Tensor._wrap(res) if out is None else _write_out(out, res)


@expose(overloads=_ARG_OVERLOADS, bools=("keepdim",))
def argmax(input, dim=None, keepdim=False, *, out=None):
    """Index of the largest element (flattened when ``dim`` is None)."""
    D.no_barebones_kernel("argmax_cpu", input.dtype)
    return _arg(xp.argmax, input, dim, keepdim, out)


@expose(overloads=_ARG_OVERLOADS, bools=("keepdim",))
def argmin(input, dim=None, keepdim=False, *, out=None):
    """Index of the smallest element (flattened when ``dim`` is None)."""
    D.no_barebones_kernel("argmin_cpu", input.dtype)
    return _arg(xp.argmin, input, dim, keepdim, out)


def _pick(grad, self, other, greater):
    """derivatives.yaml's ``where(self == other, grad / 2, grad).masked_fill_(self < other, 0)``
    (``>`` for the minimum): a NaN operand takes the whole gradient on both sides."""
    from .pointwise import where
    loses = (self < other) if greater else (self > other)
    return where(self == other, grad / 2, grad).masked_fill(loses, 0)


@op("MaximumBackward0", promote=SAME, check=tensor_operands("maximum", then=no_complex("maximum")),
    self=lambda grad, self, other: _pick(grad, self, other, True),
    other=lambda grad, self, other: _pick(grad, other, self, True))
def maximum(self, other):
    """Element-wise maximum (NaN propagates)."""
    return xp.maximum(self, other)


@op("MinimumBackward0", promote=SAME, check=tensor_operands("minimum", then=no_complex("minimum")),
    self=lambda grad, self, other: _pick(grad, self, other, False),
    other=lambda grad, self, other: _pick(grad, other, self, False))
def minimum(self, other):
    """Element-wise minimum (NaN propagates)."""
    return xp.minimum(self, other)
