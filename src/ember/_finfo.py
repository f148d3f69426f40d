"""``ember.finfo`` and ``ember.iinfo``: the numerical limits of a dtype, as torch gives them."""

from __future__ import annotations

import math

import numpy as np

from . import _dtype as D

__all__ = ["finfo", "iinfo"]


# where torch's numeric_limits differ from ml_dtypes'
_TORCH_EPS = {"float8_e5m2fnuz": 0.125}


class finfo:
    """Limits of a floating dtype (of a complex dtype's parts): ``eps``, ``max``, ``tiny`` …"""

    def __init__(self, type: D.dtype | None = None):
        if type is None:
            type = D.get_default_dtype()
        if not isinstance(type, D.dtype):
            raise TypeError("finfo(): argument 'type' (position 1) must be torch.dtype, not "
                            f"{builtins_type(type).__name__}")
        if not (type.is_floating_point or type.is_complex):
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        type = type.to_real()
        if type.np in D.REDUCED:
            import ml_dtypes

            fi = ml_dtypes.finfo(type.np)
        else:
            fi = np.finfo(type.np)
        self.bits = type.itemsize * 8
        self.eps = _TORCH_EPS.get(type.name, float(fi.eps))
        self.max = float(fi.max)
        self.min = float(fi.min)
        self.tiny = self.smallest_normal = float(fi.smallest_normal)
        self.resolution = 10.0 ** -math.floor(-math.log10(self.eps))
        self.dtype = type.name

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")

    def __eq__(self, other) -> bool:
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self) -> int:
        return hash(("finfo", self.dtype))


class iinfo:
    """Limits of an integer dtype: ``min``, ``max``, ``bits``."""

    def __init__(self, type: D.dtype):
        if not isinstance(type, D.dtype):
            raise TypeError("iinfo(): argument 'type' (position 1) must be torch.dtype, not "
                            f"{builtins_type(type).__name__}")
        if type is D.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type._category != 1:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")
        ii = np.iinfo(type.np)
        self.bits, self.min, self.max = ii.bits, int(ii.min), int(ii.max)
        self.dtype = type.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"

    def __eq__(self, other) -> bool:
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __hash__(self) -> int:
        return hash(("iinfo", self.dtype))


builtins_type = type

finfo.__module__ = iinfo.__module__ = __package__     # as torch's: ``torch.finfo``
