"""``make_tensor``: a random tensor of a shape and dtype, as ``torch.testing.make_tensor``."""

from __future__ import annotations

import collections.abc
import math
import warnings

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor

_INTEGRAL = (D.uint8, D.int8, D.int16, D.int32, D.int64)
_FLOATING = tuple(getattr(D, n) for n in ("float16", "bfloat16", "float32", "float64")
                  if hasattr(D, n))
_COMPLEX = (D.complex64, D.complex128)


def make_tensor(*shape, dtype, device, low: float | None = None, high: float | None = None,
                requires_grad: bool = False, noncontiguous: bool = False,
                exclude_zero: bool = False, memory_format=None) -> Tensor:
    """A tensor filled with values drawn uniformly from ``[low, high)`` (torch's defaults by
    dtype: ``[0, 2)`` for bool, ``[-9, 10)`` for signed integers, ``[-9, 9)`` for floats),
    drawing from the generator exactly as torch does."""
    from .._factories import empty, randint

    def modify_low_high(low, high, *, lowest, highest, default_low, default_high):
        low = default_low if low is None else low
        high = default_high if high is None else high
        if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
            raise ValueError(f"`low` and `high` cannot be NaN, but got {low=} and {high=}")
        if low == high and dtype in _FLOATING + _COMPLEX:
            warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or "
                          "complex types is deprecated since 2.1 and will be removed in 2.3. "
                          "Use `torch.full(...)` instead.", FutureWarning, stacklevel=3)
        elif low >= high:
            raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
        elif high < lowest or low >= highest:
            raise ValueError(f"The value interval specified by `low` and `high` is [{low}, "
                             f"{high}), but {dtype} only supports [{lowest}, {highest})")
        low = min(max(low, lowest), highest)
        high = min(max(high, lowest), highest)
        if dtype is D.bool or dtype in _INTEGRAL:
            return math.ceil(low), math.ceil(high)
        return low, high

    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError("The parameters `noncontiguous` and `memory_format` are mutually "
                         f"exclusive, but got {noncontiguous=} and {memory_format=}")
    if requires_grad and (dtype is D.bool or dtype in _INTEGRAL):
        raise ValueError("`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got {dtype=}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    if dtype is D.bool:
        low, high = modify_low_high(low, high, lowest=0, highest=2, default_low=0,
                                    default_high=2)
        result = randint(low, high, shape, dtype=dtype)
    elif dtype in _INTEGRAL:
        info = np.iinfo(dtype.np)
        low, high = modify_low_high(low, high, lowest=int(info.min),
                                    highest=int(info.max) + (dtype is not D.int64),
                                    default_low=-9, default_high=10)
        result = randint(low, high, shape, dtype=dtype)
    elif dtype in _FLOATING + _COMPLEX:
        real = D.float32 if dtype is D.complex64 else (
            D.float64 if dtype is D.complex128 else dtype)
        fmax = float(np.finfo(real.np).max)
        low, high = modify_low_high(low, high, lowest=-fmax, highest=fmax, default_low=-9,
                                    default_high=9)
        if dtype in _COMPLEX:    # torch fills view_as_real(result): (re, im) pairs in order
            parts = empty(*shape, 2, dtype=real)
            _uniform(parts, low, high, fmax)
            result = Tensor._wrap(parts._data.view(dtype.np).reshape(shape))
        else:
            result = empty(shape, dtype=dtype)
            _uniform(result, low, high, fmax)
    else:
        raise TypeError(f"The requested dtype '{dtype}' is not supported by "
                        "torch.testing.make_tensor(). To request support, file an issue at: "
                        "https://github.com/pytorch/pytorch/issues")
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        small = 1 if dtype is D.bool or dtype in _INTEGRAL else float(
            np.finfo(dtype.np).tiny)
        result[result == 0] = small
    if dtype in _FLOATING + _COMPLEX:
        result.requires_grad = requires_grad
    return result


def _uniform(t: Tensor, low: float, high: float, fmax: float) -> None:
    if high - low >= fmax:
        t.uniform_(low / 2, high / 2).mul_(2)
    else:
        t.uniform_(low, high)
