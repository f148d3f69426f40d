"""Resampling (``F.interpolate``): separable per-axis plans replayed as torch's CPU kernels.

A plan holds one entry per spatial axis, ``(taps, M, acc, kind, grad_taps)``: output ``o``
of that axis reads ``sum_j w_j[o] * x[i_j[o]]`` over the taps ``(i_j, w_j)`` (``w_j is
None``: nearest, one tap), ``M`` is the ``(out, in)`` matrix of those weights, ``kind`` the
mode's family (``nearest``, ``linear``, ``cubic``, ``aa``), ``acc`` for ``aa`` each output's
window size, and ``grad_taps`` the taps torch's backward kernel computes (bicubic's differ
from the forward's). Weights and indices mirror torch's index arithmetic
(``area_pixel_compute_source_index``, ``nearest_idx``, ``nearest_exact_idx``,
``guard_index_and_lambda``, the cubic A=-0.75 convolution, the antialias filters' support)
in the kernel's opmath type.

Forward: the generic kernel (``upsample_generic_Nd``) nests the axes with the innermost,
contiguous one first, ``t0*w0 + t1*w1`` compiled as ``fma(t0, w0, t1*w1)``; bilinear and
trilinear use ``cpu_upsample_linear_channels_last`` where torch dispatches to it, with its
corner weights and vector/scalar roundings; the antialiased modes resample the width first,
then the height, each output's window summed as the compiled loop does (:func:`_aa_sum`).
Backward: torch's scatter loops, replayed term by term in their order
(:func:`ordered_scatter`). float32 and float64 results are bit-identical to torch's.
Forward and backward are each other's backward, so double backward works.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _cpu
from .. import _memory_format as _mf
from .._device import xp
from . import _exact, _libm
from .registry import NONE, op

# ============================================================================ per-axis plans


def _opmath(np_dtype):
    return np.float64 if np_dtype == np.float64 else np.float32


def _fma(a, b, c, T):
    """``a * b + c`` in ``T`` rounded once, as the fused multiply-add torch's AVX2/AVX-512
    kernels are compiled to."""
    a, b, c = np.broadcast_arrays(np.asarray(a, T), np.asarray(b, T), np.asarray(c, T))
    return _exact.fma(a, b, c)


def _matrix(n_out, n_in, taps, np_dtype):
    m = np.zeros((n_out, n_in), np_dtype)
    o = np.arange(n_out)
    for i, w in taps:
        np.add.at(m, (o, i), 1 if w is None else w)
    return m


def _identity(n, np_dtype):
    o = np.arange(n)
    return ((o, None),), np.eye(n, dtype=np_dtype)


def _scale_value(n_in, n_out, scale, T):
    """torch's ``compute_scales_value``: ``1/scale`` when given, else ``in / out``."""
    if scale is not None and scale > 0:
        return T(1.0 / scale)
    return T(n_in) / T(n_out)


def _area_scale(n_in, n_out, align_corners, scale, T):
    """torch's ``area_pixel_compute_scale``."""
    if align_corners:
        return T(n_in - 1) / T(n_out - 1) if n_out > 1 else T(0)
    return _scale_value(n_in, n_out, scale, T)


def _nearest_axis(n_in, n_out, scale, exact, np_dtype):
    """torch's ``nearest_idx`` (``floor(o * r)``, exact shortcuts for 1x and 2x) or
    ``nearest_exact_idx`` (``floorf((o + 0.5) * r)`` with a float32 ratio)."""
    o = np.arange(n_out)
    r = _scale_value(n_in, n_out, scale, np.float32)
    if exact:
        src = ((o + 0.5) * np.float64(r)).astype(np.float32)
        i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    elif n_out == n_in:
        i0 = o
    elif n_out == 2 * n_in:
        i0 = o >> 1
    else:
        i0 = np.minimum(np.floor(o.astype(np.float32) * r).astype(np.int64), n_in - 1)
    taps = ((i0, None),)
    return taps, _matrix(n_out, n_in, taps, np_dtype)


def _source_index(n_in, n_out, align_corners, scale, cubic, T):
    """torch's ``area_pixel_compute_source_index`` for every output index, in ``T``."""
    o = np.arange(n_out).astype(T)
    r = _area_scale(n_in, n_out, align_corners, scale, T)
    if align_corners:
        return r * o
    src = _fma(r, o + T(0.5), T(-0.5), T)
    return src if cubic else np.maximum(src, T(0))


def _guard(src, n_in, T):
    """torch's ``guard_index_and_lambda``: ``floorf`` index (clamped above) and its lambda."""
    i0 = np.minimum(np.floor(src.astype(np.float32)).astype(np.int64), n_in - 1)
    lam = np.minimum(np.maximum(src - i0.astype(T), T(0)), T(1))
    return i0, lam


def _linear_axis(n_in, n_out, align_corners, scale, np_dtype):
    """torch's ``compute_source_index_and_lambda`` in the kernel's opmath precision."""
    if n_out == n_in:
        o = np.arange(n_out)
        taps = ((o, np.ones(n_out, np_dtype)), (o, np.zeros(n_out, np_dtype)))
    else:
        T = _opmath(np_dtype)
        i0, l1 = _guard(_source_index(n_in, n_out, align_corners, scale, False, T), n_in, T)
        i1 = i0 + (i0 < n_in - 1)
        l1 = l1.astype(np_dtype)         # torch stores the lambdas in the tensor's dtype
        l0 = (T(1) - l1.astype(T)).astype(np_dtype)
        taps = ((i0, l0), (i1, l1))
    return taps, _matrix(n_out, n_in, taps, np_dtype)


def _cubic1(x, A, T):
    """``((A + 2) * x - (A + 3)) * x * x + 1`` as torch's compiled kernel rounds it (its first
    step fused)."""
    return _fma(A + 2, x, -(A + 3), T) * x * x + 1


def _cubic2(x, A, T):
    """``((A * x - 5 * A) * x + 8 * A) * x - 4 * A``, its first two steps fused."""
    return _fma(_fma(A, x, -5 * A, T), x, 8 * A, T) * x - 4 * A


def _cubic_axis(n_in, n_out, align_corners, scale, np_dtype):
    """torch's ``HelperInterpCubic``: 4 taps at ``floor(src) - 1 .. + 2`` (clamped), with the
    A=-0.75 cubic-convolution weights of ``get_cubic_upsample_coefficients``."""
    T = _opmath(np_dtype)
    i0, t = _guard(_source_index(n_in, n_out, align_corners, scale, True, T), n_in, T)
    A = T(-0.75)
    x2 = (T(1) - t).astype(T)
    ws = (_cubic2(t + T(1), A, T), _cubic1(t, A, T), _cubic1(x2, A, T),
          _cubic2(x2 + T(1), A, T))
    taps = tuple((np.clip(i0 + j - 1, 0, n_in - 1), w.astype(np_dtype))
                 for j, w in enumerate(ws))
    return taps, _matrix(n_out, n_in, taps, np_dtype)


def _cubic_grad_axis(n_in, n_out, align_corners, scale, np_dtype):
    """The taps of torch's bicubic backward (``upsample_bicubic2d_backward_out_frame``, built
    without fused multiply-adds): the source index ``scale * (o + 0.5) - 0.5``, its
    ``floorf`` and the fraction left unclamped, the A=-0.75 coefficients rounded step by
    step."""
    T = np.dtype(np_dtype).type
    r = _area_scale(n_in, n_out, align_corners, scale, T)
    o = np.arange(n_out).astype(T)
    src = (r * o).astype(T) if align_corners else ((r * (o + T(0.5))).astype(T) - T(0.5))
    i0 = np.floor(src.astype(np.float32)).astype(np.int64)
    t = (src - i0.astype(T)).astype(T)
    A = T(-0.75)
    x2 = (T(1) - t).astype(T)
    ws = (_cubic2_plain((t + T(1)).astype(T), A), _cubic1_plain(t, A), _cubic1_plain(x2, A),
          _cubic2_plain((x2 + T(1)).astype(T), A))
    return tuple((np.clip(i0 + j - 1, 0, n_in - 1), w.astype(T)) for j, w in enumerate(ws))


def _cubic1_plain(x, A):
    """``((A + 2) * x - (A + 3)) * x * x + 1`` without fused steps."""
    return ((A + 2) * x - (A + 3)) * x * x + 1


def _cubic2_plain(x, A):
    """``((A * x - 5 * A) * x + 8 * A) * x - 4 * A`` without fused steps."""
    return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A


# antialiased filters (torch's ``aa_filter``s; bicubic's uses A=-0.5, as PIL), in ``T``
def _aa_linear(x, T):
    x = np.abs(x)
    return np.where(x < 1, (T(1) - x).astype(T), T(0)).astype(T)


def _aa_cubic(x, T):
    x = np.abs(x)
    a = T(-0.5)
    c1 = _fma(_fma(a + 2, x, -(a + 3), T) * x, x, T(1), T)        # fully fused here
    c2 = _fma(_fma(_fma(a, x, -5 * a, T), x, 8 * a, T), x, -4 * a, T)
    return np.where(x < 1, c1, np.where(x < 2, c2, T(0))).astype(T)


def _sinc(x):
    """``HelperInterpLanczos::sinc_filter`` in ``x``'s precision: ``x *= pi``, then
    ``std::sin(x) / x`` (glibc's ``sinf`` for a float)."""
    p = x * x.dtype.type(np.pi)
    sin = _libm.float_fn("sin") if x.dtype == np.float32 else _libm.double_fn("sin")
    with np.errstate(invalid="ignore", divide="ignore"):
        y = sin(p) / p
    return np.where(x == 0, x.dtype.type(1), y)


def _aa_lanczos(x, T):
    """Lanczos-3, ``sinc(x) * sinc(x / 3.0)``: the second in double (``x / 3.0`` is a
    double), their product rounded to ``T``."""
    x = np.abs(x.astype(T))
    r = _sinc(x).astype(np.float64) * _sinc(x.astype(np.float64) / 3.0)
    return np.where(x < 3, r, 0.0).astype(T)


_AA_FILTERS = {"bilinear": (_aa_linear, 2), "bicubic": (_aa_cubic, 4),
               "lanczos": (_aa_lanczos, 6)}


def _aa_axis(n_in, n_out, mode, align_corners, scale, np_dtype):
    """torch's ``_compute_index_ranges_weights`` with antialias: the filter's support widens
    by the downscale factor; weights are normalised to sum to one, in the tensor's dtype."""
    T = np.float64 if np_dtype == np.float64 else np.float32
    filt, interp = _AA_FILTERS[mode]
    r = _area_scale(n_in, n_out, align_corners, scale, T)
    r64 = np.float64(r)
    support = T(interp * 0.5 * r64) if r >= 1 else T(interp * 0.5)
    invscale = T(1.0 / r64) if r >= 1 else T(1)
    kmax = int(np.ceil(support)) * 2 + 1
    o = np.arange(n_out)
    center = (r64 * (o + 0.5)).astype(T)
    xmin = np.maximum(((center - support).astype(np.float64) + 0.5).astype(np.int64), 0)
    xsize = np.minimum(((center + support).astype(np.float64) + 0.5).astype(np.int64), n_in)
    xsize = np.clip(xsize - xmin, 0, kmax)
    j = np.arange(kmax)[:, None]
    arg = ((((j + xmin).astype(T) - center).astype(np.float64) + 0.5) * np.float64(invscale))
    w = filt(arg.astype(T), T)
    w = np.where(j < xsize, w, T(0)).astype(T)
    total = np.zeros(n_out, T)
    for k in range(kmax):
        total = (total + w[k]).astype(T)
    w = np.where(total != 0, w / np.where(total != 0, total, T(1)), w).astype(T)
    idx = np.minimum(xmin + j, n_in - 1)
    taps = tuple((idx[k], w[k].astype(np_dtype)) for k in range(kmax)
                 if (j[k, 0] < xsize).any())
    return taps, _matrix(n_out, n_in, taps, np_dtype), xsize


def resample_plan(shape, out_size, mode, align_corners, scales, np_dtype, antialias=False):
    """The plan of ``interpolate`` over the trailing ``len(out_size)`` dims of ``shape``."""
    nd = len(out_size)
    plan = []
    for k in range(nd):
        n_in, n_out = shape[-nd + k], out_size[k]
        s = scales[k] if scales is not None else None
        if align_corners:
            s = None
        acc = "first"
        grad_taps = None
        if antialias:
            *entry, acc = _aa_axis(n_in, n_out, mode, align_corners, s, np_dtype)
            grad_taps = entry[0]
            if n_in == n_out:     # the forward skips the axis; the backward filters it
                entry = _identity(n_out, np_dtype)
            entry = tuple(entry)
            kind = "aa"
        elif mode in ("nearest", "nearest-exact"):
            entry = _nearest_axis(n_in, n_out, s, mode == "nearest-exact", np_dtype)
            kind = "nearest"
        elif mode == "bicubic":
            entry = _cubic_axis(n_in, n_out, align_corners, s, np_dtype)
            kind = "cubic"
        else:
            entry = _linear_axis(n_in, n_out, align_corners, s, np_dtype)
            kind = "linear"
        if grad_taps is None:
            grad_taps = entry[0]
        if kind == "linear" and _opmath(np_dtype) != np_dtype:
            # the backward and the channels-last forward keep the lambdas in float
            grad_taps = _linear_axis(n_in, n_out, align_corners, s, np.float32)[0]
        if kind == "cubic":
            grad_taps = _cubic_grad_axis(n_in, n_out, align_corners, s, _opmath(np_dtype))
        plan.append(entry + (acc, kind, grad_taps))
    return tuple(plan)


# ============================================================================ kernels

def _apply_axis(x, axis, taps, m, acc, kind, grad_taps):
    if len(taps) == 1 and taps[0][1] is None:
        return xp.take(x, taps[0][0], axis=axis)
    sh = [1] * x.ndim
    sh[axis] = -1
    terms = [(xp.take(x, i, axis=axis), w.reshape(sh)) for i, w in taps]
    if x.dtype not in (np.float32, np.float64):
        out = terms[0][0] * terms[0][1]
        for t, w in terms[1:]:
            out = out + t * w
        return out
    if kind == "aa":
        return _aa_sum(terms, acc.reshape(sh), x.dtype)
    # torch's generic kernel ``t0*w0 + t1*w1`` is compiled as ``fma(t0, w0, t1*w1)``; every
    # further tap is one more fma
    (t0, w0), (t1, w1) = terms[:2]
    out = _fma(t0, w0, t1 * w1, x.dtype)
    for t, w in terms[2:]:
        out = _fma(t, w, out, x.dtype)
    return out


def _aa_sum(terms, sizes, dt):
    """``interpolate_aa_single_dim``: ``out = t0*w0; out += t_j*w_j`` for the ``sizes[o]``
    taps of each output. The compiled loop runs its steps in blocks of 16 bytes' worth
    (4 float32, 2 float64) without fusing (the compiler avoids fma chains in a loop) and
    fuses the steps left over after the last block."""
    block = 16 // dt.itemsize
    fused_after = block * ((sizes - 1) // block)
    out = terms[0][0] * terms[0][1]
    for j, (t, w) in enumerate(terms[1:], 1):
        step = xp.where(j > fused_after, _fma(t, w, out, dt), out + t * w)
        out = xp.where(j < sizes, step, out)
    return out


def _resample_np(x, plan):
    nd = len(plan)
    dt = x.dtype
    if _uses_channels_last_kernel(x, plan):
        return _linear_channels_last(x, plan).astype(dt, copy=False)
    if dt not in (np.float32, np.float64):
        x = x.astype(np.float32)         # torch's opmath for half precision
    for k in reversed(range(nd)):
        x = _apply_axis(x, x.ndim - nd + k, *plan[k])
    if plan[0][3] == "aa" and x.shape[-1] == 1 and plan[0][0][0][1] is not None:
        # torch's antialiased height pass over a width-1 image runs its loop along the rows
        # with the first row's taps (the loop takes them as constant): every row is row 0
        x = xp.broadcast_to(x[..., :1, :], x.shape).copy()
    return x.astype(dt, copy=False)


def _uses_channels_last_kernel(x, plan):
    """torch's choice of ``cpu_upsample_linear_channels_last`` for bilinear (channels-last
    input with C > 3, an output of H + W <= 128, or one thread and C == 3) and trilinear
    (channels-last input with C > 3) float32/float64 input; else the generic kernel."""
    if plan[0][3] != "linear" or len(plan) == 1:
        return False
    c = x.shape[1]
    cl = _mf.is_contiguous(x, _mf.channels_last if len(plan) == 2 else _mf.channels_last_3d)
    if len(plan) == 3:
        return cl and c > 3
    out_hw = len(plan[0][0][0][0]) + len(plan[1][0][0][0])
    return (cl and c > 3) or out_hw <= 128 or (_exact.get_num_threads() == 1 and c == 3)


def _linear_channels_last(x, plan):
    """``cpu_upsample_linear_channels_last``: corner weights ``h_lambda * w_lambda`` (``d``
    first in 3-d) rounded left to right; the channels in full vectors compute
    ``fma(t0, w0, fma(t1, w1, … fma(t_last, w_last, t_prev * w_prev)))`` (the channels of
    :func:`_cpu.vector_channels`; half precision's float halves start from ``t_last *
    w_last``), the rest ``fma(t2, w2, fma(t0, w0, t1*w1))…`` (float16's scalar loop,
    converting each element first: ``fma(t2, w2, fma(t1, w1, t0*w0))…``). Half precision
    computes in float with float lambdas, rounded once."""
    nd = len(plan)
    tdt = plan[0][0][0][1].dtype        # the tensor's dtype (bfloat16 arrives as float32)
    dt = _opmath(x.dtype)
    half = tdt != dt
    vec = _cpu.vector_channels(x.shape[1], tdt)
    x = x.astype(dt, copy=False)         # half precision: float lambdas and sums, one rounding
    grid = [np.arange(len(p[0][0][0])).reshape((-1,) + (1,) * (nd - 1 - k))
            for k, p in enumerate(plan)]
    terms = []
    for corner in np.ndindex(*(2,) * nd):
        v = x
        w = None
        for k, j in enumerate(corner):
            i, lam = plan[k][4][j]
            v = xp.take(v, i, axis=x.ndim - nd + k)
            lam = lam[grid[k]]
            w = lam if w is None else (w * lam).astype(dt)
        terms.append((v, w))
    c = x.shape[1]
    out = xp.empty(terms[0][0].shape, dt)
    if vec:
        part = [(t[:, :vec], w) for t, w in terms]
        if half:
            acc = part[-1][0] * part[-1][1]
        else:
            acc = part[-2][0] * part[-2][1]
            acc = _fma(part[-1][0], part[-1][1], acc, dt)
        for t, w in reversed(part[:-1] if half else part[:-2]):
            acc = _fma(t, w, acc, dt)
        out[:, :vec] = acc
    if vec < c:
        part = [(t[:, vec:], w) for t, w in terms]
        if tdt == np.float16:
            acc = _fma(part[1][0], part[1][1], part[0][0] * part[0][1], dt)
        else:
            acc = _fma(part[0][0], part[0][1], part[1][0] * part[1][1], dt)
        for t, w in part[2:]:
            acc = _fma(t, w, acc, dt)
        out[:, vec:] = acc
    return out


def _backward_terms(plan, sizes, dt):
    """The scatter of torch's backward kernels, as ``(targets, first, second)`` arrays of
    shape (outputs, terms): each output's terms in the order the kernel adds them; a term
    an output does not have (past an antialiased window's size) targets ``prod(sizes)``,
    one past the input.

    ``cpu_upsample_nearest_backward`` adds each output's gradient to its one source;
    ``cpu_upsample_linear_backward`` adds ``(h_lambda * w_lambda) * grad`` for the taps in
    ``i00, i01, i10, i11`` order (the weight product rounded first, left to right over the
    axes: ``first``), as ``cpu_upsample_genNd_backward_aa`` does over each output's window;
    the bicubic backward takes the width taps outermost and adds ``(grad * y_coeff) *
    x_coeff`` (``first``: the height coefficient, ``second``: the width one)."""
    nd = len(plan)
    kind = plan[0][3]
    taps = [p[4] for p in plan]
    outs = [len(t[0][0]) for t in taps]
    axes = list(reversed(range(nd))) if kind == "cubic" else list(range(nd))
    rows = [math.prod(sizes[k + 1:]) for k in range(nd)]
    grid = [np.arange(n).reshape((-1,) + (1,) * (nd - 1 - k)) for k, n in enumerate(outs)]
    targets, first, second = [], [], []
    for combo in np.ndindex(*(len(taps[k]) for k in axes)):
        js = dict(zip(axes, combo))
        tap = [taps[k][js[k]] for k in range(nd)]
        flat = sum(tap[k][0][grid[k]] * rows[k] for k in range(nd))
        if kind == "aa":
            for k in range(nd):
                flat = np.where(js[k] < plan[k][2][grid[k]], flat, math.prod(sizes))
        targets.append(np.broadcast_to(flat, outs).ravel())
        if kind in ("linear", "aa"):
            ws = [dt.type(1) if t[1] is None else t[1][grid[k]] for k, t in enumerate(tap)]
            w = ws[0]
            for k in range(1, nd):
                w = (w * ws[k]).astype(dt)
            first.append(np.broadcast_to(w, outs).ravel())
        elif kind == "cubic":
            first.append(np.broadcast_to(tap[0][1][grid[0]], outs).ravel())
            second.append(np.broadcast_to(tap[1][1][grid[1]], outs).ravel())

    def stack(a):
        return np.stack(a, axis=1).astype(dt) if a else None
    return np.stack(targets, axis=1), stack(first), stack(second)


def ordered_scatter(g, targets, n_in, first=None, second=None):
    """``g`` (planes, outputs) scattered into zeros (planes, ``n_in``): term ``k`` of output
    ``o`` updates ``acc[targets[o, k]]``, all terms one after another in the order (output,
    term), as ``acc + g``, ``fma(first, g, acc)`` or, given ``second``,
    ``acc + (g * first) * second``.

    Vectorised by rank: the terms that reach the same input are ranked in that order, and
    one pass applies every term of one rank (whose targets are then distinct)."""
    n_terms = targets.shape[1]
    t = targets.ravel()
    order = np.argsort(t, kind="stable")
    ts = t[order]
    new = np.ones(len(ts), bool)
    new[1:] = ts[1:] != ts[:-1]
    head = np.flatnonzero(new)
    rank = np.arange(len(ts)) - np.repeat(head, np.diff(np.append(head, len(ts))))
    gt = xp.ascontiguousarray(g.T)             # (outputs, planes): rows gather fast
    acc = xp.zeros((n_in, g.shape[0]), g.dtype)
    for r in range(int(rank.max()) + 1 if len(ts) else 0):
        seq = order[rank == r]
        tgt = t[seq]
        gv = gt[seq // n_terms]
        if first is None:
            acc[tgt] += gv
        elif second is not None:
            acc[tgt] += gv * first.ravel()[seq, None] * second.ravel()[seq, None]
        else:
            a = np.broadcast_to(first.ravel()[seq, None], gv.shape)
            acc[tgt] = _exact.fma(a, gv, acc[tgt])
    return acc.T


def _resample_t_np(g, plan, sizes):
    """The backward of :func:`_resample_np` into an input of trailing ``sizes``: torch's
    scatter kernels (:func:`_backward_terms`); other dtypes take the transposed plan."""
    nd = len(plan)
    lead = g.shape[:g.ndim - nd]
    kind = plan[0][3]
    if kind == "cubic" and tuple(g.shape[g.ndim - nd:]) == tuple(sizes):
        return g.copy()                  # torch's bicubic backward copies same-size grads
    dt = g.dtype
    targets, first, second = _backward_terms(plan, sizes, np.dtype(_opmath(dt)))
    # half precision: torch sums each plane in a float buffer, rounded once at the end
    planes = g.reshape((-1, targets.shape[0])).astype(_opmath(dt), copy=False)
    n_in = math.prod(sizes)
    out = ordered_scatter(planes, targets, n_in + 1, first, second)[:, :n_in]
    out = xp.ascontiguousarray(out).reshape(lead + tuple(sizes)).astype(dt, copy=False)
    fmt = _mf.suggest(g)                 # torch: grad_output's suggested memory format
    return out if fmt is _mf.contiguous_format else _mf.copy_to_format(out, fmt)


def _make_resample(node):
    fwd = op(node, name="_resample_" + node, method=False, function=False, promote=NONE,
             self=lambda grad, self_shape, plan: bwd(grad, tuple(self_shape[-len(plan):]),
                                                     plan))(
        lambda self, plan: _mf.follow(_resample_np(self, plan), self))
    bwd = op(node.replace("Backward0", "BackwardBackward0"), name="_resample_bwd_" + node,
             method=False, function=False, promote=NONE,
             grad_output=lambda grad, sizes, plan: fwd(grad, plan))(
        lambda grad_output, sizes, plan: _resample_t_np(grad_output, plan, sizes))
    return fwd


RESAMPLE_OPS = {("nearest", 1): _make_resample("UpsampleNearest1DBackward0"),
                ("nearest", 2): _make_resample("UpsampleNearest2DBackward0"),
                ("nearest", 3): _make_resample("UpsampleNearest3DBackward0"),
                ("nearest-exact", 1): _make_resample("UpsampleNearestExact1DBackward0"),
                ("nearest-exact", 2): _make_resample("UpsampleNearestExact2DBackward0"),
                ("nearest-exact", 3): _make_resample("UpsampleNearestExact3DBackward0"),
                ("linear", 1): _make_resample("UpsampleLinear1DBackward0"),
                ("bilinear", 2): _make_resample("UpsampleBilinear2DBackward0"),
                ("trilinear", 3): _make_resample("UpsampleTrilinear3DBackward0"),
                ("bicubic", 2): _make_resample("UpsampleBicubic2DBackward0"),
                ("bilinear-aa", 2): _make_resample("UpsampleBilinear2DAaBackward0"),
                ("bicubic-aa", 2): _make_resample("UpsampleBicubic2DAaBackward0"),
                ("lanczos-aa", 2): _make_resample("UpsampleLanczos2DAaBackward0")}

