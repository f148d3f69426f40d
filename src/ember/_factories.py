"""Tensor factories: ``tensor``, ``zeros``, ``arange``, ``randn`` … and their ``_like`` forms.

Python data takes torch's dtypes: floats the default dtype, ints int64, bools bool; NumPy
arrays keep theirs. Random factories draw from :mod:`ember.random` in torch's exact order.
"""

from __future__ import annotations

import builtins
import math
import warnings

import numpy as np

from . import _dtype as D
from . import _errors, _meta
from . import _memory_format as _mf
from ._device import META, xp
from ._device import check as check_device
from ._ops import _exact
from ._ops.util import as_size
from ._storage import borrow, own_strides
from ._tensor import Tensor

__all__ = ["tensor", "as_tensor", "from_numpy", "asarray", "zeros", "ones", "full", "empty",
           "arange", "range", "linspace", "logspace", "eye", "zeros_like", "ones_like",
           "full_like", "empty_like", "rand", "randn", "randint", "randperm", "normal",
           "rand_like", "randn_like", "randint_like", "bernoulli", "multinomial",
           "scalar_tensor"]


def _finish(t: Tensor, requires_grad: bool, device=None) -> Tensor:
    _meta.placed(t, device)
    if requires_grad:
        if requires_grad is not True and not _errors._matches("bool", requires_grad):
            raise _errors.call_failure() or TypeError("requires_grad must be bool")
        dt = t.dtype
        if not (dt.is_floating_point or dt.is_complex):
            raise RuntimeError(_errors.INT_REQUIRES_GRAD_FACTORY)
        t._requires_grad = True
    return t


def _meta_empty(shape, npdt, device, requires_grad=False) -> Tensor | None:
    """A meta tensor of ``shape`` when ``device`` (None: the default) is ``meta``, else None:
    the factories' way round allocating (and drawing) what a meta tensor does not hold."""
    if check_device(device) is not META:
        return None
    return _finish(Tensor._wrap(_meta.empty(shape, npdt)), requires_grad)


def _np_dtype(dtype, default=None):
    if dtype is None:
        return (default or D.get_default_dtype()).np
    if not isinstance(dtype, D.dtype):
        if dtype in (builtins.float,):
            return np.dtype(np.float64)
        if dtype in (builtins.int,):
            return np.dtype(np.int64)
        if dtype in (builtins.bool,):
            return np.dtype(np.bool_)
        raise _errors.call_failure() or TypeError(
            f"dtype must be ember.dtype, not {type(dtype).__name__}")
    return dtype.np


def _infer(data, target: np.dtype | None = None):
    """Data as a NumPy array with torch's dtype inference.

    With ``target``, Python numbers go straight to that dtype, as torch stores them (a
    float64 request keeps ``1e-300``; an int64 request keeps ints beyond 2**53 exact)."""
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, np.ndarray):
        _check_ndarray(data)
        return data
    if isinstance(data, np.generic):
        return np.asarray(data)
    leaf = None
    if isinstance(data, (list, tuple)) and data:
        if isinstance(_first(data), Tensor):          # tensors in a list are scalars to torch
            leaf = _leaf_dtype(data)
            data = _tensor_scalars(data)
        elif isinstance(data[0], np.ndarray):
            _errors.warn_once("list of ndarrays", _errors.LIST_OF_NDARRAYS)
    try:
        arr = np.array(data)
    except ValueError as e:
        empty = _torch_ragged(data)
        if empty is not None:
            return empty.astype(D.get_default_dtype().np if target is None else target)
        raise ValueError(_ragged_message(data)) from e
    if target is not None and arr.dtype.kind in "fcuiO" and not _has_numpy_floats(data):
        return _python_to(data, arr, target)
    if arr.dtype.kind == "u" or (arr.dtype == object and _has_big_int(data)):
        raise ValueError("Overflow when unpacking long long")
    if arr.dtype == object:
        bad = _first_unsupported(data)
        if bad:
            raise RuntimeError(f"Could not infer dtype of {type(bad[0]).__name__}")
        if isinstance(data, (list, tuple)):
            empty = _torch_ragged(data)
            if empty is not None:
                return empty.astype(D.get_default_dtype().np if target is None else target)
            raise TypeError(_ragged_message(data))
        raise TypeError(f"Could not infer dtype of {type(data).__name__}")
    kind = arr.dtype.kind
    if kind in "fciu" and _has_numpy_floats(data):
        return D.cast(arr, leaf or _leaf_dtype(data))
    if kind == "f":
        return arr.astype(D.get_default_dtype().np)
    if kind == "c":
        return arr.astype(D.get_default_dtype().to_complex().np)
    if kind in "iu":
        return arr if arr.dtype == np.int64 else arr.astype(np.int64)
    if kind == "b":
        return arr
    if kind in "US":
        # torch sizes the data along its first elements (a str there is a sequence without
        # end), then fails storing a str met elsewhere
        first = _first(data)
        if isinstance(data, (list, tuple)) and isinstance(first, str):
            raise ValueError(f"too many dimensions '{type(first).__name__}'")
        bad = next(x for x in np.asarray(data, dtype=object).reshape(-1)
                   if isinstance(x, (str, bytes)))
        raise TypeError(f"new(): invalid data type '{type(bad).__name__}'")
    raise TypeError(f"Could not infer dtype of {type(data).__name__}")


def _has_big_int(data) -> bool:
    """Whether ``data`` holds a Python int that does not fit int64."""
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, int) and not -2 ** 63 <= x < 2 ** 63:
            return True
    return False


_overflow = D.overflow_error


def _python_to(data, arr: np.ndarray, npdt: np.dtype) -> np.ndarray:
    """Python numbers (``arr`` is NumPy's exact reading of them) stored as ``npdt``."""
    kind = npdt.kind
    if npdt == _U64 and arr.dtype.kind != "b":
        return _python_to_u64(data, arr)
    if arr.dtype == object or arr.dtype.kind == "u":     # ints beyond int64
        if kind not in "fc":
            raise ValueError("Overflow when unpacking long long")
        return np.array(data, dtype=npdt)
    if kind in "fc":       # a Python float is a double: one rounding (two to float16)
        if arr.dtype.kind == "c" and kind == "f":
            raise TypeError("must be real number, not complex")
        with np.errstate(over="ignore"):
            return D.through_float(arr, npdt).astype(npdt)
    if kind == "b":
        return arr.astype(npdt)
    if arr.dtype.kind == "c":
        raise TypeError("must be real number, not complex")
    info = np.iinfo(npdt)
    low = info.min if info.min < 0 else -info.max      # unsigned: negatives wrap, as torch
    if arr.dtype.kind == "f":
        if arr.size and not (np.isfinite(arr).all() and arr.min() >= info.min
                             and arr.max() <= info.max):
            raise _overflow(npdt)
        arr = np.array(data, dtype=np.int64)            # each number on its own: ints exact
    elif arr.size and (arr.min() < low or arr.max() > info.max):
        raise _overflow(npdt)
    return arr.astype(npdt)


_U64 = np.dtype(np.uint64)


def _python_to_u64(data, arr: np.ndarray) -> np.ndarray:
    """Python numbers stored as uint64: torch reads each as an unsigned 64-bit int, which
    refuses floats, negative ints and ints past ``2**64 - 1``."""
    if arr.dtype.kind == "i":
        if arr.size and arr.min() < 0:
            raise OverflowError("can't convert negative int to unsigned")
        return arr.astype(np.uint64)
    leaves = np.array(data, dtype=object)
    for x in leaves.reshape(-1).tolist():
        if not isinstance(x, int):
            raise TypeError("an integer is required")
        D.check_python_int(x)
        if x < 0:
            raise OverflowError("can't convert negative int to unsigned")
    return leaves.astype(np.uint64)


def _fill_value(value, npdt: np.dtype, numel: int):
    """``value`` checked as torch's ``fill_`` converts a Scalar (see ``D.checked_scalar``)."""
    if isinstance(value, Tensor):
        value = value.item()
    return D.checked_scalar(value, npdt, numel)


def _first_unsupported(data):
    """``(x,)`` for the first element ``x`` that is neither a number nor a sequence (torch
    names its type; it may be None), else ``()``."""
    import numbers
    stack = [data]
    while stack:
        x = stack.pop(0)
        if isinstance(x, (list, tuple)):
            stack[:0] = list(x)
        elif not isinstance(x, (numbers.Number, np.generic, np.ndarray, Tensor, str)):
            return (x,)
    return ()


def _first(data):
    while isinstance(data, (list, tuple)) and data:
        data = data[0]
    return data


def _has_numpy_floats(data) -> bool:
    return isinstance(_first(data), (np.generic, np.ndarray, Tensor))


def _tensor_scalars(x):
    """``x`` with each tensor replaced by its one element (a 0-d array of its dtype), as torch
    reads a sequence: a tensor of another size raises what converting it to a number does."""
    if isinstance(x, Tensor):
        if x._data.size != 1:
            x.__index__() if x.dtype.is_floating_point is x.dtype.is_complex else x.__float__()
        a = x._data.reshape(())
        return a.astype(np.float32) if a.dtype in D.REDUCED else a
    if isinstance(x, (list, tuple)):
        return [_tensor_scalars(e) for e in x]
    return x


def _leaf_dtype(data) -> D.dtype:
    """torch's infer_scalar_type of a sequence: the promotion of every leaf's own type (a
    tensor's or array's dtype, a NumPy scalar's, Python's float as the default dtype, int as
    int64), with no category rules for Python numbers: ``[tensor(1.5), 2.0]`` is float32."""
    out, stack = None, [data]
    while stack:
        x = stack.pop()         # (leaves in order: torch's messages name them so)
        if isinstance(x, Tensor):
            d = x.dtype
        elif isinstance(x, (np.ndarray, np.generic)):
            d = D.from_numpy_dtype(x.dtype)
        elif isinstance(x, (list, tuple)):
            if x:
                stack.extend(reversed(x))
                continue
            d = D.get_default_dtype()
        elif isinstance(x, builtins.bool):
            d = D.bool
        elif isinstance(x, builtins.int):
            d = D.int64
        elif isinstance(x, builtins.float):
            d = D.get_default_dtype()
        else:
            d = D.get_default_dtype().to_complex()
        out = d if out is None else D.promote_types(out, d)
    return out


def _torch_ragged(data):
    """torch's reading of nested sequences NumPy refuses: the sizes are those of the first
    elements; a size of 0 stores nothing (an empty array of those sizes is returned), else
    each sequence must have its dim's length and hold numbers at the last dim (torch's
    errors; None when its message is the one of :func:`_ragged_message`)."""
    sizes, x = [], data
    while isinstance(x, (list, tuple)):
        sizes.append(len(x))
        if not x:
            break
        x = x[0]
    if 0 in sizes:
        return np.zeros(sizes)
    ints = isinstance(x, builtins.int)

    def store(x, d):
        if d == len(sizes):
            if isinstance(x, (list, tuple)):
                raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an "
                                "integer" if ints else
                                f"must be real number, not {type(x).__name__}")
            return
        if not isinstance(x, (list, tuple)):
            raise TypeError("not a sequence")
        if len(x) != sizes[d]:
            raise ValueError(f"expected sequence of length {sizes[d]} at dim {d} "
                             f"(got {len(x)})")
        for e in x:
            store(e, d + 1)
    store(data, 0)
    return None


def _ragged_message(data) -> str:
    def walk(x, dim):
        if not isinstance(x, (list, tuple)):
            return None
        first = x[0] if x else None
        n0 = len(first) if isinstance(first, (list, tuple)) else None
        for e in x:
            n = len(e) if isinstance(e, (list, tuple)) else None
            if n != n0:
                return f"expected sequence of length {n0} at dim {dim + 1} (got {n})"
        for e in x:
            r = walk(e, dim + 1)
            if r:
                return r
        return None
    return walk(data, 0) or "could not build a tensor from the given data"


def tensor(data, *, dtype: D.dtype | None = None, device=None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, numbers, arrays).

    >>> import ember
    >>> ember.tensor([[1, 2], [3, 4]])
    tensor([[1, 2],
            [3, 4]])
    """
    if isinstance(data, Tensor):
        warn_copy_construct("torch.tensor")
    return copy_of(data, dtype, requires_grad, device)


def warn_copy_construct(spelling: str) -> None:
    """torch's warning for a tensor built from a tensor (``spelling``: the call named)."""
    warnings.warn("To copy construct from a tensor, it is recommended to use "
                  "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
                  f"requires_grad_(True), rather than {spelling}(sourceTensor).",
                  UserWarning, stacklevel=3)


def copy_of(data, dtype, requires_grad: bool, device) -> Tensor:
    """``torch.tensor``'s copy of ``data``, without its warning."""
    check_device(device, copy=True)
    if isinstance(dtype, D.dtype) and dtype.np in D.REDUCED:
        arr = D.cast(np.asarray(_infer(data)), dtype)
        return _finish(Tensor._wrap(np.array(arr, copy=True)), requires_grad, device)
    target = None if dtype is None else _np_dtype(dtype)
    arr = _infer(data, target)
    arr = np.array(D.through_float(arr, target), dtype=target, copy=True)
    return _finish(Tensor._wrap(arr), requires_grad, device)


def as_tensor(data, dtype: D.dtype | None = None, device=None) -> Tensor:
    """``data`` as a tensor, sharing memory with a NumPy array or tensor when possible."""
    if isinstance(data, Tensor):
        if device is not None:
            data = data.to(device)
        return data if dtype is None or dtype is data.dtype else data.to(dtype)
    arr = _infer(data, None if dtype is None or dtype.np in D.REDUCED else dtype.np)
    if dtype is not None and arr.dtype != dtype.np:
        arr = D.cast(arr, dtype)
    if check_device(device, copy=True) is META:
        return _finish(Tensor._wrap(arr), False, META)
    if arr is data:
        _check_writable(arr)
    return Tensor._wrap(_plain(arr) if isinstance(data, np.ndarray) else np.array(arr))


def _plain(arr: np.ndarray) -> np.ndarray:
    """``arr``'s memory as a plain ndarray (a memmap or another subclass shared, not kept:
    Ember's kernels tell arrays from meta stand-ins and sparse data by class)."""
    return arr if arr.__class__ is np.ndarray else arr.view(np.ndarray)


def asarray(obj, *, dtype: D.dtype | None = None, device=None, copy: bool | None = None,
            requires_grad: bool = False) -> Tensor:
    """``obj`` as a tensor, sharing memory unless ``copy`` (or a dtype change) needs a copy."""
    if copy is False and dtype is not None and isinstance(obj, (Tensor, np.ndarray)) and (
            (obj.dtype if isinstance(obj, Tensor) else D.from_numpy_dtype(obj.dtype)) is not dtype):
        src = obj.dtype if isinstance(obj, Tensor) else D.from_numpy_dtype(obj.dtype)
        raise ValueError(f"can't alias tensor with dtype '{_short(src)}' into dtype "
                         f"'{_short(dtype)}'.")
    t = as_tensor(obj, dtype=dtype, device=device)
    if copy:
        t = Tensor._wrap(t._data.copy())
    if requires_grad:
        t = _finish(t if t is not obj else Tensor._wrap(t._data), True)
    return t


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``ndarray``."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_errors.type_name(ndarray)})")
    _check_ndarray(ndarray)
    _check_writable(ndarray)
    ndarray = _plain(ndarray)
    borrow(ndarray)
    if not ndarray.size:
        own_strides(ndarray)
    return Tensor._wrap(ndarray)


_writable_warned = [False]


def _check_writable(arr: np.ndarray) -> None:
    """torch's ``TORCH_WARN_ONCE`` for a tensor made over a read-only NumPy array."""
    if not arr.flags.writeable and not _writable_warned[0]:
        _writable_warned[0] = True
        import warnings
        warnings.warn(_errors.internal(
            "The given NumPy array is not writable, and PyTorch does not support non-writable "
            "tensors. This means writing to this tensor will result in undefined behavior. You "
            "may want to copy the array to protect its data or make it writable before "
            "converting it to a tensor. This type of warning will be suppressed for the rest of "
            "this program.", "torch/csrc/utils/tensor_numpy.cpp:213"), UserWarning, stacklevel=3)


def _check_ndarray(ndarray: np.ndarray) -> None:
    """torch's errors for an array it cannot wrap: its dtype, a negative stride."""
    D.check_numpy_dtype(ndarray.dtype)
    if any(s < 0 for s in ndarray.strides):
        raise ValueError(_errors.NUMPY_NEGATIVE_STRIDE)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False) -> Tensor:
    arr = D.cast(np.array(s), dtype or D.get_default_dtype())
    return _finish(Tensor._wrap(arr), requires_grad, device)


def _filled(size, value, dtype, requires_grad, device, default=None):
    shape = as_size(size)
    npdt = _np_dtype(dtype, default)
    meta = _meta_empty(shape, npdt, device, requires_grad)
    if meta is not None:
        return meta
    if npdt in D.REDUCED:
        value = D.cast(np.asarray(value.item() if isinstance(value, Tensor) else value),
                       D.REDUCED[npdt])
        arr = np.full(shape, value, dtype=npdt)
    else:
        with np.errstate(over="ignore"):
            arr = np.full(shape, _fill_value(value, npdt, math.prod(shape)), dtype=npdt)
    return _finish(Tensor._wrap(arr), requires_grad, device)


_RANDOM_SIGNATURE = (
    " * (tuple of ints size, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = "
    "None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n"
    " * (tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout "
    "= None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n")


def _sizes(sizes: tuple, size, name: str | None = None) -> tuple:
    """The size given by position (``zeros(2, 3)``, ``zeros((2, 3))``) or as ``size=``;
    torch's TypeError for none (``name``: the calling factory, whose error it raises)."""
    if size is None:
        if len(sizes) > 1 and isinstance(sizes[0], (tuple, list)) and name is not None:
            raise TypeError(f"{name}() takes 1 positional argument but {len(sizes)} were given")
        if not sizes and name is not None:
            if name in ("rand", "randn"):
                raise TypeError(f"{name}() received an invalid combination of arguments - got "
                                f"(), but expected one of:\n{_RANDOM_SIGNATURE}")
            raise _errors.missing_arguments(name, ["size"])
        if len(sizes) == 1 and name is not None:
            sizes = _one_size(sizes[0], name)
        if len(sizes) > 1 and name is not None and hasattr(sizes[0], "__index__"):
            for i, s in enumerate(sizes):
                if not hasattr(s, "__index__"):
                    raise TypeError(f"{name}(): argument 'size' failed to unpack the object at "
                                    f'pos {i + 1} with error "type must be tuple of ints,but '
                                    f'got {type(s).__name__}"')
        return sizes
    if sizes:
        raise TypeError("got multiple values for argument 'size'")
    return (size,)


def _one_size(s, name: str) -> tuple:
    """A factory's one positional size argument as torch's parser reads it: a one-element
    integer tensor is an int; a sequence must hold ints."""
    where = f"{name}(): argument 'size' (position 1) must be tuple of ints"
    if isinstance(s, Tensor):
        if s.numel() == 1 and not (s.dtype.is_floating_point or s.dtype.is_complex):
            return (int(s.item()),)
        raise TypeError(f"{where}, not Tensor")
    if isinstance(s, (tuple, list)):
        for i, e in enumerate(s):
            if isinstance(e, bool) or not hasattr(e, "__index__"):
                raise TypeError(f"{where}, but found element of type {type(e).__name__} at "
                                f"pos {i}")
        return (s,)
    if isinstance(s, bool) or not hasattr(s, "__index__"):
        if not hasattr(s, "__len__"):
            raise TypeError(f"{where}, not {type(s).__name__}")
    return (s,)


def zeros(*sizes, size=None, out=None, dtype=None, layout=None, device=None,
          requires_grad=False, pin_memory=False) -> Tensor:
    """A tensor of zeros of the given size."""
    try:
        shape = as_size(_sizes(sizes, size, "zeros"))
    except RuntimeError:
        raise RuntimeError("zeros: Dimension size must be non-negative.") from None
    npdt = _np_dtype(dtype)
    meta = _meta_empty(shape, npdt, device, requires_grad)
    return meta if meta is not None else \
        _finish(Tensor._wrap(np.zeros(shape, npdt)), requires_grad, device)


def ones(*sizes, size=None, out=None, dtype=None, layout=None, device=None,
         requires_grad=False, pin_memory=False) -> Tensor:
    """A tensor of ones of the given size."""
    shape = as_size(_sizes(sizes, size, "ones"))
    npdt = _np_dtype(dtype)
    meta = _meta_empty(shape, npdt, device, requires_grad)
    return meta if meta is not None else \
        _finish(Tensor._wrap(np.ones(shape, npdt)), requires_grad, device)


def empty(*sizes, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, memory_format=None) -> Tensor:
    """An uninitialised tensor (ember fills it with zeros)."""
    shape = as_size(_sizes(sizes, size, "empty"))
    t = zeros(shape, dtype=dtype, device=device, requires_grad=requires_grad)
    if memory_format is not None:
        return _laid_out(t, t, memory_format)
    if not t._data.size and t._data.__class__ is not _meta.MetaArray:
        t._data = _mf.dense_empty(t._data)
    return t


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None,
         requires_grad=False, pin_memory=False) -> Tensor:
    """A tensor of ``size`` filled with ``fill_value`` (dtype inferred from it)."""
    if isinstance(fill_value, (str, bytes)) or fill_value is None:
        raise TypeError("full(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type(fill_value).__name__ if fill_value is not None else 'NoneType'}")
    if dtype is None:
        dtype = D._scalar_dtype(fill_value.item() if isinstance(fill_value, Tensor)
                                else fill_value)
    return _filled(size, fill_value, dtype, requires_grad, device)


def _like(t, dtype):
    return t.dtype if dtype is None else dtype


def _on(input: Tensor, device):
    """The device of a ``*_like(input, device=device)`` result: by default the input's."""
    return input.device if device is None else device


def _laid_out(t, like, memory_format):
    """``t`` with the layout torch gives a ``*_like(like, memory_format=...)`` result (by
    default, ``preserve_format``: a dense input's strides)."""
    from ._memory_format import empty_like, plain_dense
    if t._data.__class__ is _meta.MetaArray:
        if memory_format is not None and memory_format.name != "preserve_format":
            t._data.lstrides = _mf.format_strides(t.shape, memory_format)
        elif like._data.__class__ is _meta.MetaArray and 0 not in like.stride():
            t._data.lstrides = like.stride()      # (a dense input's strides)
        return t
    if memory_format is None and plain_dense(like._data):
        return t
    arr = empty_like(like._data, t._data.dtype, memory_format)
    arr[...] = t._data
    t._data = arr
    return t


def _subclass_like(name: str, input, *args, **kwargs):
    """``name(input, ...)`` through ``__torch_function__`` for an input of a subclass that
    dispatches (a DTensor's ``zeros_like`` is a DTensor laid out as it is), else None."""
    if input.__class__ is Tensor:
        return None
    from .overrides import _overrides
    if not _overrides(input):
        return None
    import sys
    return getattr(sys.modules["ember"], name)(input, *args, **kwargs)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               pin_memory=False, memory_format=None) -> Tensor:
    check_device(device, op="aten::empty_strided")
    sub = _subclass_like("zeros_like", input, dtype=dtype, requires_grad=requires_grad)
    if sub is not None:
        return sub
    return _laid_out(zeros(input.shape, dtype=_like(input, dtype), requires_grad=requires_grad,
                           device=_on(input, device)), input, memory_format)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
              pin_memory=False, memory_format=None) -> Tensor:
    check_device(device, op="aten::empty_strided")
    sub = _subclass_like("ones_like", input, dtype=dtype, requires_grad=requires_grad)
    if sub is not None:
        return sub
    return _laid_out(ones(input.shape, dtype=_like(input, dtype), requires_grad=requires_grad,
                          device=_on(input, device)), input, memory_format)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               pin_memory=False, memory_format=None) -> Tensor:
    return zeros_like(input, dtype=dtype, requires_grad=requires_grad, device=device,
                      memory_format=memory_format)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              pin_memory=False, memory_format=None) -> Tensor:
    check_device(device, op="aten::empty_strided")
    sub = _subclass_like("full_like", input, fill_value, dtype=dtype,
                         requires_grad=requires_grad)
    if sub is not None:
        return sub
    return _laid_out(full(input.shape, fill_value, dtype=_like(input, dtype),
                          requires_grad=requires_grad, device=_on(input, device)), input,
                     memory_format)


def _num(x):
    return x.item() if isinstance(x, Tensor) else x


def _vec_lanes(itemsize: int) -> int:
    """Lanes of the ``Vectorized`` registers torch's range kernels use: 32 bytes (AVX2, also on
    AVX512 machines, where these kernels are not built for AVX512), 16 on ARM (NEON)."""
    import platform
    wide = platform.machine().lower() not in ("arm64", "aarch64")
    return max(1, (32 if wide else 16) // itemsize)


def _vec_fill(n: int, npdt, scalar, vector):
    """torch's ``cpu_serial_kernel_vec`` for a nullary kernel over ``n`` elements.

    Pairs of vectors of ``V`` lanes: ``vector(first_index_of_each_lane_block, lane)``; the
    tail below ``2 * V`` elements: ``scalar(index)``. Both return float64/int64 arrays that
    are already rounded the way torch's arithmetic rounds them.
    """
    lanes = _vec_lanes(np.dtype(npdt).itemsize)
    nvec = (n // (2 * lanes)) * 2 * lanes
    out = np.empty(n, npdt)
    if nvec:
        idx = np.arange(nvec)
        out[:nvec] = vector(idx - idx % lanes, idx % lanes)
    if nvec < n:
        out[nvec:] = scalar(np.arange(nvec, n))
    return out


def _fma(a, b, c):
    """``a * b + c`` rounded once, as the FMA instructions torch's CPU kernels compile to."""
    dt = np.result_type(a, b, c)
    return _exact.fma(*(np.asarray(v, dt) for v in (a, b, c)))


def _arange_values(start, step, n, dt: D.dtype):
    """``arange``'s kernel: ``start + step * i`` in torch's accumulate type, vectorized alike."""
    npdt = dt.np
    if dt._category < 2:
        return (np.int64(start) + np.int64(step) * np.arange(n, dtype=np.int64)).astype(npdt)
    acc = np.float32 if dt in (D.float16, D.bfloat16) else np.float64
    st, sp = acc(start), acc(step)

    def scalar(i):
        return _fma(sp, i.astype(acc), st).astype(npdt)

    def vector(base_i, lane):
        base = _fma(sp, base_i.astype(acc), st).astype(npdt)     # arange(T base, acc step)
        if npdt == np.float64:          # base + lane * step, contracted
            return _fma(lane.astype(acc), sp, base)
        return (base.astype(acc) + lane.astype(acc) * sp).astype(npdt)
    return _vec_fill(n, npdt, scalar, vector)


_INT64_MAX = 2**63 - 1


def arange(start=None, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False) -> Tensor:
    """Values from ``start`` (0 where not given) to ``end`` (exclusive) by ``step``, as torch
    computes them."""
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
        if end is None:     # (no end: a call torch's parser refuses)
            from . import _errors
            raise _errors.call_failure() or TypeError("arange() missing its end")
    elif start is None:
        start = 0
    if dtype is None:
        dtype = D.result_type(start, end, step)
        if dtype is D.bool:
            dtype = D.int64
    if dtype is D.bool or dtype.is_complex or dtype in D.BAREBONES:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype.scalar_name}'")
    o_start, o_end, o_step = start, end, step
    if o_step == 0:
        raise RuntimeError("step must be nonzero")
    if dtype is D.int64 and int(o_step) == 0:
        raise ValueError("step must be nonzero")
    if dtype._category < 2:     # torch's int64 accumulate type truncates the bounds and step
        start, end, step = int(start), int(end), int(step)
    if not all(math.isfinite(v) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if not ((o_step > 0 and end >= start) or (o_step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is D.int64:   # torch counts in int64 for int64 results (C division truncates)
        sgn = (step > 0) - (step < 0)
        num = end - start + step - sgn
        n = abs(num) // abs(step) * (1 if (num >= 0) == (step > 0) else -1)
    else:
        n = math.ceil((float(o_end) - float(o_start)) / float(o_step))
    if n > _INT64_MAX:
        raise RuntimeError("invalid size, possible overflow?")
    if n * dtype.itemsize > _INT64_MAX:
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{int(n)}]")
    arr = _arange_values(start, step, max(0, int(n)), dtype)
    return _finish(Tensor._wrap(arr), requires_grad, device)


def range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
          requires_grad=False) -> Tensor:
    """Deprecated ``torch.range``: like arange, but ``end`` included."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=3)             # the caller of the ``out=`` wrapper
    n = int(math.floor((end - start) / step)) + 1
    arr = (start + step * np.arange(n, dtype=np.float64)).astype(_np_dtype(dtype))
    return _finish(Tensor._wrap(arr), requires_grad, device)


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end``, as torch's kernel makes them.

    The first half is filled forward from ``start``, the second back from ``end``, in the
    output dtype's own arithmetic (double steps for integers), one element at a time as
    torch's kernel does (its multiply-adds fused).
    """
    start, end = _num(start), _num(end)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dt = D.get_default_dtype() if dtype is None else dtype
    if not isinstance(dt, D.dtype):
        dt = D.from_numpy_dtype(_np_dtype(dt))
    if dt is D.bool:
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    D.no_barebones_kernel("linspace_cpu", dt)
    npdt = dt.np
    integral = dt._category < 2
    if integral:
        info = np.iinfo(npdt)
        for v in (start, end):
            if not info.min <= v <= info.max:
                raise RuntimeError(f"value cannot be converted to type {npdt.name}_t without "
                                   "overflow")
    if not integral:        # (torch's Scalar::to<scalar_t>: a double rounded to float first)
        start, end = D.through_float(start, npdt), D.through_float(end, npdt)
    if steps <= 1:
        arr = np.full(steps, start, npdt if not integral else np.float64)
        return _finish(Tensor._wrap(_to_dtype(arr, npdt)), requires_grad, device)
    acc = np.float64 if integral else npdt.type
    st = acc(npdt.type(start)) if integral else acc(start)
    en = acc(npdt.type(end)) if integral else acc(end)
    with np.errstate(over="ignore"):
        step = (en - st) / acc(steps - 1)
    half = steps // 2

    fused = npdt != np.float16     # c10::Half arithmetic is not contracted into FMAs

    def formula(idx):
        i = idx.astype(acc)
        rest = (steps - 1 - idx).astype(acc)     # counted in int64, then converted
        if fused:
            return np.where(i < half, _fma(step, i, st), _fma(-step, rest, en))
        return np.where(i < half, st + step * i, en - step * rest)

    with np.errstate(over="ignore", invalid="ignore"):
        arr = _to_dtype(formula(np.arange(steps)), npdt)
    return _finish(Tensor._wrap(arr), requires_grad, device)


def _to_dtype(values, npdt):
    """Convert like C++ does: floats round, integers truncate toward zero."""
    if np.dtype(npdt).kind in "iu":
        values = np.trunc(values)
    return values.astype(npdt)


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None,
             device=None, requires_grad=False, pin_memory=False) -> Tensor:
    exps = linspace(start, end, steps, dtype=D.float64)._data
    arr = np.power(base, exps).astype(_np_dtype(dtype))
    return _finish(Tensor._wrap(arr), requires_grad, device)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None,
        requires_grad=False, pin_memory=False) -> Tensor:
    """The identity matrix (``n`` × ``m``)."""
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    D.no_barebones_kernel("eye", dtype)
    arr = np.eye(n, n if m is None else m, dtype=_np_dtype(dtype))
    return _finish(Tensor._wrap(arr), requires_grad, device)


# ----------------------------------------------------------------------------- random

def _gen(generator):
    from . import random
    return random._gen(generator)


def _to_fill(sizes, size, name: str, dtype, device=None) -> Tensor:
    """``empty(*sizes, dtype=dtype)`` left uninitialised, for a factory that writes every
    element (no zeros written first); on the meta device, a meta tensor."""
    shape = as_size(_sizes(_sizes(sizes, size, name), None, "zeros"))
    npdt = _np_dtype(dtype)
    meta = _meta_empty(shape, npdt, device)
    return meta if meta is not None else Tensor._wrap(np.empty(shape, npdt))


def _out_of(sizes, size, name: str, dtype, out: Tensor) -> Tensor:
    """The ``out=`` tensor of a random factory, checked and resized to the requested size."""
    if dtype is not None and dtype != out.dtype:
        raise RuntimeError(f"dtype {_short(dtype)} does not match dtype of out "
                           f"parameter ({_short(out.dtype)})")
    if out.requires_grad:
        if name == "randn":         # torch's randn resizes its out= first
            raise RuntimeError("cannot resize variables that require grad")
        raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't support "
                           "automatic differentiation, but one of the arguments requires grad.")
    shape = as_size(_sizes(sizes, size, name))
    if tuple(out.shape) != tuple(shape):
        out.resize_(shape)
    return out


def rand(*sizes, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
         requires_grad=False, pin_memory=False) -> Tensor:
    """Uniform samples in [0, 1), torch's exact numbers after the same seed."""
    if generator is not None:
        _gen(generator)         # (torch's parser error for one that is not a Generator)
    if out is not None:
        return _out_of(sizes, size, "rand", dtype, out).uniform_(0.0, 1.0, generator=generator)
    t = _to_fill(sizes, size, "rand", dtype, device)
    if not (t.dtype.is_floating_point or t.dtype.is_complex):
        raise NotImplementedError(f'"check_uniform_bounds" not implemented for '
                                  f"'{_short(t.dtype)}'")
    if not t.is_meta:
        _gen(generator)._uniform_(t._data, 0.0, 1.0)
    return _finish(t, requires_grad, device)


def randn(*sizes, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
          requires_grad=False, pin_memory=False) -> Tensor:
    """Standard normal samples, torch's exact numbers after the same seed.

    >>> import ember
    >>> _ = ember.manual_seed(0)
    >>> ember.randn(3)
    tensor([ 1.5410, -0.2934, -2.1788])
    """
    if generator is not None:
        _gen(generator)         # (torch's parser error for one that is not a Generator)
    if out is not None:
        return _out_of(sizes, size, "randn", dtype, out).normal_(0.0, 1.0, generator=generator)
    t = _to_fill(sizes, size, "randn", dtype, device)
    if not (t.dtype.is_floating_point or t.dtype.is_complex):
        raise NotImplementedError(f'"normal_kernel_cpu" not implemented for '
                                  f"'{_short(t.dtype)}'")
    if not t.is_meta:
        _gen(generator)._normal_(t._data, 0.0, 1.0)
    return _finish(t, requires_grad, device)


_RANDINT_SIGNATURES = "".join(
    f" * ({params}, *, {gen}Tensor out = None, torch.dtype dtype = None, torch.layout layout = "
    "None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    for params in ("int high, tuple of ints size", "int low, int high, tuple of ints size")
    for gen in ("torch.Generator generator, ", ""))


def _randint_args(args: tuple, named: dict, extra: int) -> tuple:
    """``(low, high, size)`` from randint's arguments, or torch's argument-parser TypeError:
    the one overload ``(high, size)`` or ``(low, high, size)`` that fits, else, when several
    (or none) take that many arguments, the invalid-combination message."""
    def kind(v):
        return "Tensor" if isinstance(v, Tensor) else type(v).__name__

    def is_int(v):
        return not isinstance(v, (bool, float)) and hasattr(v, "__index__")

    for names in (("high", "size"), ("low", "high", "size")):
        if len(args) > len(names) or any(k not in names[len(args):] for k in named):
            continue
        vals = dict(zip(names, args), **named)
        if len(vals) == len(names) and all(is_int(vals[k]) for k in names[:-1]) and isinstance(
                vals["size"], (tuple, list)) and all(is_int(e) for e in vals["size"]):
            return vals.get("low", 0), vals["high"], vals["size"]
    n = len(args) + len(named) + extra
    if n == 2:              # only (high, size) without a generator takes two arguments
        for i, k in enumerate(("high", "size")):
            v = args[i] if i < len(args) else named.get(k)
            where = f" (position {i + 1})" if i < len(args) else ""
            if k == "high" and not is_int(v):
                raise TypeError(f"randint(): argument 'high'{where} must be int, not {kind(v)}")
            if k == "size" and not isinstance(v, (tuple, list)):
                raise TypeError(f"randint(): argument 'size'{where} must be tuple of ints, not "
                                f"{kind(v)}")
            if k == "size":
                pos = next(j for j, e in enumerate(v) if not is_int(e))
                raise TypeError(f"randint(): argument 'size'{where} must be tuple of ints, but "
                                f"found element of type {kind(v[pos])} at pos {pos}")
    # torch lists the keywords last first, and ends keywords-only with ", "
    got = ", ".join([kind(v) for v in args] + [f"{k}={kind(v)}"
                                                for k, v in reversed(named.items())])
    got += ", " if named and not args else ""
    raise TypeError(f"randint() received an invalid combination of arguments - got ({got}), "
                    f"but expected one of:\n{_RANDINT_SIGNATURES}")


def randint(*args, generator=None, out=None, dtype=None, layout=None, device=None,
            requires_grad=False, **kwargs) -> Tensor:
    """``randint(high, size)`` or ``randint(low, high, size)``: integers in [low, high)."""
    named = {k: kwargs.pop(k) for k in list(kwargs) if k in ("low", "high", "size")}
    extra = sum(v is not None for v in (generator, out, dtype, layout, device)) + requires_grad
    low, high, size = _randint_args(args, named, extra)
    t = zeros(as_size(size), dtype=dtype or D.int64, device=device)
    if not t.is_meta:
        _gen(generator)._random_(t._data, int(low), int(high))
    return _finish(t, requires_grad, device)


def randperm(n, *, generator=None, out=None, dtype=D.int64, layout=None, device=None,
             requires_grad=False, pin_memory=False) -> Tensor:
    """A random permutation of ``0 … n-1``, torch's exact one after the same seed."""
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    D.no_barebones_kernel("randperm", dtype)
    meta = _meta_empty((int(n),), dtype.np, device, requires_grad)
    if meta is not None:
        return meta
    arr = _gen(generator)._randperm(int(n), dtype.np)
    return _finish(Tensor._wrap(arr), requires_grad, device)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None,
           device=None, requires_grad=False) -> Tensor:
    """Normal samples with the given mean and std (numbers or tensors)."""
    g = _gen(generator)
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        if isinstance(mean, Tensor) and isinstance(std, Tensor):
            arr = g._normal_tensors(mean._data, std._data)
        elif isinstance(mean, Tensor):
            arr = np.empty(mean.shape, mean._data.dtype)
            g._normal_(arr, 0.0, float(std))
            arr = (arr + mean._data).astype(mean._data.dtype)
        else:
            arr = g._normal_tensors(np.full(std.shape, mean, std._data.dtype), std._data)
        return _finish(Tensor._wrap(arr), requires_grad, device)
    t = empty(*((size,) if size is not None else ((),)), dtype=dtype, device=device)
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
    if not t.is_meta:
        g._normal_(t._data, float(mean), float(std))
    return _finish(t, requires_grad, device)


def _random_like(input, dtype, memory_format, requires_grad, fill) -> Tensor | None:
    """torch's ``empty_like(input).fill_(…)`` where the layout is not C order: a transposed
    input's draws land in memory order, as torch's do (None: C order, the caller draws)."""
    if memory_format is None and (input._data.flags.c_contiguous or input.is_meta):
        return None
    from ._memory_format import empty_like
    t = Tensor._wrap(empty_like(input._data, _like(input, dtype).np, memory_format))
    fill(t)
    return t.requires_grad_(requires_grad)


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None, generator=None) -> Tensor:
    check_device(device, op="aten::empty_strided")
    laid = _random_like(input, dtype, memory_format, requires_grad,
                        lambda t: t.uniform_(generator=generator))
    return laid if laid is not None else rand(
        input.shape, dtype=_like(input, dtype), requires_grad=requires_grad, generator=generator,
        device=_on(input, device))


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None, generator=None) -> Tensor:
    check_device(device, op="aten::empty_strided")
    laid = _random_like(input, dtype, memory_format, requires_grad,
                        lambda t: t.normal_(generator=generator))
    return laid if laid is not None else randn(
        input.shape, dtype=_like(input, dtype), requires_grad=requires_grad, generator=generator,
        device=_on(input, device))


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None, generator=None) -> Tensor:
    check_device(device, op="aten::empty_strided")
    if high is None:
        low, high = 0, low
    laid = _random_like(input, dtype, memory_format, requires_grad,
                        lambda t: t.random_(low, high, generator=generator))
    return laid if laid is not None else randint(
        low, high, input.shape, dtype=_like(input, dtype), generator=generator,
        requires_grad=requires_grad, device=_on(input, device))


def bernoulli(input, p=None, *, generator=None, out=None) -> Tensor:
    """0/1 samples with probabilities ``input`` (or the number ``p``)."""
    g = _gen(generator)
    if input.is_meta:
        return Tensor._wrap(_meta.empty(input.shape, input._data.dtype))    # (no draws)
    if p is not None:
        arr = np.empty(input.shape, input._data.dtype)
        g._bernoulli_scalar_(arr, float(p))
        return Tensor._wrap(arr)
    return Tensor._wrap(g._bernoulli_tensor(input._data))


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> Tensor:
    """Indices sampled from the rows of ``input`` (torch's exact draws)."""
    if input.is_meta:       # (no draws)
        return Tensor._wrap(_meta.empty((*input.shape[:-1], int(num_samples)), np.int64))
    return Tensor._wrap(_gen(generator)._multinomial(input._data, int(num_samples),
                                                     bool(replacement)))


def _short(dt: D.dtype) -> str:
    from ._ops.registry import _scalar_name
    return _scalar_name(dt)


# ----------------------------------------------------------------------------- helpers

def _legacy_new(cls, *args, **kwargs):
    """``ember.Tensor(2, 3)`` (uninitialised) or ``ember.Tensor([1, 2])`` (float data)."""
    if cls is not Tensor and not args:
        return Tensor._wrap.__func__(cls, np.zeros((0,), D.get_default_dtype().np))
    if not args:
        t = Tensor._wrap.__func__(cls, np.zeros((0,), D.get_default_dtype().np))
    elif all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        t = Tensor._wrap.__func__(cls, np.zeros(args, D.get_default_dtype().np))
    elif len(args) == 1 and isinstance(args[0], Tensor):
        t = Tensor._wrap.__func__(cls, args[0]._data)
    else:
        arr = np.array(_infer(args[0]), dtype=D.get_default_dtype().np)
        t = Tensor._wrap.__func__(cls, arr)
    return t


def parse_to(args, kwargs):
    """The dtype (or None) and the ``copy`` flag of a ``Tensor.to(...)`` call."""
    return parse_to_device(args, kwargs)[:2]


def parse_to_device(args, kwargs):
    """The dtype, the ``copy`` flag and the device (each None where not given) of a
    ``Tensor.to(...)`` call."""
    dtype = kwargs.get("dtype")
    copy = kwargs.get("copy", False)
    device = None
    if "device" in kwargs:
        device = check_device(kwargs["device"], copy=True)
    for a in args:
        if isinstance(a, D.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype, device = a.dtype, a.device
        elif isinstance(a, (str, int)) or hasattr(a, "type"):
            if isinstance(a, bool):
                continue
            device = check_device(a, copy=True)
    flags = [a for a in args if isinstance(a, bool)]    # (non_blocking, copy)
    if len(flags) > 1:
        copy = flags[1]
    return dtype, copy, device


del xp


# ----------------------------------------------------------------------------- in-place samplers

def _sampler(name, fill, doc):
    def method(self, *args, generator=None, **kwargs):
        from ._ops.registry import check_inplace, check_no_overlap
        check_inplace(self)
        check_no_overlap(self._data)
        if self._data.__class__ is not _meta.MetaArray:     # (meta: no data, no draws)
            getattr(_gen(generator), fill)(self._data, *args, **kwargs)
        self._vc.value += 1
        return self
    method.__name__ = name
    method.__qualname__ = "Tensor." + name
    method.__doc__ = doc
    setattr(Tensor, name, method)


_sampler("uniform_", "_uniform_", "Fill with uniform samples in ``[from, to)``.")
_sampler("normal_", "_normal_", "Fill with normal samples of ``mean`` and ``std``.")
_sampler("random_", "_random_", "Fill with integers in ``[from, to)`` (torch's draws).")
_sampler("exponential_", "_exponential_", "Fill with exponential samples of rate ``lambd``.")
_sampler("log_normal_", "_log_normal_", "Fill with log-normal samples.")
_sampler("cauchy_", "_cauchy_", "Fill with Cauchy samples.")
_sampler("geometric_", "_geometric_", "Fill with geometric samples.")


def _bernoulli_(self, p=0.5, *, generator=None):
    """Fill with 0/1 samples of probability ``p`` (a number or a tensor)."""
    from ._ops.registry import check_inplace, check_no_overlap
    check_inplace(self)
    check_no_overlap(self._data)
    g = _gen(generator)
    if self._data.__class__ is _meta.MetaArray:
        pass                # (no data, no draws)
    elif isinstance(p, Tensor):
        # one draw per element in TensorIterator's order of (self, p): self's memory order
        from ._memory_format import iter_order
        shape = self._data.shape
        probs = np.broadcast_to(p._data, shape)
        outer = iter_order(shape, self._data.strides, probs.strides)[::-1]
        draws = g._bernoulli_tensor(np.ascontiguousarray(probs.transpose(outer)))
        self._data[...] = draws.transpose(np.argsort(outer))
    else:
        g._bernoulli_scalar_(self._data, float(p))
    self._vc.value += 1
    return self


Tensor.bernoulli_ = _bernoulli_
Tensor.bernoulli = lambda self, p=None, *, generator=None: bernoulli(self, p,
                                                                    generator=generator)
Tensor.multinomial = lambda self, num_samples, replacement=False, *, generator=None: \
    multinomial(self, num_samples, replacement, generator=generator)


# ----------------------------------------------------------------------------- out= factories

def _writes_out(fn, name: str, warn_resize: bool = False):
    """``fn`` with torch's ``out=``: the result computed in ``out``'s dtype (another ``dtype``
    is an error) and written into ``out``, resized to the result's shape (``arange`` warns),
    which is returned; a call torch's parser refuses raises its error."""
    import functools

    @functools.wraps(fn)
    def factory(*args, out=None, **kwargs):
        try:
            if out is None:
                return fn(*args, **kwargs)
            dtype = kwargs.get("dtype")
            if dtype is not None and dtype is not out.dtype:
                raise RuntimeError(f"dtype {dtype.scalar_name} does not match dtype of out "
                                   f"parameter ({out.dtype.scalar_name})")
            from ._ops.registry import check_no_overlap
            from .autograd import grad_mode
            if out.requires_grad and grad_mode.is_grad_enabled():
                raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't "
                                   "support automatic differentiation, but one of the arguments "
                                   "requires grad.")
            check_no_overlap(out._data)
            res = fn(*args, **dict(kwargs, dtype=out.dtype))._data
            if res.shape != out._data.shape:
                if warn_resize and out._data.size:
                    warnings.warn(_errors.internal(
                        f"The number of elements in the out tensor of shape "
                        f"{list(out._data.shape)} is {out._data.size} which does not match the "
                        f"computed number of elements {res.size}. Note that this may occur as a "
                        "result of rounding error. The out tensor will be resized to a tensor of "
                        f"shape {tuple(res.shape)}.",
                        "aten/src/ATen/native/RangeFactories.cpp:199"),
                        UserWarning, stacklevel=2)
                out._data = np.empty(res.shape, res.dtype)
            np.copyto(out._data, res)
            out._vc.value += 1
            return out
        except Exception as e:      # (a call torch's parser refuses: its error)
            new = _errors.reparsed(e, name, False, args,
                                   kwargs if out is None else dict(kwargs, out=out))
            if new is None:
                raise
            raise new from None
    return factory


zeros = _writes_out(zeros, "zeros")
ones = _writes_out(ones, "ones")
empty = _writes_out(empty, "empty")
full = _writes_out(full, "full")
arange = _writes_out(arange, "arange", warn_resize=True)
range = _writes_out(range, "range")
linspace = _writes_out(linspace, "linspace")
logspace = _writes_out(logspace, "logspace")
eye = _writes_out(eye, "eye")
rand = _writes_out(rand, "rand")
randn = _writes_out(randn, "randn")
randint = _writes_out(randint, "randint")
randperm = _writes_out(randperm, "randperm")
normal = _writes_out(normal, "normal")
