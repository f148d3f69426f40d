"""torch's legacy tensor types (``FloatTensor``, ``LongTensor`` …) and ``Tensor.new``.

Each type is a class whose instances are the tensors of its dtype (``isinstance`` answers
by dtype, as torch's ``tensortype`` does); calling it makes a tensor of that dtype from sizes
(``FloatTensor(2, 3)``), from data (``LongTensor([1, 2])``) or from a tensor of its dtype.
"""

from __future__ import annotations

import numpy as np

from . import _dtype as D
from ._tensor import Size, Tensor

__all__ = ["tensortype", "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor",
           "ByteTensor", "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "BoolTensor",
           "legacy_new"]

_OVERLOADS = (" * (*, torch.device device = None)\n{why} * (torch.Storage storage)\n"
              " * (Tensor other)\n * (tuple of ints size, *, torch.device device = None)\n"
              " * (object data, *, torch.device device = None)\n")


def _options(cpp: str) -> str:
    return (f"TensorOptions(dtype={cpp}, device=cpu, layout=Strided, requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))")


def _invalid(args, kwargs, why: str) -> TypeError:
    got = ", ".join([type(a).__name__ for a in args] +
                    [f"{k}={type(v).__module__.replace('ember', 'torch')}."
                     f"{type(v).__name__}" if isinstance(v, D.dtype) else
                     f"{k}={type(v).__name__}" for k, v in kwargs.items()])
    return TypeError(f"new() received an invalid combination of arguments - got ({got}), but "
                     "expected one of:\n" + _OVERLOADS.format(why=why))


def legacy_new(dtype: D.dtype, args, kwargs) -> Tensor:
    """A tensor of ``dtype`` from torch's legacy constructor arguments."""
    from ._device import check
    from ._factories import tensor
    bad = [k for k in kwargs if k != "device"]
    if bad:
        raise _invalid(args, kwargs, "      didn't match because some of the keywords were "
                       f"incorrect: {', '.join(bad)}\n")
    check(kwargs.get("device"))
    if not args:
        return Tensor._wrap(np.zeros((0,), dtype.np))
    if len(args) == 1 and isinstance(args[0], Tensor):
        other = args[0]
        if other.dtype is not dtype:
            raise TypeError(f"expected {_options(dtype.cpp_name)} (got "
                            f"{_options(other.dtype.cpp_name)})")
        return other.detach()
    sizes = args[0] if len(args) == 1 and isinstance(args[0], Size) else args
    if all(isinstance(a, int) and not isinstance(a, bool) for a in sizes):
        for n in sizes:
            if n < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                                   f"{list(sizes)}")
        return Tensor._wrap(np.zeros(tuple(sizes), dtype.np))
    if len(args) > 1:
        raise _invalid(args, {}, "      didn't match because some of the arguments have "
                       "invalid types: (" + ", ".join(
                           f"!{type(a).__name__}!" for a in args) + ")\n")
    data = args[0]
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    if not isinstance(data, (list, tuple, np.ndarray)):
        raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
    return tensor(data, dtype=dtype)


class tensortype(type):
    """The type of the legacy tensor types: ``isinstance`` answers by dtype."""

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args, **kwargs):
        return legacy_new(cls.dtype, args, kwargs)


def _make(d: D.dtype):
    cls = tensortype(d._legacy, (), {"dtype": d, "is_sparse": False, "is_cuda": False,
                                     "__doc__": f"Tensors of dtype {d!r}."})
    cls.__module__ = "torch"
    return cls


FloatTensor = _make(D.float32)
DoubleTensor = _make(D.float64)
HalfTensor = _make(D.float16)
BFloat16Tensor = _make(D.bfloat16)
ByteTensor = _make(D.uint8)
CharTensor = _make(D.int8)
ShortTensor = _make(D.int16)
IntTensor = _make(D.int32)
LongTensor = _make(D.int64)
BoolTensor = _make(D.bool)


class _cudatensortype(type):
    """``torch.cuda.FloatTensor`` …: no tensor is one; making one raises torch's error."""

    def __instancecheck__(cls, obj) -> bool:
        return False

    def __call__(cls, *args, **kwargs):
        raise TypeError(f"type torch.cuda.{cls.__name__} not available. Torch not compiled "
                        "with CUDA enabled.")


CUDA_TYPES = {}
for _d in (D.float32, D.float64, D.float16, D.bfloat16, D.uint8, D.int8, D.int16, D.int32,
           D.int64, D.bool):
    _c = _cudatensortype(_d._legacy, (), {"dtype": _d, "is_sparse": False, "is_cuda": True})
    _c.__module__ = "torch.cuda"
    CUDA_TYPES[_d._legacy] = _c
del _d, _c

CUDA_NOT_LOADED = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you "
    "are trying to use some CUDA functionality, but the CUDA library has not been loaded by "
    "the dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if this "
    "has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library.")
