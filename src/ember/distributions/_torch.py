"""The package under torch's name, for the distributions (whose code follows
``torch.distributions`` line for line), and the few helpers torch has elsewhere."""

from __future__ import annotations

import sys
from numbers import Number

import numpy as np

torch = sys.modules[__name__.split(".")[0]]
Tensor = torch.Tensor
Size = torch.Size
nan = float("nan")
inf = float("inf")
_Number = (int, float)
_size = tuple        # names of torch.types, for the annotations
_dtype = torch.dtype
Device = torch.device
SymInt = int


class _FInfo:
    """``torch.finfo`` of a floating dtype (eps, tiny, min, max)."""

    def __init__(self, dtype) -> None:
        info = np.finfo(dtype.np)
        self.eps = float(info.eps)
        self.tiny = float(info.tiny)
        self.min = float(info.min)
        self.max = float(info.max)
        self.bits = info.bits
        self.resolution = float(info.resolution)
        self.dtype = str(dtype).replace("torch.", "")


def finfo(dtype=None):
    own = getattr(torch, "finfo", None)
    if own is not None:
        return own(dtype) if dtype is not None else own()
    return _FInfo(dtype if dtype is not None else torch.get_default_dtype())


def broadcast_shapes(*shapes) -> Size:
    """``torch.broadcast_shapes``."""
    own = getattr(torch, "broadcast_shapes", None)
    if own is not None:
        return own(*shapes)
    from .._ops.util import broadcast_shapes as _bs
    return Size(_bs(*shapes))


def cholesky_inverse(L, upper: bool = False):
    """``torch.cholesky_inverse``: ``(L Lᴴ)⁻¹`` from a Cholesky factor (``(Uᴴ U)⁻¹`` if upper),
    by two triangular solves."""
    eye = torch.eye(L.shape[-1], dtype=L.dtype).expand(L.shape)
    Linv = torch.linalg.solve_triangular(L, eye, upper=upper)
    return Linv @ Linv.mT if upper else Linv.mT @ Linv


def is_tensor_like(x) -> bool:
    return isinstance(x, Tensor)


__all__ = ["torch", "Tensor", "Size", "nan", "inf", "Number", "finfo", "is_tensor_like", "_size",
           "_dtype", "Device", "SymInt", "_Number"]
