"""torch's ``lgamma`` bit for bit: Sleef's ``lgammaf16_u10``/``lgammad8_u10`` (AVX512).

``lgamma`` is one of torch's ``IMPLEMENT_FLOAT_KERNEL`` ops: it runs ``vml::vlgamma``,
``vec::map`` over each contiguous row (the strided ones copied to a buffer first), whose
last, partial vector is computed by the vector function too, so every element of a
float32/float64 tensor takes Sleef's algorithm (``gammak`` and ``logk2`` of
``sleefsimdsp.c``/``sleefsimddp.c``, with the AVX512 ``getexp`` in ``logk2``), written here
with the double-float (double-double) arithmetic of :mod:`ember._ops._sleef_ext`.
"""

from __future__ import annotations

import numpy as np

from . import _sleef
from ._sleef_ext import (
    _add2,
    _add2_f2f,
    _add2_f2f2,
    _add_f2f2,
    _div,
    _mul_f2f,
    _mul_f2f2,
    _mul_ff,
    _poly,
    _squ,
    fma,
)

_f32 = np.float32
_f64 = np.float64


def _c(v, like):
    return np.full(like.shape, v, like.dtype)


def _sel(o, a, b, like):
    """``o ? a : b`` for two constants, in ``like``'s dtype."""
    t = like.dtype.type
    return np.where(o, t(a), t(b))


def _sel3(o2, o0, a, b, c, like):
    t = like.dtype.type
    return np.where(o2, t(a), np.where(o0, t(b), t(c)))


def _sel2(o, x, y):
    return np.where(o, x[0], y[0]), np.where(o, x[1], y[1])


def _normalize(x):
    s = x[0] + x[1]
    return s, (x[0] - s) + x[1]


def _add2_ff2(x, y):  # dfadd2_vf2_vf_vf2
    rx = x + y[0]
    v = rx - x
    return rx, ((x - (rx - v)) + (y[0] - v)) + y[1]


def _neg(x):
    return -x[0], -x[1]


def _abs2(x):  # dfabs_vf2_vf2
    i = np.int32 if x[0].dtype == _f32 else np.int64
    sign = x[0].view(i) & i(np.iinfo(i).min)
    return np.abs(x[0]), (x[1].view(i) ^ sign).view(x[0].dtype)


def _cast2(d, like):
    """``vcast_vf2_d``: a double constant as a float pair."""
    hi = _f32(d)
    return _c(hi, like), _c(_f32(d - _f64(hi)), like)


def _getexp(x):
    """``_mm512_getexp``: floor(log2 |x|) as a float (-inf for 0, inf for inf)."""
    with np.errstate(all="ignore"):
        e = (np.frexp(x)[1] - 1).astype(x.dtype)
        e = np.where(x == 0, -np.inf, e)
        return np.where(np.isfinite(x), e, np.abs(x)).astype(x.dtype)


def _rint_i32(x):
    """``cvtps_epi32``/``cvtpd_epi32``: nearest even, INT_MIN out of range and for nan."""
    t = np.rint(x)
    return np.where(np.abs(t) < 2.0**31, t, -(2.0**31)).astype(np.int32)


def _trunc_i32(x):
    t = np.trunc(x)
    return np.where(np.abs(t) < 2.0**31, t, -(2.0**31)).astype(np.int32)


def _pow2i(q, dtype):
    """``vpow2i``: 2^q built in the exponent field (wrapping as the integer lanes do)."""
    if dtype == _f32:
        return ((q + np.int32(0x7F)) << np.int32(23)).view(_f32)
    return ((q + np.int32(0x3FF)).astype(np.int64) << 52).view(_f64)


# ----------------------------------------------------------------------------- logk2

_LOGK2F = (
    0.2392828464508056640625,
    0.28518211841583251953125,
    0.400005877017974853515625,
    0.666666686534881591796875,
)
_LOGK2D = (
    0.13860436390467167910856,
    0.131699838841615374240845,
    0.153914168346271945653214,
    0.181816523941564611721589,
    0.22222224632662035403996,
    0.285714285511134091777308,
    0.400000000000914013309483,
    0.666666666666664853302393,
)
_LN2F = (_f32(0.69314718246459960938), _f32(-1.904654323148236017e-09))
_LN2D = (0.693147180559945286226764, 2.319046813846299558417771e-17)


def _logk2(d):
    """Sleef's ``logk2f``/``logk2`` (AVX512): log of a double-float, as a double-float."""
    x0 = d[0]
    dt = x0.dtype
    r075 = dt.type(1 / 0.75) if dt == _f64 else _f32(1 / 0.75)
    e = _rint_i32(_getexp(x0 * r075))
    s2 = _pow2i(-e, dt)
    m = (d[0] * s2, d[1] * s2)
    x = _div(_add2_f2f(m, dt.type(-1)), _add2_f2f(m, dt.type(1)))
    x2 = _squ(x)
    if dt == _f32:
        t = _c(_LOGK2F[0], x0)
        for k in _LOGK2F[1:]:
            t = fma(t, x2[0], _c(k, x0))
    else:  # POLY7 (Estrin) and a last Horner step
        x4 = x2[0] * x2[0]
        t = fma(_poly(x2[0], x4, x4 * x4, None, _LOGK2D[:7]), x2[0], _c(_LOGK2D[7], x0))
    ln2 = _LN2F if dt == _f32 else _LN2D
    s = _mul_f2f((_c(ln2[0], x0), _c(ln2[1], x0)), e.astype(dt))
    s = _add_f2f2(s, (x[0] * dt.type(2), x[1] * dt.type(2)))
    return _add_f2f2(s, _mul_f2f(_mul_f2f2(x2, x), t))


# ----------------------------------------------------------------------------- sinpik

_SINPI_F = (
    (-0.2430611801e-7, +0.3093842054e-6),
    (+0.3590577080e-5, -0.3657307388e-4),
    (-0.3259917721e-3, +0.2490393585e-2),
)
_SINPI_F2 = (
    (0.015854343771934509277, 4.4940051354032242811e-10),
    (-0.080745510756969451904, -1.3373665339076936258e-09),
    (-0.30842512845993041992, -9.0728339030733922277e-09),
    (0.78539818525314331055, -2.1857338617566484855e-08),
)
_SINPI_D = (
    (9.94480387626843774090208e-16, -2.02461120785182399295868e-14),
    (-3.89796226062932799164047e-13, 6.948218305801794613277840e-12),
    (1.150115825399960352669010e-10, -1.75724749952853179952664e-09),
    (-2.46113695010446974953590e-08, 3.133616889668683928784220e-07),
    (3.590860448590527540050620e-06, -3.65762041821615519203610e-05),
    (-0.000325991886927389905997954, 0.0024903945701927185027435600),
)
_SINPI_D2 = (
    (0.0158543442438155018914259, -1.04693272280631521908845e-18),
    (-0.0807455121882807852484731, 3.61852475067037104849987e-18),
    (-0.308425137534042437259529, -1.95698492133633550338345e-17),
    (0.785398163397448278999491, 3.06287113727155002607105e-17),
)


def _sinpik(d):
    """Sleef's ``sinpifk``/``sinpik``: sin(pi d) as a double-float."""
    dt = d.dtype
    u = d * dt.type(4)
    q = _trunc_i32(u)
    q = (q + ((q.view(np.uint32) >> np.uint32(31)).astype(np.int32) ^ np.int32(1))) & np.int32(~1)
    o = (q & 2) == 2
    s = u - q.astype(dt)
    t = s
    s = s * s
    s2 = _mul_ff(t, t)
    cs, c2 = (_SINPI_F, _SINPI_F2) if dt == _f32 else (_SINPI_D, _SINPI_D2)
    v = _sel(o, *cs[0], d)
    for k in cs[1:]:
        v = fma(v, s, _sel(o, *k, d))
    ty = dt.type
    x = _add2_ff2(v * s, (_sel(o, c2[0][0], c2[1][0], d), _sel(o, c2[0][1], c2[1][1], d)))
    x = _add2_f2f2(
        _mul_f2f2(s2, x), (_sel(o, c2[2][0], c2[3][0], d), _sel(o, c2[2][1], c2[3][1], d))
    )
    x = _mul_f2f2(x, _sel2(o, s2, (t, np.zeros_like(t))))
    x = _sel2(o, _add2_f2f(x, ty(1)), x)
    neg = (q & 4) == 4
    return np.where(neg, -x[0], x[0]), np.where(neg, -x[1], x[1])


# ----------------------------------------------------------------------------- gammak

_GF_U = (
    (+0.000839498720672087279971000786, +0.9435157776e0, +0.1102489550e-3),
    (-5.17179090826059219329394422e-05, +0.8670063615e0, +0.8160019934e-4),
    (-0.000592166437353693882857342347, +0.4826702476e0, +0.1528468856e-3),
    (+6.97281375836585777403743539e-05, -0.8855129778e-1, -0.2355068718e-3),
    (+0.000784039221720066627493314301, +0.1013825238e0, +0.4962242092e-3),
    (-0.000229472093621399176949318732, -0.1493408978e0, -0.1193488017e-2),
    (-0.002681327160493827160473958490, +0.1697509140e0, +0.2891599433e-2),
    (+0.003472222222222222222175164840, -0.2072454542e0, -0.7385451812e-2),
    (+0.083333333333333333335592087900, +0.2705872357e0, +0.2058077045e-1),
)
_GF_Z = (
    (-0.400686534596170958447352690395e0, -0.673523028297382446749257758235e-1),
    (+0.822466960142643054450325495997e0, +0.322467033928981157743538726901e0),
    (-0.577215665946766039837398973297e0, +0.422784335087484338986941629852e0),
)
_GD_U = (
    (-156.801412704022726379848862, +0.2947916772827614196e2, +0.7074816000864609279e-7),
    (+1.120804464289911606838558160000, +0.1281459691827820109e3, +0.4009244333008730443e-6),
    (+13.39798545514258921833306020000, +0.2617544025784515043e3, +0.1040114641628246946e-5),
    (-0.116546276599463200848033357000, +0.3287022855685790432e3, +0.1508349150733329167e-5),
    (-1.391801093265337481495562410000, +0.2818145867730348186e3, +0.1288143074933901020e-5),
    (+0.015056113040026424412918973400, +0.1728670414673559605e3, +0.4744167749884993937e-6),
    (+0.179540117061234856098844714000, +0.7748735764030416817e2, -0.6554816306542489902e-7),
    (-0.002481743600264997730942489280, +0.2512856643080930752e2, -0.3189252471452599844e-6),
    (-0.029527880945699120504851034100, +0.5766792106140076868e1, +0.1358883821470355377e-6),
    (+0.000540164767892604515196325186, +0.7270275473996180571e0, -0.4343931277157336040e-6),
    (+0.006403362833808069794787256200, +0.8396709124579147809e-1, +0.9724785897406779555e-6),
    (-0.000162516262783915816896611252, -0.8211558669746804595e-1, -0.2036886057225966011e-5),
    (-0.001914438498565477526465972390, +0.6828831828341884458e-1, +0.4373363141819725815e-5),
    (+7.20489541602001055898311517e-05, -0.7712481339961671511e-1, -0.9439951268304008677e-5),
    (+0.000839498720672087279971000786, +0.8337492023017314957e-1, +0.2050727030376389804e-4),
    (-5.17179090826059219329394422e-05, -0.9094964931456242518e-1, -0.4492620183431184018e-4),
    (-0.000592166437353693882857342347, +0.1000996313575929358e0, +0.9945751236071875931e-4),
    (+6.97281375836585777403743539e-05, -0.1113342861544207724e0, -0.2231547599034983196e-3),
    (+0.000784039221720066627493314301, +0.1255096673213020875e0, +0.5096695247101967622e-3),
    (-0.000229472093621399176949318732, -0.1440498967843054368e0, -0.1192753911667886971e-2),
    (-0.002681327160493827160473958490, +0.1695571770041949811e0, +0.2890510330742210310e-2),
    (+0.003472222222222222222175164840, -0.2073855510284092762e0, -0.7385551028674461858e-2),
    (+0.083333333333333333335592087900, +0.2705808084277815939e0, +0.2058080842778455335e-1),
)
_GD_Z = (
    (-0.4006856343865314862e0, -0.6735230105319810201e-1),
    (+0.8224670334241132030e0, +0.3224670334241132030e0),
    (-0.5772156649015328655e0, +0.4227843350984671345e0),
)


def _gammak(a):
    """Sleef's ``gammafk``/``gammak``: (log-part, multiplier) as two double-floats."""
    dt = a.dtype
    single = dt == _f32
    ty = dt.type
    one, zero = _c(1, a), np.zeros_like(a)
    otiny = np.abs(a) < (ty(1e-30) if single else 1e-306)
    oref = a < ty(0.5)
    xr = _add2(one, -a)
    x = (
        np.where(otiny, zero, np.where(oref, xr[0], a)),
        np.where(otiny, zero, np.where(oref, xr[1], zero)),
    )
    o0 = (ty(0.5) <= x[0]) & (x[0] <= (ty(1.2) if single else ty(1.1)))
    o2 = ty(2.3) <= x[0]
    y = _normalize(_mul_f2f2(_add2_f2f(x, ty(1)), x))
    for k in (2,) if single else (2, 3, 4):
        y = _normalize(_mul_f2f2(_add2_f2f(x, ty(k)), y))
    o = o2 & (x[0] <= ty(7))
    clln = _sel2(o, y, (one, zero))
    x = _sel2(o, _add2_f2f(x, ty(3 if single else 5)), x)
    with np.errstate(divide="ignore"):
        rec = ty(1) / x[0]
    t = np.where(o2, rec, _normalize(_add2_f2f(x, _sel(o0, -1, -2, a)))[0])
    cu, cz = (_GF_U, _GF_Z) if single else (_GD_U, _GD_Z)
    u = _sel3(o2, o0, *cu[0], a)
    for k in cu[1:]:
        u = fma(u, t, _sel3(o2, o0, *k, a))
    y = _mul_f2f2(_add2_f2f(x, ty(-0.5)), _logk2(x))
    y = _add2_f2f2(y, _neg(x))
    half_log_2pi = (
        _cast2(0.91893853320467278056, a)
        if single
        else (_c(0.91893853320467278056, a), _c(-3.8782941580672414498e-17, a))
    )
    y = _add2_f2f2(y, half_log_2pi)
    ut = _mul_ff(u, t)
    z = _add2_f2f(ut, _sel(o0, *cz[0], a))
    z = _add2_f2f(_mul_f2f(z, t), _sel(o0, *cz[1], a))
    z = _add2_f2f(_mul_f2f(z, t), _sel(o0, *cz[2], a))
    z = _mul_f2f(z, t)
    clc = _sel2(o2, y, z)
    clld = _sel2(o2, _add2_f2f(ut, ty(1)), (one, zero))
    y = clln
    if single:
        log_tiny, log_pi = _cast2(41.58883083359671856503, a), _cast2(1.1447298858494001639, a)
    else:
        log_tiny = (_c(83.1776616671934334590333, a), _c(3.67103459631568507221878e-15, a))
        log_pi = (_c(1.1447298858494001639, a), _c(1.026595116270782638e-17, a))
    clc = _sel2(otiny, log_tiny, _sel2(oref, _add2_f2f2(log_pi, _neg(clc)), clc))
    clln = _sel2(otiny, (one, zero), _sel2(oref, clln, clld))
    if oref.any():
        k = ty(1 << 12) if single else ty(1 << 28)
        t = a - k * _trunc_i32(a * (ty(1) / k)).astype(dt)
        x = _mul_f2f2(clld, _sinpik(t))
    else:
        x = (zero, zero)
    big = ty(2.0**60) if single else ty(2.0**120)
    clld = _sel2(otiny, (a * big, zero), _sel2(oref, x, y))
    return clc, _div(clln, clld)


def lgamma_vec(a):
    """``Sleef_lgammaf16_u10`` (float32) / ``Sleef_lgammad8_u10`` (float64) on an array."""
    a = np.asarray(a)
    if a.size == 0:
        return np.empty(a.shape, a.dtype)
    return _lgamma(a.reshape(-1)).reshape(a.shape)


@_sleef.blocked
def _lgamma(a):
    with np.errstate(all="ignore"):
        ca, cb = _gammak(a)
        y = _add2_f2f2(ca, _logk2(_abs2(cb)))
        r = y[0] + y[1]
        o = np.isinf(a) | ((a <= 0) & (np.trunc(a) == a)) | (np.isfinite(a) & np.isnan(r))
        return np.where(o, a.dtype.type(np.inf), r)
