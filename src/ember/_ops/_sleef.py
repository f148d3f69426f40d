"""torch's vectorised float32 math, bit for bit: Sleef's AVX2 algorithms and the loop that
applies them.

torch's elementwise kernels (``cpu_kernel_vec``) run a vector function over each contiguous
row in steps of two vectors (16 floats) and a scalar function (``std::`` = glibc) on the
rest of the row; a row whose elements are not adjacent runs the scalar function throughout,
and inputs of 32768 elements or more are cut between threads first. :func:`elementwise`
reproduces that split; the vector functions are Sleef's, written with exact fused
multiply-adds (:func:`ember._ops._exact.fma`). Functions that torch hands to MKL's VML
(``exp``, ``log``, ``sin`` …) are not here: VML's algorithms are not published.
"""

from __future__ import annotations

import numpy as np

from .. import _cpu, _lazy
from .. import _memory_format as _mf
from .._meta import MetaArray
from . import _exact
from ._exact import GRAIN, fma

_onednn = _lazy.defer(globals(), "_onednn", "ember._ops._onednn")

_f32 = np.float32
# the kernels' constants are 0-d arrays of their dtype: a ufunc takes one as an operand
# sooner than a NumPy scalar (the same dtype, so the same result)
_R_LN2 = np.array(_f32(1.442695040888963407359924681001892137426645954152985934135449406931))
_ONE32 = np.array(_f32(1))
_EXP_POLY = (0.00139304355252534151077271, 0.00833336077630519866943359,
             0.0416664853692054748535156, 0.166666671633720397949219, 0.5)


def _pow2i(q):
    return ((q + 127) << 23).view(_f32)


def expf(d):
    """``Sleef_expf8_u10`` (AVX2, FMA) on a float32 array."""
    return _by_chunks(d, _expf_chunk, _expf_ref)


_CHUNK = 1 << 15                # elements per pass: the kernels' doubles stay in cache


def _by_chunks(d, kernel, ref):
    """``kernel`` (on a flat float32 array) over ``d`` in chunks, as a C-contiguous array of
    ``d``'s shape; ``ref`` takes empty, 0-d and other-dtype arrays."""
    if d.dtype != _f32 or d.ndim == 0 or d.size == 0:
        return ref(d)
    flat = d.reshape(-1) if d.flags.c_contiguous else np.ascontiguousarray(d).reshape(-1)
    n = flat.size
    if n <= _CHUNK:
        return kernel(flat).reshape(d.shape)
    r = np.empty(n, _f32)
    for i in range(0, n, _CHUNK):
        r[i:i + _CHUNK] = kernel(flat[i:i + _CHUNK])
    return r.reshape(d.shape)


def blocked(fn):
    """``fn`` (elementwise) applied to cache-sized pieces of large arrays, so that each of
    its many passes stays in cache; scalar operands are passed whole."""
    def run(*args):
        big = [a for a in args if isinstance(a, np.ndarray) and a.ndim]
        if not big or big[0].size <= 2 * _CHUNK:
            return fn(*args)
        shape = np.broadcast_shapes(*(a.shape for a in big))
        flat = [np.broadcast_to(a, shape).reshape(-1)
                if isinstance(a, np.ndarray) and a.ndim else a for a in args]
        out = None
        n = int(np.prod(shape))
        for i in range(0, n, _CHUNK):
            r = fn(*(a[i:i + _CHUNK] if isinstance(a, np.ndarray) and a.ndim else a
                     for a in flat))
            if out is None:
                out = np.empty(n, r.dtype)
            out[i:i + _CHUNK] = r
        return out.reshape(shape)
    run.__doc__, run.__name__, run.__wrapped__ = fn.__doc__, fn.__name__, fn
    return run


_EXP_CW = (np.array(_f32(-0.693145751953125)),
           np.array(np.float64(_f32(-1.428606765330187045e-06))))
_EXP_U0 = np.array(np.float64(_f32(0.000198527617612853646278381)))
_EXP_C = tuple(np.array(np.float64(_f32(c))) for c in _EXP_POLY)
_LOW29, _MID29 = np.array(np.int64(0x1FFFFFFF)), np.array(np.int64(0x10000000))
_BIAS, _SHIFT = np.array(np.int32(127)), np.array(np.int32(23))


def _grid(c, e):
    """(c + M, M) for rounding ``p + c`` to float32 in the binade [2^e, 2^(e+1)): adding
    M = 1.5 * 2^(e+29) in double rounds once, to nearest even, on that binade's float32
    grid (2^(e-23), the double spacing at M), and subtracting M again is exact."""
    m = np.float64(1.5 * 2.0 ** (e + 29))
    return np.array(c + m), np.array(m)


# the first four steps of the polynomial stay in one binade each for every reduced
# argument (|s| <= 0.3466): [2^-10, 2^-9), [2^-7, 2^-6), [2^-5, 2^-4), [2^-3, 2^-2)
_EXP_GRID = tuple(_grid(c, e) for c, e in zip(_EXP_C[:4], (-10, -7, -5, -3)))


def _expf_chunk(x):
    """:func:`expf` on a flat array; arguments outside [-104, 100] (and NaN) and the rare
    doubly rounded sums go to the reference. Inside, the reduction is exact in double:
    ``t * C0`` is exact in float; for q != 0, |x| > 0.34 is a multiple of 2^-25 and
    ``t * C0`` one of 2^-16 below 2^7 (33 bits); the next ``s`` is a multiple of 2^-25
    below 1 and ``t * C1`` one of 2^-43 (43 bits). Each product of two floats is exact in
    double; the first four fused multiply-adds of the polynomial round on their binade's
    grid (:func:`_grid`), the last two are rounded from double, redone where that double
    lies halfway between two floats. ``ldexp(u, q)`` is Sleef's ``u * 2^(q//2) *
    2^(q - q//2)`` (exact but for the last product), rounded once."""
    lo, hi = np.minimum.reduce(x), np.maximum.reduce(x)
    with np.errstate(all="ignore"):
        return _expf_steps(x, None if lo >= -104 and hi <= 100 else ~((x >= -104) & (x <= 100)))


def _expf_steps(x, far):
    """:func:`_expf_chunk`'s steps; ``far``: the arguments that go to the reference."""
    t = np.multiply(x, _R_LN2)
    np.rint(t, out=t)
    s = t * _EXP_CW[0]              # 8 bits by 16: exact in float
    s += x
    s64 = np.multiply(t, _EXP_CW[1], dtype=np.float64)  # (operands widened first: see
    np.add(s64, s, out=s64, dtype=np.float64)           # _exact.wide)
    s = s64.astype(_f32)
    s64[...] = s
    u = np.multiply(s64, _EXP_U0)
    for cm, m in _EXP_GRID:
        u += cm
        u -= m
        u *= s64
    two = np.empty((2,) + x.shape)  # the sums rounded from double
    y = np.add(u, _EXP_C[4], out=two[0])
    w = two[1]
    np.multiply(s, s, out=s)
    np.multiply(s, y.astype(_f32), out=w, dtype=np.float64)
    w += s64
    u = w.astype(_f32)
    u += _ONE32
    r = np.ldexp(u, t.astype(np.int32))
    hit = np.bitwise_and(two.view(np.int64), _LOW29) == _MID29
    redo = far
    if np.count_nonzero(hit):
        redo = hit[0] | hit[1] if far is None else hit[0] | hit[1] | far
    if redo is not None:
        r[redo] = _expf_ref(x[redo])
    return r


def _expf_ref(d):
    """:func:`expf` step by step, with :func:`fma` checking every sum."""
    with np.errstate(all="ignore"):
        t = np.rint(d * _R_LN2)
        q = np.where(np.abs(t) < 2.0 ** 31, t, -2.0 ** 31).astype(np.int32)
        qf = q.astype(_f32)
        s = fma(qf, _f32(-0.693145751953125), d)
        s = fma(qf, _f32(-1.428606765330187045e-06), s)
        u = np.full(d.shape, _f32(0.000198527617612853646278381))
        for c in _EXP_POLY:
            u = fma(u, s, _f32(c))
        u = _f32(1) + fma(s * s, u, s)
        h = q >> 1
        u = u * _pow2i(h) * _pow2i(q - h)
        u = np.where(d < -104, _f32(0), u)
        u = np.where(d > 100, _f32(np.inf), u)
        return np.where(np.isnan(d), d, u)


_H = float.fromhex
_EXPF_TAB = np.array([int(np.exp2(np.float64(i) / 32).view(np.int64)) - (i << 47)
                      for i in range(32)], np.int64)
_EXPF_C = (_H("0x1.c6af84b912394p-5") / 32 ** 3, _H("0x1.ebfce50fac4f3p-3") / 32 ** 2,
           _H("0x1.62e42ff0c52d6p-1") / 32)
_EXPF_INV, _EXPF_SHIFT = _H("0x1.71547652b82fep+0") * 32, _H("0x1.8p+52")


def expf_scalar(x):
    """glibc's ``expf`` (``std::exp`` on a float): 2^(k/32) from its table times a cubic
    in double, rounded once to float."""
    xd = x.astype(np.float64)
    with np.errstate(all="ignore"):
        z = _EXPF_INV * xd
        kd = z + _EXPF_SHIFT
        ki = kd.view(np.int64)
        r = z - (kd - _EXPF_SHIFT)
        s = (_EXPF_TAB[ki % 32] + (ki << 47)).view(np.float64)
        c0, c1, c2 = _EXPF_C
        y = ((c0 * r + c1) * (r * r) + (c2 * r + 1)) * s
        y = y.astype(_f32)
        y = np.where(x > _H("0x1.62e42ep6"), _f32(np.inf), y)
        y = np.where(x < _H("-0x1.9fe368p6"), _f32(0), y)
        return np.where(np.isnan(x), x, y)


def _scalar_mask(a, avx512=True, grain=GRAIN, step=None):
    """Which elements of ``a`` torch computes with the scalar function (True) in
    ``cpu_kernel_vec``, for a unary op whose output takes the input's layout: steps of
    :func:`_cpu.kernel_step` (``avx512``: torch also builds the kernel for AVX512) or of
    ``step`` elements, each thread's share of ``grain`` or more elements with its own
    tail."""
    if min(a.strides, default=0) < 0:
        return np.ones(a.shape, bool)
    keep = [d for d in range(a.ndim) if a.shape[d] != 1]
    order = sorted(keep, key=lambda d: (a.strides[d], a.shape[d]))
    dims = []                                 # [size, stride, logical dims fastest first]
    for d in order:
        if dims and dims[-1][0] * dims[-1][1] == a.strides[d]:
            dims[-1][0] *= a.shape[d]
            dims[-1][2].append(d)
        else:
            dims.append([a.shape[d], a.strides[d], [d]])
    if not dims:
        return np.ones(a.shape, bool)
    groups = [(d[0], d[2]) for d in dims]
    if dims[0][1] != a.itemsize:
        return np.ones(a.shape, bool)
    return tail_mask(a.shape, groups, step or _cpu.kernel_step(a.dtype, avx512), grain)


def binary_mask(a, b, avx512=True, grain=GRAIN, out_contiguous=False):
    """:func:`_scalar_mask` for a two-input ``cpu_kernel_vec`` over ``a`` and ``b`` of one
    shape and dtype: TensorIterator orders the dims by the operands' strides (a broadcast
    dim, stride 0, leaves the order to the others) and merges those that all step through
    evenly; the inner loop runs vectors where every operand is contiguous in it, or all but
    one input, which is one value (stride 0, as the gradient of a ``sum``), and one by one
    otherwise. The output follows the inputs' order, or is C-contiguous already
    (``out_contiguous``: an op whose output the structured kernel allocates so)."""
    if a.strides == b.strides and (not out_contiguous or a.flags.c_contiguous):
        return _scalar_mask(a, avx512, grain)
    if min(a.strides + b.strides, default=0) < 0:
        return np.ones(a.shape, bool)
    ops = (a.strides, b.strides)
    if out_contiguous:
        ops = (np.empty(a.shape, a.dtype).strides,) + ops
    groups = _mf.iter_groups(a.shape, *ops)
    if not groups:
        return np.ones(a.shape, bool)
    inner = groups[0][1]
    size = a.itemsize
    ins = inner[1:] if out_contiguous else inner
    if out_contiguous and inner[0] != size or not (
            ins[0] == ins[1] == size or sorted(ins) == [0, size]):
        return np.ones(a.shape, bool)
    return tail_mask(a.shape, [(g[0], g[2]) for g in groups], _cpu.kernel_step(a.dtype, avx512),
                     grain)


def tail_mask(shape, groups, step, grain=GRAIN, tail=None):
    """The elements of a ``cpu_kernel_vec`` loop over ``shape`` that fall in a row's tail,
    after the steps of ``step`` elements: ``groups`` are the iterator's coalesced dims,
    fastest first, as (size, logical dims fastest first), the first one contiguous. Each
    thread's share of ``grain`` or more elements has its own tail; ``tail(n) = (start,
    stop)`` marks only that part of an ``n``-element tail."""
    sizes = _loop_sizes(groups)
    mi = np.zeros(sizes, bool)                # iterator order, fastest first
    for vals, s0, s1 in _loop_calls(sizes, grain):
        v0, v1 = vals[0] + (s0 // step) * step, vals[0] + s0
        if tail is not None:
            lo, hi = tail(v1 - v0)
            v0, v1 = v0 + lo, v0 + hi
        if v0 < v1:
            mi[(slice(v0, v1), slice(vals[1], vals[1] + s1)) + tuple(vals[2:])] = True
    return _in_shape(mi, shape, groups)


def row_positions(shape, groups, grain=GRAIN):
    """Each element's index in its row of a ``cpu_kernel_vec`` loop over ``shape`` (each
    thread's share of ``grain`` or more elements starts its rows anew); ``groups`` as for
    :func:`tail_mask`."""
    sizes = _loop_sizes(groups)
    pos = np.zeros(sizes, np.int64)
    for vals, s0, s1 in _loop_calls(sizes, grain):
        pos[(slice(vals[0], vals[0] + s0), slice(vals[1], vals[1] + s1)) + tuple(vals[2:])] \
            = np.arange(s0)[:, None]
    return _in_shape(pos, shape, groups)


def _loop_sizes(groups):
    return [g[0] for g in groups] + ([1] if len(groups) == 1 else [])


def _loop_calls(sizes, grain):
    """The inner loop's calls over the iterator's ``sizes`` (fastest first), thread by
    thread: (start indices, inner count, outer count)."""
    numel = _exact._prod(sizes)
    if not numel:                             # (no element, no loop)
        return
    nt = _exact.parallel_threads(numel, grain)
    chunk = -(-numel // nt)
    for t in range(nt):
        yield from _exact._calls(sizes, t * chunk, min(numel, (t + 1) * chunk))


def _in_shape(mi, shape, groups):
    """An array in the iterator's order (fastest first) laid out over ``shape``."""
    if not mi.size:
        return np.zeros(shape, mi.dtype)
    mi = np.transpose(mi).reshape(-1)
    axes = [m for g in groups for m in g[1]][::-1]          # slowest first
    full = mi.reshape([shape[m] for m in axes])
    return np.transpose(full, np.argsort(axes)).reshape(shape)


def gelu_grain(numel: int) -> int:
    """The grain of ``GeluKernelImpl``/``GeluBackwardKernelImpl``: above 16384 elements
    each thread takes an equal share, whose tail runs one by one."""
    return max(1, numel // _exact.get_num_threads()) if numel > 16384 else GRAIN


def elementwise(a, vec_fn, scalar_fn, grain=GRAIN, avx512=True, layout=None):
    """``cpu_kernel_vec`` for a float32/float64 unary op: ``vec_fn`` where torch runs
    vectors (two per step, :func:`_cpu.kernel_step`; ``avx512``: a kernel torch also builds
    for AVX512), ``scalar_fn`` (the C library's function) on the elements it runs one by
    one; each thread's share of ``grain`` or more elements has its own tail. ``layout``: the
    op's input, when ``a`` is computed from it (its strides decide the loops)."""
    if a.ndim == 0:
        return np.asarray(scalar_fn(a.reshape(1))[0], a.dtype)
    if not a.size or a.__class__ is MetaArray:      # (or a meta stand-in: its shape)
        return vec_fn(a)
    mask = _scalar_mask(a if layout is None else layout, avx512, grain=grain)
    if mask.all():
        return scalar_fn(a)
    out = vec_fn(a)
    if mask.any():
        out[mask] = scalar_fn(a[mask])
    return out


def sigmoid(a):
    """torch's float32 sigmoid: ``1 / (1 + exp(-x))`` with Sleef's exp in the vectors."""
    one = _f32(1)
    with np.errstate(all="ignore"):
        return elementwise(a, lambda x: one / (one + expf(-x)),
                           lambda x: one / (one + expf_scalar(-x)))


def silu(a):
    """torch's float32 silu: ``x / (1 + exp(-x))``."""
    one = _f32(1)
    with np.errstate(all="ignore"):
        return elementwise(a, lambda x: x / (one + expf(-x)),
                           lambda x: x / (one + expf_scalar(-x)))


def _bits(h):
    return np.array([h], np.uint32).view(_f32)[0]


_LOG2E, _LN2 = _bits(0x3fb8aa3b), _bits(0x3f317218)
_LN_MIN, _LN_MAX = _bits(0xc2aeac50), _bits(0x42b17218)
_EXP_U20 = (0.166676521, 0.499991506, 0.999999701, 1.0)


def exp_u20(d):
    """``Vectorized<float>::exp_u20``: torch's own fast exp (2^n times a quintic)."""
    full = np.full
    with np.errstate(all="ignore"):
        src = np.maximum(np.minimum(d, _LN_MAX), _LN_MIN)
        fx = np.floor(fma(src, full(d.shape, _LOG2E), full(d.shape, _f32(0.5))))
        p = fma(-fx, full(d.shape, _LN2), src)
        r = fma(p, full(d.shape, _f32(0.00828929059)), full(d.shape, _f32(0.0418978221)))
        for c in _EXP_U20:
            r = fma(p, r, full(d.shape, _f32(c)))
        n = np.rint(fx - _f32(1)).astype(np.int32)
        scale = np.where(d < _LN_MIN, _f32(0), ((n + 127) << 23).view(_f32))
        return r * scale * _f32(2)


_ERF_P = (1.421413741, -0.284496736, 0.254829592)


def erf_vec(x, exp=None):
    """Abramowitz and Stegun's 7.1.26 as torch's vectors compute it: with oneDNN's exp
    (``exp_u20``) by default, ``Vectorized<float>::erf`` with ``exp=expf`` (Sleef's)."""
    exp = exp_u20 if exp is None else exp
    full = np.full
    with np.errstate(all="ignore"):
        t = _f32(1) / fma(full(x.shape, _f32(0.3275911)), np.abs(x), full(x.shape, _f32(1)))
        r = fma(full(x.shape, _f32(1.061405429)), t, full(x.shape, _f32(-1.453152027)))
        for c in _ERF_P:
            r = fma(r, t, full(x.shape, _f32(c)))
        y = fma(t * -exp(-(x * x)), r, full(x.shape, _f32(1)))
        return np.where(np.signbit(x), -y, y)


_SQRT1_2 = _f32(0.70710678118654752440)


def gelu(a, erf_scalar):
    """torch's float32 gelu. A C-contiguous input of two or more elements goes to oneDNN:
    every element (the tail too) takes ``0.5x + 0.5x * erf(x / sqrt 2)`` fused, with the
    vector erf (on AVX512 its own polynomial, :func:`_onednn.gelu_erf`). Any other input
    runs ATen's ``cpu_kernel_vec``: ``x * 0.5 * (1 + erf)`` with the vector erf, and with
    ``erf_scalar`` (glibc's ``erff``) one by one."""
    half, one = _f32(0.5), _f32(1)
    with np.errstate(all="ignore"):
        if a.flags.c_contiguous and a.size > 1:
            if _onednn.avx512():
                return _onednn.gelu_erf(a)
            h = a * half
            return fma(h, erf_vec(a * _SQRT1_2), h)
        return elementwise(a, lambda x: x * half * (one + erf_vec(x * _SQRT1_2, expf)),
                           lambda x: x * half * (one + erf_scalar(x * _SQRT1_2)),
                           gelu_grain(a.size))


_EXP_LIMIT = _f32(88.72283)          # the largest float whose exp is finite


def exp_overflow(a, out, odd=True):
    """sinh/cosh as torch's float32 vectors compute them, from exp: infinite once exp
    overflows (``|x| > 88.72283``), where the one-by-one elements keep ``out``."""
    if a.dtype != np.float32 or a.ndim == 0 or not a.size:
        return out
    big = np.abs(a) > _EXP_LIMIT
    if not big.any():
        return out
    big &= ~_scalar_mask(a)
    inf = np.copysign(_f32(np.inf), a) if odd else np.full(a.shape, _f32(np.inf))
    return np.where(big, inf, out)


def _fms(a, b, c):
    """``a * b - c`` rounded once."""
    return fma(a, b, -c)


def _df_add2(x, y):
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


_LN2_HI, _LN2_LO = _f32(0.69314718246459960938), _f32(-1.904654323148236017e-09)


def logf(d):
    """``Sleef_logf8_u10`` (AVX2, FMA) on a float32 array: double-float arithmetic."""
    return _by_chunks(d, _logf_chunk, _logf_ref)


_R075 = np.array(_f32(1 / 0.75))
_LOG_C = tuple(np.array(np.float64(_f32(c))) for c in (0.3027294874, 0.3996108174,
                                                       0.6666694880))
_LN2_HI64, _LN2_LO64 = np.float64(_LN2_HI), np.float64(_LN2_LO)
_ONE64 = np.array(np.float64(1))
_NORMAL = np.array(np.int32(0x00800000)), np.array(np.int32(0x7F800000))


# the polynomial's two fused multiply-adds stay in one binade each for every reduced
# argument (x^2 < 0.041): [2^-2, 2^-1) and [2^-1, 1)
_LOG_GRID = tuple(_grid(c, e) for c, e in zip(_LOG_C[1:], (-2, -1)))
_LN2_64 = np.array(_LN2_HI64 + _LN2_LO64)
# the distance (in 2^-29 float ulps, either side) from a float midpoint within which the
# double sum of logf's last step is not trusted: its error is under 2^-20 ulp
_LOG_TOL = np.int64(1 << 14)
_LOG_WIN = np.array(_LOG_TOL - _MID29), np.array(np.int64(2) * _LOG_TOL)
# positive floats from the least normal one up to here raise no floating-point flag (above,
# d / 0.75 overflows)
_LOG_QUIET = np.array(np.uint32(np.float32(0.75 * 2.0 ** 128).view(np.int32) - _NORMAL[0]))


def _logf_chunk(x):
    """:func:`logf` on a flat array: Sleef's float32 steps up to the polynomial, exactly, and
    its double-float sum ``e ln2 + 2 (m - 1) / (m + 1) + y`` in double. Arguments that are
    not positive normal finite floats, and sums too close to a float midpoint, go to the
    reference. The mantissa ``m`` lies in [0.75, 1.5], so ``m - 1`` is exact, and the
    polynomial's two fused steps round on their binade's grid (:func:`_grid`; the products
    of two floats are exact in double). Sleef rounds ``s2 + t`` once, where ``s2 + t`` is
    the double-float sum whose parts carry errors below 2^-40 of the result (the quotient's
    and ``e ln2``'s) and the float ``y``, the polynomial's term, exactly: the double sum here
    lies within 2^-20 ulp of it, and rounds to the same float unless it lies within
    :data:`_LOG_TOL` of a midpoint."""
    iv = x.view(np.int32)
    if np.subtract(iv, _NORMAL[0]).view(np.uint32).max() >= _LOG_QUIET:
        with np.errstate(all="ignore"):
            return _logf_steps(x, iv, True)
    return _logf_steps(x, iv, False)


def _logf_steps(x, iv, odd):
    """:func:`_logf_chunk`'s steps; ``odd``: some arguments may be other than positive
    normal finite floats."""
    e = np.multiply(x, _R075).view(np.int32)
    e >>= _SHIFT
    e -= _BIAS
    m = np.left_shift(e, _SHIFT)
    np.subtract(iv, m, out=m)
    m = m.view(_f32)
    t = m + _ONE32
    np.divide(_ONE32, t, out=t)
    xx = m - _ONE32
    xx *= t
    x2 = xx * xx
    x2d = x2.astype(np.float64)
    (c1, m1), (c2, m2) = _LOG_GRID
    p = np.multiply(x2d, _LOG_C[0])
    p += c1
    p -= m1
    p *= x2d
    p += c2
    p -= m2
    y = np.multiply(np.multiply(x2, xx, out=x2), p, dtype=np.float64)
    v = y.astype(_f32).astype(np.float64)
    md = m.astype(np.float64)
    q = md - _ONE64
    md += _ONE64
    q /= md
    q += q
    v += q
    v += np.multiply(e, _LN2_64, dtype=np.float64)
    r = v.astype(_f32)
    w = v.view(np.int64)
    w += _LOG_WIN[0]
    w &= _LOW29
    redo = None
    if w.min() <= _LOG_WIN[1]:
        redo = w <= _LOG_WIN[1]
    if odd:
        bad = (iv < _NORMAL[0]) | (iv >= _NORMAL[1])
        redo = bad if redo is None else redo | bad
    if redo is not None:
        r[redo] = _logf_ref(x[redo])
    return r


def _logf_ref(d):
    """:func:`logf` step by step, with :func:`fma` checking every sum."""
    full = np.full
    with np.errstate(all="ignore"):
        o = d < np.finfo(_f32).tiny
        d2 = np.where(o, d * _f32(2.0 ** 64), d)
        e = ((((d2 * _f32(1 / 0.75)).view(np.int32) >> 23) & 0xff) - 0x7f).astype(np.int32)
        m = (d2.view(np.int32) - (e << 23)).view(_f32)
        ef = np.where(o, e - 64, e).astype(_f32)
        sx = _LN2_HI * ef
        sy = fma(full(ef.shape, _LN2_LO), ef, _fms(full(ef.shape, _LN2_HI), ef, sx))
        nx, ny = _df_add2(full(m.shape, _f32(-1)), m)
        dx, dy = _df_add2(full(m.shape, _f32(1)), m)
        t = _f32(1) / dx
        xx = nx * t
        u = _fms(t, nx, xx)
        v = fma(-dy, t, fma(-dx, t, full(m.shape, _f32(1))))
        xy = fma(xx, v, fma(ny, t, u))
        x2 = xx * xx
        p = fma(full(m.shape, _f32(0.3027294874)), x2, full(m.shape, _f32(0.3996108174)))
        p = fma(p, x2, full(m.shape, _f32(0.6666694880)))
        ax, ay = xx * _f32(2), xy * _f32(2)
        s1 = sx + ax
        s1y = (((sx - s1) + ax) + sy) + ay
        y = (x2 * xx) * p
        s2 = s1 + y
        r = s2 + (((s1 - s2) + y) + s1y)
        r = np.where(np.isposinf(d), _f32(np.inf), r)
        r = np.where((d < 0) | np.isnan(d), _f32(np.nan), r)
        return np.where(d == 0, _f32(-np.inf), r)
