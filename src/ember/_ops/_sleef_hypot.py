"""torch's ``hypot`` bit for bit: ``Sleef_hypotf16_u05``/``Sleef_hypotd8_u05`` where its
binary loop runs vectors, glibc's ``hypotf``/``hypot`` (NumPy's, the same) one by one.

Sleef's ``xhypot_u05``: the smaller over the larger magnitude as a double-float quotient,
``sqrt(1 + t^2)`` in double-float (``dfsqrt``: the rounded root refined by one Newton step)
times the larger magnitude, written with the exact arithmetic of :mod:`._sleef_ext`.
"""

from __future__ import annotations

import numpy as np

from . import _sleef, _sleef_fmod
from ._sleef_ext import _add2_f2f, _add2_f2f2, _div, _mul_f2f, _mul_f2f2, _mul_ff, _squ, fma


def _rec1(d):  # dfrec_vf2_vf / ddrec_vd2_vd
    q = 1 / d
    return q, q * fma(-d, q, np.ones_like(q))


def _sqrt2(d):  # dfsqrt_vf2_vf2 / ddsqrt_vd2_vd2 (no reciprocal square root on x86)
    t = np.sqrt(d[0] + d[1])
    r = _mul_f2f2(_add2_f2f2(d, _mul_ff(t, t)), _rec1(t))
    half = d[0].dtype.type(0.5)
    return r[0] * half, r[1] * half


@_sleef.blocked
def hypot_vec(x, y):
    """``Sleef_hypotf16_u05`` (float32) / ``Sleef_hypotd8_u05`` (float64) on arrays of one
    shape and dtype."""
    x, y = np.broadcast_arrays(x, y)
    dt = x.dtype
    ty = dt.type
    with np.errstate(all="ignore"):
        ax, ay = np.abs(x), np.abs(y)
        mn, mx = np.minimum(ax, ay), np.maximum(ax, ay)
        o = mx < np.finfo(dt).tiny
        k = ty(2.0**24) if dt == np.float32 else ty(2.0**54)
        n, d = np.where(o, mn * k, mn), np.where(o, mx * k, mx)
        zero = np.zeros_like(n)
        t = _div((n, zero), (d, zero))
        t = _mul_f2f(_sqrt2(_add2_f2f(_squ(t), ty(1))), mx)
        r = t[0] + t[1]
        r = np.where(np.isnan(r), ty(np.inf), r)
        r = np.where(mn == 0, mx, r)
        r = np.where(np.isnan(x) | np.isnan(y), ty(np.nan), r)
        return np.where(np.isinf(x) | np.isinf(y), ty(np.inf), r)


def hypot(x, y):
    """torch's float32/float64 ``hypot``: Sleef's vectors, glibc's one by one."""
    with np.errstate(all="ignore"):
        return _sleef_fmod.binary(x, y, hypot_vec, np.hypot)


def complex_abs(z):
    """torch's ``abs`` of a complex64/complex128 array: ``Vectorized<complex>::abs``
    (Sleef's hypot of the real and imaginary parts) in steps of one vector (64 bytes: 8
    complex64, 4 complex128) over each contiguous row, glibc's ``hypot`` (``std::abs``)
    on the rest and on strided rows."""
    z = np.asarray(z)
    re, im = z.real, z.imag
    with np.errstate(all="ignore"):
        if z.ndim == 0 or not z.size:
            return np.hypot(re, im)
        mask = _sleef._scalar_mask(z, step=64 // z.dtype.itemsize)
        if mask.all():
            return np.hypot(re, im)
        out = hypot_vec(np.ascontiguousarray(re), np.ascontiguousarray(im)).reshape(z.shape)
        if mask.any():
            out[mask] = np.hypot(re[mask], im[mask])
        return out


def complex_sgn(z):
    """torch's ``sgn`` of a complex64/complex128 array: ``Vectorized<complex>::sgn`` (each
    part over Sleef's hypot, 0 where that is 0) in ``cpu_kernel_vec``'s steps of two
    vectors, and one by one ``sgn_impl``: ``z / complex(|z|, 0)`` in c10's division, that is
    each part times ``1 / |z|`` (glibc's hypot), 0 for 0."""
    z = np.asarray(z)
    re, im = z.real, z.imag
    ft = re.dtype.type

    def scalar(a, b):
        s = np.hypot(a, b)
        rat = ft(0) / s
        scl = ft(1) / (s + ft(0) * rat)
        zero = (a == 0) & (b == 0)
        return (
            np.where(zero, ft(0), (a + b * rat) * scl),
            np.where(zero, ft(0), (b - a * rat) * scl),
        )

    def pack(p, q):
        out = np.empty(p.shape, z.dtype)
        out.real, out.imag = p, q
        return out

    with np.errstate(all="ignore"):
        if z.ndim == 0 or not z.size:
            return pack(*scalar(re, im))
        mask = _sleef._scalar_mask(z)
        if mask.all():
            return pack(*scalar(re, im))
        a = hypot_vec(np.ascontiguousarray(re), np.ascontiguousarray(im)).reshape(z.shape)
        out = pack(np.where(a == 0, ft(0), re / a), np.where(a == 0, ft(0), im / a))
        if mask.any():
            out[mask] = pack(*scalar(re[mask], im[mask]))
        return out
