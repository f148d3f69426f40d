"""torch's vectorised float64 math, bit for bit: Sleef's AVX2 double-precision algorithms,
glibc's ``exp`` for the elements torch computes one by one, and the loop that applies them.

``Vectorized<double>`` holds four lanes; ``exp`` is ``Sleef_expd4_u10`` and ``log`` is
``Sleef_logd4_u10``, both written here with exact fused multiply-adds
(:func:`ember._ops._exact.fma`). ``cpu_kernel_vec`` runs the vector function over each
contiguous row in steps of two vectors (8 doubles) and ``std::exp`` on the rest
(:func:`elementwise`).
"""

from __future__ import annotations

import numpy as np

from . import _exact, _sleef
from ._exact import fma

_f64 = np.float64
_H = float.fromhex

_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U, _L2L = .69314718055966295651160180568695068359375, \
    .28235290563031577122588448175013436025525412068e-12
_EXP_C = (+0.2081276378237164457e-8, +0.2511210703042288022e-7, +0.2755762628169491192e-6,
          +0.2755723402025388239e-5, +0.2480158687479686264e-4, +0.1984126989855865850e-3,
          +0.1388888888914497797e-2, +0.8333333333314938210e-2, +0.4166666666666602598e-1,
          +0.1666666666666669072e+0)


_blocked = _sleef.blocked


def _pow2i(q):
    return ((q.astype(np.int64) + 0x3ff) << 52).view(_f64)


def _ldexp2(u, q):
    h = q >> 1
    return u * _pow2i(h) * _pow2i(q - h)


def _split(k):
    kh = k * 134217729.0
    kh = kh - (kh - k)
    return kh, k - kh


def _fmak(a, k, c, halves=None):
    """``fma(a, k, c)`` for a constant ``k`` (its halves precomputed, and ``a``'s when
    given as ``halves``, ``_split(a)``): the same error-free product and sum as
    :func:`ember._ops._exact.fma`."""
    kh, kl = _split(k)
    if not (isinstance(a, np.ndarray) and a.ndim and np.shape(c) in ((), a.shape)):
        return fma(a, np.full_like(a, k), c)
    p = a * k
    tiny = np.abs(p) < _exact._DEKKER_MIN
    if halves is None:
        ah = a * 134217729.0
        t = ah - a
        ah -= t                                     # in place: the same operations in order
        al = a - ah
    else:
        ah, al = halves[0].copy(), halves[1].copy()
        t = np.empty_like(a)
    pe = ah * kh
    pe -= p
    pe += np.multiply(ah, kl, out=t)
    pe += np.multiply(al, kh, out=ah)
    al *= kl
    pe += al
    if not np.isfinite(pe).all():         # a split overflowed: operands near 1.8e308
        pe = _exact._large_product_error(a, k, p, pe)
    s = p + c
    bb = s - p
    p -= np.subtract(s, bb, out=t)
    p += np.subtract(c, bb, out=bb)
    out = _exact.fma_specials(a, k, c, tiny, s, _exact.sum_errors(s, p, pe))
    if not np.isfinite(out).all():        # a term near the largest double overflowed
        out = _exact._huge_terms(a, k, c, out)
    return out


@_blocked
def expd(d):
    """``Sleef_expd4_u10`` (AVX2, FMA) on a float64 array."""
    with np.errstate(all="ignore"):
        u = np.rint(d * _R_LN2)
        q = np.clip(np.nan_to_num(u), -2000, 2000).astype(np.int32)
        s = _fmak(u, -_L2U, d)
        s = _fmak(u, -_L2L, s)
        s2 = s * s
        s4 = s2 * s2
        s8 = s4 * s4
        c = _EXP_C
        h = _split(s)
        p = fma(s8, _fmak(s, c[0], c[1], h),
                fma(s4, fma(s2, _fmak(s, c[2], c[3], h), _fmak(s, c[4], c[5], h)),
                    fma(s2, _fmak(s, c[6], c[7], h), _fmak(s, c[8], c[9], h))))
        p = fma(p, s, 0.5)
        p = fma(p, s, 1.0)
        p = fma(p, s, 1.0)
        u = _ldexp2(p, q)
        u = np.where(d > _H("0x1.62e42fefa39efp+9"), np.inf, u)
        return np.where(d < -1000, 0.0, u)


def _dd_add2(x, y):
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


_LOG_C = (0.1532076988502701353, 0.1525629051003428716, 0.1818605932937785996,
          0.2222214519839380009, 0.2857142932794299317, 0.3999999999635251990,
          0.6666666666667333541)
_LN2_HI, _LN2_LO = 0.693147180559945286226764, 2.319046813846299558417771e-17


@_blocked
def logd(d):
    """``Sleef_logd4_u10`` (AVX2, FMA) on a float64 array: double-double arithmetic."""
    with np.errstate(all="ignore"):
        o = d < _H("0x1p-1022")
        d = np.where(o, d * (4294967296.0 * 4294967296.0), d)
        e = (((d * (1.0 / 0.75)).view(np.int64) >> 52) & 0x7ff) - 0x3ff
        m = (d.view(np.int64) - (e << 52)).view(_f64)
        ef = np.where(o, e - 64, e).astype(_f64)
        nx, ny = _dd_add2(-1.0, m)
        dx, dy = _dd_add2(1.0, m)
        # dddiv: (nx, ny) / (dx, dy)
        t = 1.0 / dx
        xx = nx * t
        u = fma(t, nx, -xx)
        v = fma(-dy, t, fma(-dx, t, 1.0))
        xy = fma(xx, v, fma(ny, t, u))
        x2 = xx * xx
        x4 = x2 * x2
        x8 = x4 * x4
        c = _LOG_C
        p = fma(x8, _fmak(x4, c[0], _fmak(x2, c[1], c[2])),
                fma(x4, _fmak(x2, c[3], c[4]), _fmak(x2, c[5], c[6])))
        # ddmul((ln2 hi, lo), e)
        sx = _LN2_HI * ef
        sy = _fmak(ef, _LN2_LO, _fmak(ef, _LN2_HI, -sx))
        # ddadd(s, 2x)
        ax, ay = xx * 2, xy * 2
        s1 = sx + ax
        s1y = (((sx - s1) + ax) + sy) + ay
        # ddadd(s, x^3 t)
        w = (x2 * xx) * p
        s2 = s1 + w
        r = s2 + (((s1 - s2) + w) + s1y)
        r = np.where(d == np.inf, np.inf, r)
        r = np.where((d < 0) | np.isnan(d), np.nan, r)
        return np.where(d == 0, -np.inf, r)


# ----------------------------------------------------------------------------- glibc exp

def _exp_table():
    """glibc's ``__exp_data.tab``: 2^(k/128) as a rounded double H and the relative rest T,
    stored as (bits of T, bits of H - (k << 45))."""
    import decimal
    ctx = decimal.Context(prec=60)
    tab = np.zeros(256, np.int64)
    for k in range(128):
        exact = ctx.power(decimal.Decimal(2), ctx.divide(decimal.Decimal(k), 128))
        h = float(exact)
        rest = float(ctx.subtract(ctx.divide(exact, decimal.Decimal(h)), 1))
        tab[2 * k] = np.array(rest).view(np.int64)
        tab[2 * k + 1] = int(np.array(h).view(np.int64)) - (k << 45)
    return tab


_EXP_TAB = None       # built on first use: 128 60-digit powers cost a share of `import ember`
_INV_LN2N = _H("0x1.71547652b82fep0") * 128
_NEG_LN2_HI_N, _NEG_LN2_LO_N = _H("-0x1.62e42fefa0000p-8"), _H("-0x1.cf79abc9e3b3ap-47")
_SHIFT = _H("0x1.8p52")
_C2, _C3, _C4, _C5 = (_H("0x1.ffffffffffdbdp-2"), _H("0x1.555555555543cp-3"),
                      _H("0x1.55555cf172b91p-5"), _H("0x1.1111167a4d017p-7"))


@_blocked
def exp_scalar(x):
    """glibc's ``exp`` (``std::exp`` on a double; its FMA build): 2^(k/128) from its table
    times a quintic, with the scale split where the result is near overflow or subnormal."""
    global _EXP_TAB
    if _EXP_TAB is None:
        _EXP_TAB = _exp_table()
    x = np.asarray(x, _f64)
    with np.errstate(all="ignore"):
        kd = _fmak(x, _INV_LN2N, _SHIFT)
        ki = kd.view(np.int64)
        kd = kd - _SHIFT
        r = _fmak(kd, _NEG_LN2_LO_N, _fmak(kd, _NEG_LN2_HI_N, x))
        idx = 2 * (ki % 128)
        tail = _EXP_TAB[idx].view(_f64)
        sbits = _EXP_TAB[idx + 1] + (ki << 45)
        r2 = r * r
        tmp = fma(r2 * r2, _fmak(r, _C5, _C4), fma(r2, _fmak(r, _C3, _C2), tail + r))
        scale = sbits.view(_f64)
        y = fma(scale, tmp, scale)
        ab = np.abs(x)
        special = (ab >= 512) | np.isnan(x)
        if special.any():
            y = np.where(special, _exp_special(x, tmp, sbits, ki), y)
        y = np.where(ab < 2.0 ** -54, 1.0 + x, y)
        return y


def _exp_special(x, tmp, sbits, ki):
    """glibc's ``specialcase`` and its overflow / underflow / inf / nan returns."""
    pos = (ki & 0x80000000) == 0
    sc = (sbits - (1009 << 52)).view(_f64)
    ybig = 2.0 ** 1009 * fma(sc, tmp, sc)
    sc = (sbits + (1022 << 52)).view(_f64)
    st = sc * tmp
    y = sc + st
    lo = (sc - y) + st
    hi = 1.0 + y
    lo = ((1.0 - hi) + y) + lo
    ysub = np.where(y < 1.0, (hi + lo) - 1.0, y)
    ysub = np.where(ysub == 0, 0.0, ysub)
    out = np.where(pos, ybig, 2.0 ** -1022 * ysub)
    ab = np.abs(x)
    out = np.where(ab >= 1024, np.where(x > 0, np.inf, 0.0), out)
    return np.where(np.isnan(x), x, out)


# ----------------------------------------------------------------------------- the loop

elementwise = _sleef.elementwise


def sigmoid(a):
    """torch's float64 sigmoid: ``1 / (1 + exp(-x))``, Sleef's exp in the vectors."""
    with np.errstate(all="ignore"):
        return elementwise(a, lambda x: 1.0 / (1.0 + expd(-x)),
                           lambda x: 1.0 / (1.0 + exp_scalar(-x)))


def silu(a):
    """torch's float64 silu: ``x / (1 + exp(-x))``."""
    with np.errstate(all="ignore"):
        return elementwise(a, lambda x: x / (1.0 + expd(-x)),
                           lambda x: x / (1.0 + exp_scalar(-x)))
