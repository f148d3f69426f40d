"""torch's float ``fmod``/``remainder`` bit for bit: Sleef's ``fmod`` (``Sleef_fmodf8``,
``Sleef_fmodd4``) in the vectors of ``cpu_kernel_vec``, the C library's ``fmod`` one by one.

Sleef's fmod is a double-float long division with a fixed number of steps (8 for float, 21
for double): where ``|x / y|`` overflows (huge ``x``, tiny ``y``) the quotient estimate is
infinite and the result nan, which is what torch returns for those elements of a vector.
"""

from __future__ import annotations

import numpy as np

from . import _sleef
from ._sleef_ext import _add2_f2f2, _mul_ff, _mulsign

_f32 = np.float32


def _toward0(x):
    """The float just below ``x`` in magnitude (0 stays 0): Sleef's ``vtoward0``."""
    i = np.int32 if x.dtype == _f32 else np.int64
    t = (x.view(i) - i(1)).view(x.dtype)
    return np.where(x == 0, x.dtype.type(0), t)


def fmod_vec(x, y):
    """Sleef's vector fmod on same-shape float32/float64 arrays."""
    dt = x.dtype
    f = dt.type
    with np.errstate(all="ignore"):
        nu, de = np.abs(x), np.abs(y)
        tiny = de < np.finfo(dt).tiny
        k = f(2.0 ** 25) if dt == _f32 else f(2.0 ** 54)
        nu = np.where(tiny, nu * k, nu)
        de = np.where(tiny, de * k, de)
        s = np.where(tiny, f(1) / k, f(1))
        rde = _toward0(f(1) / de)
        rx, ry = nu, np.zeros_like(nu)
        steps = 8 if dt == _f32 else 21
        for _ in range(steps):
            q = np.where((de + de > rx) & (rx >= de), f(1), _toward0(rx) * rde)
            q = np.trunc(q)
            if dt != _f32:
                q = (q.view(np.int64) & np.int64(-2)).view(dt)
            m = _mul_ff(q, -de)
            rx, ry = _add2_f2f2((rx, ry), m)
            t = rx + ry                       # dfnormalize
            rx, ry = t, (rx - t) + ry
            if (rx < de).all():
                break
        ret = (rx + ry) * s if dt == _f32 else rx * s
        ret = np.where(rx + ry == de, f(0), ret)
        ret = _mulsign(ret, x)
        ret = np.where(nu < de, x, ret)
        return np.where(de == 0, f(np.nan), ret)


def _c_fmod(x, y):
    with np.errstate(all="ignore"):
        return np.fmod(x, y)


def fmod(x, y):
    """torch's float ``fmod`` of two same-dtype float32/float64 arrays (broadcast)."""
    return binary(x, y, fmod_vec, _c_fmod, avx512=False)


def _rem(mod, y):
    shift = (mod != 0) & ((y < 0) != (mod < 0))
    with np.errstate(all="ignore"):
        return np.where(shift, mod + y, mod).astype(mod.dtype, copy=False)


def remainder(x, y):
    """torch's float ``remainder``: ``fmod`` shifted by ``y`` where the signs differ."""
    return binary(x, y, lambda a, b: _rem(fmod_vec(a, b), b),
                  lambda a, b: _rem(_c_fmod(a, b), b), avx512=False)


def binary(x, y, vec, scalar, avx512: bool = True):
    """torch's ``cpu_kernel_vec`` for a binary float op: ``vec`` where it runs vectors,
    ``scalar`` on the elements it runs one by one; ``avx512``: torch also builds the kernel
    for AVX512 (fmod and remainder it does not)."""
    x, y = np.asarray(x), np.asarray(y)
    if y.dtype != x.dtype:
        y = y.astype(x.dtype)
    mask = _vector_mask(x, y, avx512)
    if mask is None:
        return scalar(*np.broadcast_arrays(x, y))
    x, y = np.broadcast_arrays(x, y)
    out = vec(x, y)
    if mask.any():
        out[mask] = scalar(x[mask], y[mask])
    return out


def _vector_mask(x, y, avx512):
    """Which elements torch's binary loop computes one by one (True), or None where it
    runs no vectors: the operands' shared innermost dims coalesce into the loop's rows,
    a broadcast operand (stride 0) still runs vectors; other layouts run one by one."""
    shape = np.broadcast_shapes(x.shape, y.shape)
    if not shape or not np.prod(shape):
        return None
    if x.shape == y.shape and x.strides == y.strides:
        return _sleef._scalar_mask(x, avx512)
    item = x.dtype.itemsize
    keep = [d for d in range(len(shape)) if shape[d] != 1]
    sizes = [shape[d] for d in keep]
    if not sizes:
        return None
    ops = [[np.broadcast_to(a, shape).strides[d] for d in keep] for a in (x, y)]
    ops.append(list(np.cumprod([1] + sizes[::-1])[:-1][::-1] * item))      # the output
    if any(st[-1] not in (0, item) for st in ops):
        return None
    k = 1
    while k < len(sizes) and all(st[-k - 1] == st[-k] * sizes[-k] for st in ops):
        k += 1
    inner = int(np.prod(sizes[len(sizes) - k:]))
    outer = int(np.prod(sizes[:len(sizes) - k]))
    dummy = np.empty((outer, inner + 1), x.dtype)[:, :inner] if outer > 1 \
        else np.empty(inner, x.dtype)
    return _sleef._scalar_mask(dummy, avx512).reshape(shape)
