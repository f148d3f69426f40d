"""torch's float ``atan2`` and ``exp2`` bit for bit: Sleef's ``xatan2f_u1`` /
``xatan2_u1`` (``Sleef_atan2f8_u10``, ``Sleef_atan2d8_u10``: double-float and double-double
arctangents with FMA) and ``xexp2f`` / ``xexp2`` in the vectors of ``cpu_kernel_vec``,
glibc's ``atan2f`` / ``atan2`` / ``exp2`` one by one."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

import numpy as np

from . import _libm, _sleef, _sleef_d
from ._sleef_ext import _add, _add_f2f2, _add_ff2, _div, _mul_f2f, _mul_f2f2, _mulsign, _squ, fma
from ._sleef_fmod import binary

_f32 = np.float32
_ATAN_POLY = (0.0107900900766253471374512, -0.0309564601629972457885742,
              0.0577365085482597351074219, -0.0838950723409652709960938,
              0.109463557600975036621094, -0.142626821994781494140625,
              0.199983194470405578613281)
_PI = _f32(np.pi)
_PI_2 = _f32(np.pi / 2)
_PI_4 = _f32(np.pi / 4)


def _atan2k(y, x):
    """``atan2kf_u1`` on (|y|, x) as double-floats with zero low parts."""
    neg = x < 0
    q = np.where(neg, -2, 0).astype(np.int32)
    x = np.abs(x)
    p = x < y
    q = np.where(p, q + 1, q)
    zero = np.zeros_like(x)
    s = (np.where(p, -x, y), zero)
    t = (np.where(p, y, x), zero)
    s = _div(s, t)
    t = _squ(s)
    tx = t[0] + t[1]                                  # dfnormalize
    t = (tx, (t[0] - tx) + t[1])
    u = np.full_like(x, _f32(-0.00176397908944636583328247))
    for c in _ATAN_POLY:
        u = fma(u, t[0], _f32(c))
    t = _mul_f2f2(t, _add(_f32(-0.333332866430282592773438), u * t[0]))
    t = _mul_f2f2(s, _add_ff2(_f32(1), t))
    qf = q.astype(_f32)
    hi = (np.full_like(x, _f32(1.5707963705062866211)),
          np.full_like(x, _f32(-4.3711388286737928865e-08)))
    return _add_f2f2(_mul_f2f(hi, qf), t)


def _isinf2(d, m):
    """Sleef's ``visinf2``: ``m`` with ``d``'s sign bit or'ed in where ``d`` is infinite, else 0."""
    i = np.int32 if d.dtype == _f32 else np.int64
    bits = m.view(i) | (d.view(i) & i(np.iinfo(i).min))
    return np.where(np.isinf(d), bits.view(d.dtype), d.dtype.type(0))


def atan2f_vec(y, x):
    """``xatan2f_u1`` on float32 arrays of one shape."""
    with np.errstate(all="ignore"):
        tiny = np.abs(x) < _f32(2.9387372783541830947e-39)
        x = np.where(tiny, x * _f32(1 << 24), x)
        y = np.where(tiny, y * _f32(1 << 24), y)
        d = _atan2k(np.abs(y), x)
        r = d[0] + d[1]
        r = _mulsign(r, x)
        r = np.where(np.isinf(x) | (x == 0), _PI_2 - _isinf2(x, _mulsign(_PI_2, x)), r)
        r = np.where(np.isinf(y), _PI_2 - _isinf2(x, _mulsign(_PI_4, x)), r)
        r = np.where(y == 0, np.where(np.signbit(x), _PI, _f32(0)), r)
        r = _mulsign(r, y)
        return np.where(np.isnan(x) | np.isnan(y), _f32(np.nan), r)


@functools.cache
def _atan2f():
    try:
        lib = ctypes.CDLL("libm.so.6")
    except OSError:
        lib = ctypes.CDLL(ctypes.util.find_library("m"))
    fn = lib.atan2f
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]
    return fn


def atan2f_scalar(y, x):
    """glibc's ``atan2f``, element by element."""
    fn = _atan2f()
    out = np.fromiter(map(fn, y.reshape(-1).tolist(), x.reshape(-1).tolist()), _f32,
                      count=y.size)
    return out.reshape(y.shape)


def atan2(y, x):
    """torch's float32 ``atan2``."""
    return binary(y, x, atan2f_vec, atan2f_scalar)


# ----------------------------------------------------------------------------- float64 atan2

_ATAN2D_POLY = (1.06298484191448746607415e-05, -0.000125620649967286867384336,
                0.00070557664296393412389774, -0.00251865614498713360352999,
                0.00646262899036991172313504, -0.0128281333663399031014274,
                0.0208024799924145797902497, -0.0289002344784740315686289,
                0.0359785005035104590853656, -0.041848579703592507506027,
                0.0470843011653283988193763, -0.0524914210588448421068719,
                0.0587946590969581003860434, -0.0666620884778795497194182,
                0.0769225330296203768654095, -0.0909090442773387574781907)
_ATAN2D_HORNER = (0.111111108376896236538123, -0.142857142756268568062339,
                  0.199999999997977351284817, -0.333333333333317605173818)
_PI_2_DD = (1.570796326794896557998982, 6.12323399573676603586882e-17)


def _atan2k_u1(y, x):
    """``atan2k_u1`` on (|y|, x) as double-doubles with zero low parts."""
    q = np.where(np.signbit(x), -2, 0)
    neg = x < 0
    zero = np.zeros_like(x)
    xl = np.where(neg, -zero, zero)             # the sign flip of x reaches its low part too
    x = np.where(neg, -x, x)
    p = x < y
    q = np.where(p, q + 1, q)
    s = _div((np.where(p, -x, y), np.where(p, -xl, zero)),
             (np.where(p, y, x), np.where(p, zero, xl)))
    t = _squ(s)
    tx = t[0] + t[1]                                  # ddnormalize
    t = (tx, (t[0] - tx) + t[1])
    t2 = tx * tx
    t4 = t2 * t2
    t8 = t4 * t4
    halves = _sleef_d._split(tx)

    def poly4(c):                                     # Sleef's POLY4 .. POLY16: Estrin
        return fma(t2, _sleef_d._fmak(tx, c[0], c[1], halves),
                   _sleef_d._fmak(tx, c[2], c[3], halves))

    def poly8(c):
        return fma(t4, poly4(c[:4]), poly4(c[4:]))
    c = _ATAN2D_POLY
    u = fma(t8, poly8(c[:8]), poly8(c[8:]))
    for k in _ATAN2D_HORNER:
        u = fma(u, tx, np.full_like(tx, k))
    t = _add_f2f2(s, _mul_f2f(_mul_f2f2(s, t), u))
    qf = q.astype(np.float64)
    # ddmul((pi/2 hi, lo), q) is exact for q in {-2, -1, 0, 1}
    return _add_f2f2((_PI_2_DD[0] * qf, _PI_2_DD[1] * qf), t)


@_sleef.blocked
def atan2d_vec(y, x):
    """``xatan2_u1`` (``Sleef_atan2d8_u10``, FMA) on float64 arrays of one shape."""
    with np.errstate(all="ignore"):
        tiny = np.abs(x) < 5.5626846462680083984e-309
        x = np.where(tiny, x * 2.0 ** 53, x)
        y = np.where(tiny, y * 2.0 ** 53, y)
        d = _atan2k_u1(np.abs(y), x)
        r = _mulsign(d[0] + d[1], x)
        half_pi = np.full_like(x, np.pi / 2)
        r = np.where(np.isinf(x) | (x == 0), np.pi / 2 - _isinf2(x, _mulsign(half_pi, x)), r)
        r = np.where(np.isinf(y), np.pi / 2 - _isinf2(x, _mulsign(half_pi / 2, x)), r)
        r = np.where(y == 0, np.where(np.signbit(x), np.pi, 0.0), r)
        r = _mulsign(r, y)
        return np.where(np.isnan(x) | np.isnan(y), np.nan, r)


def atan2d(y, x):
    """torch's float64 ``atan2``: Sleef's vectors, glibc's ``atan2`` one by one."""
    return binary(y, x, atan2d_vec, _libm.double_fn("atan2"))


def complex_angle(z):
    """torch's ``angle`` of a complex64/complex128 array: ``Vectorized<complex>::angle``
    (Sleef's atan2 of the imaginary and real parts) in ``cpu_kernel_vec``'s steps of two
    256-bit vectors (8 complex64, 4 complex128; no AVX512 build) over each contiguous row,
    glibc's ``atan2f``/``atan2`` (``std::arg``) on the rest and on strided rows."""
    z = np.asarray(z)
    f32 = z.dtype == np.complex64
    re, im = z.real, z.imag
    scalar = atan2f_scalar if f32 else _libm.double_fn("atan2")
    with np.errstate(all="ignore"):
        if z.ndim == 0 or not z.size:     # (ascontiguousarray makes a 0-d array 1-d)
            return scalar(np.ascontiguousarray(im), np.ascontiguousarray(re)).reshape(z.shape)
        mask = _sleef._scalar_mask(z, step=64 // z.dtype.itemsize)
        if mask.all():
            return scalar(np.ascontiguousarray(im), np.ascontiguousarray(re))
        vec = atan2f_vec if f32 else atan2d_vec
        out = vec(np.ascontiguousarray(im), np.ascontiguousarray(re)).reshape(z.shape)
        if mask.any():
            out[mask] = scalar(im[mask], re[mask])
        return out


# ----------------------------------------------------------------------------- exp2

_EXP2F_POLY = (0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1, 0.2402264476e+0,
               0.6931471825e+0)


def exp2f_vec(d):
    """``Sleef_exp2f8_u10`` (``xexp2f``, FMA) on a float32 array."""
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = np.where(np.abs(u) < 2.0 ** 31, u, -2.0 ** 31).astype(np.int32)
        s = d - u
        p = np.full_like(d, _f32(0.1535920892e-3))
        for c in _EXP2F_POLY:
            p = fma(p, s, _f32(c))
        p = fma(p, s, _f32(1))
        h = q >> 1
        p = p * ((h + 127) << 23).view(_f32) * (((q - h) + 127) << 23).view(_f32)
        p = np.where(d >= 128, _f32(np.inf), p)
        p = np.where(d < -150, _f32(0), p)
        return np.where(np.isnan(d), d, p)


def exp2f(a):
    """torch's float32 ``exp2``: Sleef's vectors, glibc's ``exp2f`` one by one."""
    return _sleef.elementwise(a, exp2f_vec, _libm.c_float("exp2f"))


_EXP2D_POLY = (0.4434359082926529454e-9, 0.7073164598085707425e-8, 0.1017819260921760451e-6,
               0.1321543872511327615e-5, 0.1525273353517584730e-4, 0.1540353045101147808e-3,
               0.1333355814670499073e-2, 0.9618129107597600536e-2, 0.5550410866482046596e-1,
               0.2402265069591012214e+0)


@_sleef.blocked
def exp2d_vec(d):
    """``Sleef_exp2d4_u10`` (``xexp2``, FMA): Estrin's scheme for the degree-9 part."""
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = np.where(np.abs(u) < 2.0 ** 31, u, -2.0 ** 31).astype(np.int64)
        s = d - u
        s2 = s * s
        s4 = s2 * s2
        s8 = s4 * s4
        c = _EXP2D_POLY                                        # c9 .. c0
        halves = _sleef_d._split(s)

        def p2(a, b):
            return _sleef_d._fmak(s, a, b, halves)

        def p4(a, b, e, f):
            return fma(s2, p2(a, b), p2(e, f))
        p8 = fma(s4, p4(*c[2:6]), p4(*c[6:10]))
        p = fma(s8, p2(c[0], c[1]), p8)
        p = fma(p, s, np.full_like(d, 0.6931471805599452862e+0))
        p = fma(p, s, np.ones_like(d))
        h = q >> 1
        p = p * ((h + 1023) << 52).view(np.float64) * (((q - h) + 1023) << 52).view(np.float64)
        p = np.where(d >= 1024, np.inf, p)
        p = np.where(d < -2000, 0.0, p)
        return np.where(np.isnan(d), d, p)


def exp2d(a):
    """torch's float64 ``exp2``: Sleef's vectors, glibc's ``exp2`` one by one."""
    return _sleef.elementwise(a, exp2d_vec, _libm.double_fn("exp2"))
