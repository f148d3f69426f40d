"""Shared mechanics of the ops: dim normalisation, broadcasting checks, unbroadcasting.

Each piece has exactly one home here; op tables call these, never re-implement them.
"""

from __future__ import annotations

import types
from collections.abc import Sequence

from .. import _errors
from .._meta import MetaArray as _MetaArray
from .._tensor import Tensor
from ..autograd import grad_mode
from ._exact import cascade_sum, summed_dtype


def renamed(f, qualname: str):
    """``f`` under ``qualname``: the name Python's own binding errors give it (torch's
    functions written in Python: ``Tensor.unique``, ``_return_output``)."""
    name = qualname.rsplit(".", 1)[-1]
    names = {"co_name": name}
    if hasattr(f.__code__, "co_qualname"):
        names["co_qualname"] = qualname
    new = types.FunctionType(f.__code__.replace(**names), f.__globals__, name, f.__defaults__,
                             f.__closure__)
    new.__kwdefaults__, new.__doc__ = f.__kwdefaults__, f.__doc__
    new.__qualname__, new.__module__ = qualname, f.__module__
    return new


def c_order(a):
    """``a`` (an array, or a NumPy scalar) C-contiguous: a reduction's result, which torch
    allocates contiguous whatever its input's layout (NumPy's follows the input's)."""
    return a if a.flags.c_contiguous or isinstance(a, _MetaArray) else a.copy(order="C")


_WRAPPER_NAMES = frozenset(("parse", "wrapper", "call", "fn", "inner", "method", "function",
                            "checked"))


def _called_name() -> str:
    """The name of the ember function the user called (the outermost frame of the package,
    wrappers aside): the op torch's parser errors name."""
    import sys

    from .._errors import _PKG
    frame, name = sys._getframe(1), "op"
    while frame is not None and frame.f_code.co_filename.startswith(_PKG):
        code = frame.f_code.co_name
        if not code.startswith("_") and code not in _WRAPPER_NAMES and code != "<lambda>":
            name = code
        frame = frame.f_back
    return name


def norm_dim(dim: int, ndim: int, scalar: bool = True) -> int:
    """A dim in ``[-ndim, ndim)`` made non-negative, or torch's IndexError (a 0-d tensor
    takes dim 0 or -1, unless not ``scalar``: the ops that need a dimension)."""
    if not ndim and not scalar:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    lo, hi = (-ndim, ndim - 1) if ndim > 0 else (-1, 0)
    if not isinstance(dim, int) or isinstance(dim, bool):
        if not hasattr(dim, "__index__"):
            raise _errors.Unparsed(f"{_called_name()}(): argument 'dim' must be int, not "
                                   f"{type(dim).__name__}")
        dim = int(dim.__index__())
    if dim < lo or dim > hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], "
                         f"but got {dim})")
    return dim % ndim if ndim > 0 else 0


def norm_dims(dim, ndim: int) -> tuple[int, ...]:
    """``dim`` as int, sequence or None (all dims) made a sorted tuple of non-negative dims."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int) or getattr(dim, "ndim", None) == 0 \
            or not hasattr(dim, "__iter__"):    # one dim: an int, a 0-d tensor, NumPy's ints
        return (norm_dim(dim, ndim),)
    out = tuple(norm_dim(d, ndim) for d in dim)
    if len(set(out)) != len(out):
        repeated = next(d for d in out if out.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    return tuple(sorted(out))


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The broadcast of shapes, or torch's message naming the sizes that clash."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        off = ndim - len(s)
        for i in range(len(s) - 1, -1, -1):     # torch names the last dim that clashes
            n, j = s[i], off + i
            if out[j] == 1:
                out[j] = n
            elif n != 1 and n != out[j]:
                raise RuntimeError(_errors.broadcast(out[j], n, j))
    return tuple(out)


def sum_to_shape(grad, shape: tuple[int, ...]):
    """Sum a gradient over the dims that broadcasting added or expanded (an ember op)."""
    gshape = grad.shape
    if tuple(gshape) == tuple(shape):
        return grad
    lead = len(gshape) - len(shape)
    dims = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and gshape[i + lead] != 1)
    if dims:
        a = grad._data
        if a.size and a.dtype in summed_dtype and grad.__class__ is Tensor \
                and not grad_mode._state.enabled:
            # no graph to build (the engine's common case): the sum's kernel, without its op
            return Tensor._wrap(cascade_sum(a, dims, True).reshape(shape))
        grad = grad.sum(dims, keepdim=True)
    if lead:
        grad = grad.reshape(shape)
    elif tuple(grad.shape) != tuple(shape):
        grad = grad.reshape(shape)
    return grad


def as_size(size) -> tuple[int, ...]:
    """``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])`` all mean the size ``(2, 3)``."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)) or (
            len(size) == 1 and hasattr(size[0], "__len__") and not isinstance(size[0], int)):
        size = size[0]
    out = []
    for s in size:
        if isinstance(s, bool) or not hasattr(s, "__index__"):
            raise TypeError(f"size must be tuple of ints, but got {type(s).__name__}")
        n = s.__index__()
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                               f"{list(int(x) for x in size)}")
        out.append(n)
    return tuple(out)


def dim_not_none(name, dim, kind="int") -> None:
    """torch's TypeError for ``dim=None`` (or, for an int ``dim``, a tuple, list, float or
    str) passed to an op whose ``dim`` is an int (or a tuple of ints, ``kind``)."""
    if dim is None or kind == "int" and isinstance(dim, (tuple, list, float, str)):
        raise TypeError(f"{name}(): argument 'dim' must be {kind}, not {type(dim).__name__}")
