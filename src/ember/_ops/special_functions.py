"""The functions only ``torch.special`` holds: ``entr``, ``ndtr``, ``ndtri``, ``log_ndtr`` and
``xlog1py``, with torch's nodes and derivatives.yaml's formulas. (The rest of
``torch.special`` is the top-level functions under their special names: ``ember.special``.)
"""

from __future__ import annotations

import math

from .._device import xp
from .registry import FLOAT, op
from .unary import _erfc64, _in_precision, erf, erfinv

_SQRT1_2 = math.sqrt(0.5)
_SQRT_2PI = math.sqrt(2 * math.pi)


def _entr_kernel(x):
    with xp.errstate(all="ignore"):
        out = xp.where(x > 0, -x * xp.log(xp.where(x > 0, x, 1)), xp.where(x == 0, 0, -xp.inf))
    return xp.where(xp.isnan(x), x, out).astype(x.dtype)


@op("SpecialEntrBackward0", name="special_entr", method=False, function=False, promote=FLOAT,
    self=lambda grad, self: grad * -(1 + self.log()))
def entr(self):
    """``-x log x`` (0 at 0, ``-inf`` for negative ``x``)."""
    return _entr_kernel(self)


def ndtr(input):
    """The standard normal CDF, ``(1 + erf(x / sqrt(2))) / 2`` (torch's composition)."""
    from .nn import mul_scalar
    return mul_scalar(1 + erf(mul_scalar(input.float() if not input.dtype.is_floating_point
                                         else input, _SQRT1_2)), 0.5)


@op("SpecialNdtriBackward0", name="special_ndtri", method=False, function=False,
    promote=FLOAT, self=lambda grad, result: grad * (_SQRT_2PI * (result.pow(2) / 2).exp()))
def ndtri(self):
    """The inverse of the standard normal CDF."""
    return (math.sqrt(2.0) * erfinv.kernel(2 * self.astype(xp.float64) - 1)).astype(self.dtype)


def _log_ndtr64(x):
    x = xp.asarray(x, xp.float64)
    with xp.errstate(all="ignore"):
        return xp.log(0.5 * _erfc64(-x * _SQRT1_2))


@op("SpecialLogNdtrBackward0", name="special_log_ndtr", method=False, function=False,
    promote=FLOAT,
    self=lambda grad, self, result: grad / _SQRT_2PI * (-(result + self.pow(2) / 2)).exp())
def log_ndtr(self):
    """The log of the standard normal CDF, accurate far into the left tail."""
    return _in_precision(_log_ndtr64, self)


def _xlog1py_kernel(self, other):
    with xp.errstate(all="ignore"):
        out = xp.where(self == 0, 0, self * xp.log1p(other))
    return xp.where(xp.isnan(other), other, out).astype(xp.result_type(self, other))


@op("SpecialXlog1PyBackward0", name="special_xlog1py", method=False, function=False,
    promote=FLOAT, tensors=("self", "other"),
    self=lambda grad, self, other: grad * _xlog1py(self != 0, other),
    other=lambda grad, self, other: grad * self / (other + 1))
def xlog1py(self, other):
    """``self * log1p(other)``, 0 where ``self`` is 0."""
    return _xlog1py_kernel(self, other)


def _xlog1py(mask, other):
    return xlog1py(mask.to(other.dtype), other)


__all__ = ["entr", "ndtr", "ndtri", "log_ndtr", "xlog1py"]
