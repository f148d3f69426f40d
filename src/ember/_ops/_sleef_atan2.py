"""torch's float32 ``atan2`` bit for bit: ``Sleef_atan2f8_u10`` (Sleef's ``xatan2f_u1``, a
double-float arctangent with FMA) in the vectors of ``cpu_kernel_vec``, glibc's ``atan2f``
one by one."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

import numpy as np

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
    bits = (m.view(np.int32) | (d.view(np.int32) & np.int32(-2 ** 31)))
    return np.where(np.isinf(d), bits.view(_f32), _f32(0))


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
