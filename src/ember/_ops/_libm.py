"""The C library's math functions, which torch's one-by-one loops call (``std::exp`` on a
float is glibc's ``expf``), and NumPy's ufuncs where they agree with them.

NumPy's own SIMD loops (its AVX512 builds of float64 ``exp``, ``sinh``, ``power`` …) round
otherwise than glibc on part of their arguments, so each function is probed once and falls
back to glibc's, called element by element through ctypes.
"""

from __future__ import annotations

import functools

import numpy as np

_BINARY = {"pow": np.power, "atan2": np.arctan2}


@functools.cache
def c_fn(name: str, dtype: type = np.float64):
    """The C library's scalar function ``name`` on ``dtype`` (float32: ``c_float``,
    float64: ``c_double``), through ctypes: two arguments for ``pow``/``atan2``."""
    import ctypes
    import ctypes.util
    try:
        lib = ctypes.CDLL("libm.so.6")
    except OSError:
        lib = ctypes.CDLL(ctypes.util.find_library("m"))
    ctype = ctypes.c_float if dtype == np.float32 else ctypes.c_double
    fn = getattr(lib, name)
    fn.restype = ctype
    fn.argtypes = [ctype] * (2 if name.rstrip("f") in _BINARY else 1)
    return fn


@functools.cache
def _c_libm(name: str, dtype: type):
    """:func:`c_fn` over arrays, element by element."""
    fn = c_fn(name, dtype)

    def f(*xs):
        xs = np.broadcast_arrays(*(np.asarray(x, dtype) for x in xs))
        flat = [x.reshape(-1).tolist() for x in xs]
        return np.fromiter(map(fn, *flat), dtype, count=xs[0].size).reshape(xs[0].shape)
    return f


def c_float(name: str):
    """glibc's float function ``name`` (``expf``, ``erff`` …) over an array."""
    return _c_libm(name, np.float32)


def c_double(name: str):
    """glibc's double function ``name`` over an array."""
    return _c_libm(name, np.float64)


@functools.cache
def _c_complex_fn(name: str, dtype, nargs: int = 1):
    """The C library's complex function ``name`` (``cexpf``, ``clog``, ``cpow`` …) of
    ``nargs`` arguments, through ctypes: a ``float complex`` travels as a struct of two
    floats (the x86-64 ABI passes and returns both the same way)."""
    import ctypes
    part = ctypes.c_float if dtype == np.complex64 else ctypes.c_double
    pair = type("pair", (ctypes.Structure,), {"_fields_": [("re", part), ("im", part)]})
    fn = getattr(ctypes.CDLL("libm.so.6"), name)
    fn.restype = pair
    fn.argtypes = [pair] * nargs
    return lambda *z: (lambda r: complex(r.re, r.im))(fn(*[pair(v.real, v.imag) for v in z]))


def c_complex(name: str, z: np.ndarray, *more: np.ndarray) -> np.ndarray:
    """glibc's ``name`` of a complex64 (``name + "f"``) or complex128 array (and of the
    ``more`` arrays of its shape and dtype, ``cpow``'s exponent), element by element (what
    ``std::exp`` or ``std::pow`` of a ``std::complex`` calls)."""
    fn = _c_complex_fn(name + ("f" if z.dtype == np.complex64 else ""), z.dtype.type,
                       1 + len(more))
    args = [x.reshape(-1).tolist() for x in (z, *more)]
    return np.fromiter(map(fn, *args), z.dtype, count=z.size).reshape(z.shape)


@functools.cache
def float_fn(name: str):
    """NumPy's float32 ``name`` where it equals glibc's on a probe of 4096 arguments, else
    glibc's own algorithm in NumPy (:data:`_GLIBC_FLOAT`) where that does, else glibc's
    called element by element."""
    c = c_float(name + "f")
    u = np.random.default_rng(20240229).random(4096).astype(np.float32)
    x = u * np.float32(8) if name == "log" else -u
    with np.errstate(all="ignore"):
        if np.array_equal(getattr(np, name)(x), c(x), equal_nan=True):
            return getattr(np, name)
        vec = _GLIBC_FLOAT.get(name)
        if vec is not None:
            x = np.concatenate([x, _probe_bits(name).view(np.float32)])
            if np.array_equal(vec(x).view(np.uint32), c(x).view(np.uint32)):
                return vec
    return c


def _probe_bits(name: str) -> np.ndarray:
    """Arguments of every kind for the probe of a vector form of glibc's ``name``: random
    bit patterns (subnormals, huge, negative, inf and nan among them) and the powers of 2."""
    bits = np.random.default_rng(20240301).integers(0, 2 ** 32, 4096, dtype=np.uint32)
    return np.concatenate([bits, np.arange(256, dtype=np.uint32) << np.uint32(23),
                           np.array([0, 0x80000000, 0x3F800000, 0x7F800000, 0xFF800000,
                                     0x7FC00000, 1], np.uint32)])


# ----------------------------------------------------------------------------- glibc's logf

# glibc's logf (sysdeps/ieee754/flt-32/e_logf.c, since 2.27): log(x) = log1p(z/c - 1) +
# log(c) + k*ln2 with z = x / 2^k in [OFF, 2*OFF), c from a 16-entry table, a cubic for
# log1p, all in double, rounded once to float.
_LOGF_TAB = np.array([float.fromhex(h) for h in (
    "0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2", "0x1.571ed4aaf883dp+0",
    "-0x1.2bef0a7c06ddbp-2", "0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2",
    "0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3", "0x1.30d190c8864a5p+0",
    "-0x1.6574f0ac07758p-3", "0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3",
    "0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4", "0x1.12358f08ae5bap+0",
    "-0x1.1973c5a611cccp-4", "0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5",
    "0x1p+0", "0x0p+0", "0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5",
    "0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4", "0x1.b2036576afce6p-1",
    "0x1.526e57720db08p-3", "0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3",
    "0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2", "0x1.767dcf5534862p-1",
    "0x1.4043057b6ee09p-2")]).reshape(16, 2)
_LOGF_INVC, _LOGF_LOGC = _LOGF_TAB[:, 0].copy(), _LOGF_TAB[:, 1].copy()
_LOGF_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_A = tuple(float.fromhex(h) for h in (
    "-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))
# Built with fused multiply-adds or without, glibc's double differs from the one here by a
# few double ulps (2^-29 float ulps each): where this one lies within _NEAR of them from a
# rounding midpoint (about 4 arguments in a million), glibc itself is called.
_NEAR = 1 << 12


def _near_midpoint(y: np.ndarray) -> np.ndarray:
    """Where the double ``y`` (in the normal float range) lies within ``_NEAR`` double ulps
    of a midpoint between two floats: its low 29 bits within ``_NEAR`` of 2^28."""
    low = y.view(np.uint64) & np.uint64((1 << 29) - 1)
    return (low - np.uint64((1 << 28) - _NEAR)) < np.uint64(2 * _NEAR)


def _in_pieces(fn):
    """``fn`` (elementwise) on a C-contiguous float32 array, in :func:`_sleef.blocked`'s
    cache-sized pieces (``_sleef`` imports this module through ``_exact``: bound on first
    call)."""
    blocked = []

    @functools.wraps(fn)
    def run(x):
        x = np.asarray(x, np.float32)
        if not x.flags.c_contiguous:
            x = x.copy()
        if not blocked:
            from . import _sleef
            blocked.append(_sleef.blocked(fn))
        return blocked[0](x)
    return run


@_in_pieces
def logf(x: np.ndarray) -> np.ndarray:
    """glibc's ``logf`` of a float32 array, computed as glibc computes it."""
    u32 = np.uint32
    ix = x.view(u32)
    special = ix - u32(0x00800000) >= u32(0x7F000000)       # < 2^-126, inf, nan, < 0
    if special.any():
        sub = special & (ix > 0) & (ix < 0x00800000)          # subnormal: normalised
        ix = np.where(sub, (x * np.float32(2.0 ** 23)).view(u32) - u32(23 << 23), ix)
        special &= ~sub
    tmp = ix - u32(0x3F330000)                                # wraps: uint32
    i = (tmp >> u32(19)) & u32(15)
    k = tmp.view(np.int32) >> np.int32(23)
    z = (ix - (tmp & u32(0xFF800000))).view(np.float32).astype(np.float64)
    r = z * _LOGF_INVC[i]
    r -= 1.0
    y0 = k * _LOGF_LN2
    y0 += _LOGF_LOGC[i]
    r2 = r * r
    y = _LOGF_A[1] * r
    y += _LOGF_A[2]
    y += _LOGF_A[0] * r2
    y *= r2
    y0 += r
    y += y0
    out = y.astype(np.float32)
    hard = special | _near_midpoint(y)
    if hard.any():
        out[hard] = c_float("logf")(x[hard])
    return out


# ----------------------------------------------------------------------------- glibc's expf

# glibc's expf (sysdeps/ieee754/flt-32/e_expf.c, since 2.27): x * 32/ln2 = k + r, then
# 2^(k/32) from a 32-entry table times a cubic in r, all in double, rounded once to float.
_EXPF_TAB = np.array([int(h, 16) for h in (
    "3ff0000000000000 3fefd9b0d3158574 3fefb5586cf9890f 3fef9301d0125b51 3fef72b83c7d517b "
    "3fef54873168b9aa 3fef387a6e756238 3fef1e9df51fdee1 3fef06fe0a31b715 3feef1a7373aa9cb "
    "3feedea64c123422 3feece086061892d 3feebfdad5362a27 3feeb42b569d4f82 3feeab07dd485429 "
    "3feea47eb03a5585 3feea09e667f3bcd 3fee9f75e8ec5f74 3feea11473eb0187 3feea589994cce13 "
    "3feeace5422aa0db 3feeb737b0cdc5e5 3feec49182a3f090 3feed503b23e255d 3feee89f995ad3ad "
    "3feeff76f2fb5e47 3fef199bdd85529c 3fef3720dcef9069 3fef5818dcfba487 3fef7c97337b9b5f "
    "3fefa4afa2a490da 3fefd0765b6e4540").split()], np.uint64)
_EXPF_INVLN2N = float.fromhex("0x1.71547652b82fep+0") * 32
_EXPF_SHIFT = float.fromhex("0x1.8p+52")
_EXPF_C = (float.fromhex("0x1.c6af84b912394p-5") / 32 ** 3,
           float.fromhex("0x1.ebfce50fac4f3p-3") / 32 ** 2,
           float.fromhex("0x1.62e42ff0c52d6p-1") / 32)


@_in_pieces
def expf(x: np.ndarray) -> np.ndarray:
    """glibc's ``expf`` of a float32 array, computed as glibc computes it (arguments whose
    result is not a normal float, or nan, go to glibc itself)."""
    with np.errstate(invalid="ignore"):
        special = ~((x > np.float32(-87.0)) & (x < np.float32(88.0)))
    z = x.astype(np.float64)
    z *= _EXPF_INVLN2N
    kd = z + _EXPF_SHIFT
    ki = kd.view(np.uint64)
    z -= kd - _EXPF_SHIFT                                     # r
    s = (_EXPF_TAB[ki & np.uint64(31)] + (ki << np.uint64(47))).view(np.float64)
    y = _EXPF_C[0] * z
    y += _EXPF_C[1]
    y *= z * z
    y += _EXPF_C[2] * z + 1.0
    y *= s
    out = y.astype(np.float32)
    hard = special | _near_midpoint(y)
    if hard.any():
        out[hard] = c_float("expf")(x[hard])
    return out


# ----------------------------------------------------------------------------- log1pf

# glibc's log1pf (sysdeps/ieee754/flt-32/s_log1pf.c: fdlibm's, in float arithmetic)
_F = np.float32
_LN2_HI, _LN2_LO = _F(6.9313812256e-01), _F(9.0580006145e-06)
_LP = tuple(_F(v) for v in (6.6666668653e-01, 4.0000000596e-01, 2.8571429849e-01,
                            2.2222198546e-01, 1.8183572590e-01, 1.5313838422e-01,
                            1.4798198640e-01))


@_in_pieces
def log1pf(x: np.ndarray) -> np.ndarray:
    """glibc's ``log1pf`` of a float32 array, computed as glibc computes it (its arguments
    at or below -1, inf and nan go to glibc itself)."""
    one, half = _F(1), _F(0.5)
    hx = x.view(np.int32)
    ax = hx & np.int32(0x7FFFFFFF)
    special = ((hx < 0x3ED413D7) & (ax >= 0x3F800000)) | (hx >= 0x7F800000)
    xs = np.where(special, _F(0), x)
    tiny = ax < 0x31000000                                    # |x| < 2^-29
    k0 = (hx < 0x3ED413D7) & ((hx > 0) | (hx <= np.int32(-0x416A09E1)))   # 0xbe95f61f
    # k != 0: u = 1 + x (or x itself from 2^53), its exponent k, the correction c
    big = hx >= 0x5A000000
    u = np.where(big, xs, one + xs)
    hu = u.view(np.int32)
    k = (hu >> np.int32(23)) - np.int32(127)
    c = np.where(k > 0, one - (u - xs), xs - (u - one)) / u
    c = np.where(big, _F(0), c)
    hu = hu & np.int32(0x007FFFFF)
    up = hu >= 0x3504F7
    k = np.where(up, k + 1, k)
    u = np.where(up, hu | np.int32(0x3F000000), hu | np.int32(0x3F800000)).view(np.float32)
    hu = np.where(up, (np.int32(0x00800000) - hu) >> np.int32(2), hu)
    f = np.where(k0, xs, u - one)
    hu = np.where(k0, np.int32(1), hu)
    k = np.where(k0, np.int32(0), k)
    kf = k.astype(np.float32)
    hfsq = half * f * f
    # |f| < 2^-20
    r_small = hfsq * (one - _F(0.66666666666666666) * f)
    klo_c = kf * _LN2_LO + c
    small = np.where(k == 0, f - r_small, kf * _LN2_HI - ((r_small - klo_c) - f))
    small = np.where(f == 0, np.where(k == 0, _F(0), kf * _LN2_HI + klo_c), small)
    s = f / (_F(2) + f)
    z = s * s
    r = _LP[6]
    for lp in _LP[5::-1]:
        r = lp + z * r
    r = z * r
    sr = s * (hfsq + r)
    y = np.where(k == 0, f - (hfsq - sr), kf * _LN2_HI - ((hfsq - (sr + klo_c)) - f))
    y = np.where(hu == 0, small, y)
    y = np.where(tiny, np.where(ax < 0x24800000, x, x - x * x * half), y)
    if special.any():
        y[special] = c_float("log1pf")(x[special])
    return y


_GLIBC_FLOAT = {"log": logf, "log1p": log1pf, "exp": expf}


@functools.cache
def double_fn(name: str):
    """NumPy's float64 ``name`` where it equals glibc's on a probe of 4096 arguments, else
    glibc's called element by element. NumPy's own SIMD loops (AVX512 builds of ``exp``,
    ``sinh``, ``power`` …) round otherwise than glibc, which torch's one-by-one loops call."""
    c = c_double(name)
    rng = np.random.default_rng(20240229)
    x = rng.standard_normal(4096) * 4
    vec = _BINARY.get(name, getattr(np, name, None))
    args = (np.abs(x), rng.standard_normal(4096) * 4) if name in _BINARY else (x,)
    with np.errstate(all="ignore"):
        same = vec is not None and np.array_equal(vec(*args), c(*args), equal_nan=True)
    return vec if same else c


def libm(name: str, x):
    """glibc's ``log`` or ``log1p`` of a float32/float64 array (what ``std::`` calls); the
    doubles through ``random``'s, which maps Python's ``math`` (five times ctypes' speed)."""
    if x.ndim == 0:
        return libm(name, x.reshape(1)).reshape(())
    if x.dtype == np.float32:
        return float_fn(name)(x)
    from .. import random
    return getattr(random, "_" + name)(x).astype(x.dtype, copy=False)
