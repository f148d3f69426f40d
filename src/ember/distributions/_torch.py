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


def is_tensor_like(x) -> bool:
    return isinstance(x, Tensor)


__all__ = ["torch", "Tensor", "Size", "nan", "inf", "Number", "finfo", "is_tensor_like", "_size",
           "_dtype", "Device", "SymInt", "_Number"]


def _gammainc_one(a: float, x: float) -> float:
    """The regularized lower incomplete gamma ``P(a, x)``: its series below ``a + 1``, else
    one minus the continued fraction of ``Q`` (Lentz), to double precision."""
    import math
    if math.isnan(a) or math.isnan(x) or a < 0 or x < 0:
        return math.nan
    if a == 0:
        return 1.0 if x > 0 else math.nan
    if x == 0:
        return 0.0
    if math.isinf(x):
        return 1.0
    lead = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-17:
            n += 1
            term *= x / n
            total += term
        return min(1.0, total * math.exp(lead))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return 1.0 - math.exp(lead) * h


def gammainc(a, x):
    """``torch.special.gammainc`` (``igamma``) of tensors, element-wise in double."""
    a, x = torch.broadcast_tensors(torch.as_tensor(a), torch.as_tensor(x))
    dt = torch.promote_types(a.dtype, x.dtype)
    vals = [_gammainc_one(p, q) for p, q in zip(a.detach().reshape(-1).tolist(),
                                                x.detach().reshape(-1).tolist())]
    return torch.tensor(vals, dtype=torch.float64).reshape(a.shape).to(dt)
