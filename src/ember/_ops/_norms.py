"""torch's CPU normalisation kernels, bit for bit: batch norm's statistics and transform.

``batch_norm_cpu_update_stats_template`` (``Normalization.cpp``) and the kernels of
``batch_norm_kernel.cpp``: on a contiguous input each channel's sum is taken in double in
memory order, the mean rounded to the input's dtype, and the squared deviations (in that
dtype) added in double; a channels-last input (or one with a single element per channel
and sample) is reduced by rows, each thread adding its share of the rows into a vector of
the input's dtype; any other layout takes its mean from ``torch.mean`` and its squared
deviations in double in the iterator's order. The output of a contiguous input is
``x * alpha + beta`` per channel with ``alpha = invstd * w`` and ``beta = b - mean * alpha``,
both fused by the compiler; otherwise ``((x - mean) * invstd) * w + b`` element by element.
"""

from __future__ import annotations

import numpy as np

from .. import _memory_format as _mf
from .._memory_format import channels_last, is_contiguous
from . import _exact
from ._exact import fma, seqsum


def _rows(x):
    """``x`` as (rows, C) in memory order when C is innermost (channels-last or one element
    per channel and sample), else None. A contiguous ``x`` takes the contiguous kernels
    unless it has one element per channel and sample, as torch checks contiguity first (a
    contiguous (N, 1, H, W) is channels-last too)."""
    if x.flags.c_contiguous:
        return x.reshape(x.shape[0], x.shape[1]) if x[0, 0].size == 1 else None
    if x.ndim == 4 and is_contiguous(x, channels_last):
        return x.transpose(0, 2, 3, 1).reshape(-1, x.shape[1])
    return None


def _fma_seq(d, acc, e=None):
    """``acc = fma(d[i], e[i], acc)`` (``e`` None: ``d`` itself) for each row ``i`` in
    turn."""
    e = d if e is None else e
    for i in range(d.shape[0]):
        acc = fma(d[i], e[i], acc)
    return acc


def _stats_rows(r, dt):
    """``batch_norm_cpu_collect_stats_channels_last_impl``: (mean, var_sum) of (N, C) rows.
    Each thread adds its block of rows into a buffer row of its own (the variance by fused
    multiply-adds), the buffers are summed in double; torch runs N <= threads rows on one
    thread (probed: (2, C) on two threads is one chain)."""
    n, c = r.shape
    threads = _exact.get_num_threads()
    ch = -(-n // threads) if n > threads else n
    parts = range(0, n, ch)
    buf = np.zeros((len(parts), c), dt)
    for t, b in enumerate(parts):
        buf[t] = seqsum(r[b:b + ch], np.zeros(c, dt))
    mean = (seqsum(buf.astype(np.float64), np.zeros(c)) / n).astype(dt)
    d = r - mean
    buf = np.zeros((len(parts), c), dt)
    for t, b in enumerate(parts):
        buf[t] = _fma_seq(d[b:b + ch], buf[t])
    return mean, seqsum(buf.astype(np.float64), np.zeros(c)).astype(dt)


def _stats_contiguous(x, dt):
    """``batch_norm_cpu_collect_stats_contiguous_impl``: (mean, var_sum) per channel."""
    n, c = x.shape[:2]
    seq = x.reshape(n, c, -1).transpose(0, 2, 1).reshape(-1, c)
    mean = (seqsum(seq.astype(np.float64), np.zeros(c)) / seq.shape[0]).astype(dt)
    d = seq - mean
    return mean, seqsum((d * d).astype(np.float64), np.zeros(c)).astype(dt)


def _iter_order(x):
    """The axes of ``x`` slowest first as TensorIterator walks one channel (dim 1 after
    them): the other dims by stride, fastest innermost."""
    dims = sorted((d for d in range(x.ndim) if d != 1 and x.shape[d] != 1),
                  key=lambda d: abs(x.strides[d]))
    return dims[::-1] + [d for d in range(x.ndim) if d != 1 and x.shape[d] == 1] + [1]


def _iter_seq(x):
    """(elements of each channel in TensorIterator's order, C)."""
    return np.transpose(x, _iter_order(x)).reshape(-1, x.shape[1])


def _invstd(var, eps):
    """``InvStd<double>``: 0 when both var and eps are 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r = 1.0 / np.sqrt(var + eps)
    return np.where((var == 0) & (eps == 0), 0.0, r)


def batch_norm_stats(x, running_mean, running_var, momentum, eps):
    """Training statistics of ``x`` (float32/float64, N×C×…): (mean, invstd) in x's dtype;
    ``running_mean``/``running_var`` arrays (or None) are updated in place as torch does."""
    dt = x.dtype.type
    n = x.size // x.shape[1]
    m = dt(momentum)
    om = dt(1) - m
    if min(x.strides, default=0) >= 0 and (x.flags.c_contiguous or _rows(x) is not None):
        rows = _rows(x)
        mean, vs = _stats_contiguous(x, dt) if rows is None else _stats_rows(rows, dt)
        invstd = _invstd((vs / dt(n)).astype(np.float64), eps).astype(dt)
        if running_mean is not None:
            running_mean[...] = m * mean + om * running_mean
        if running_var is not None:
            unbiased = (vs / dt(n - 1)).astype(np.float64)
            running_var[...] = (np.float64(m) * unbiased + om * running_var).astype(dt)
        return mean, invstd
    from .reduction import _fmean
    mean = _fmean(x, (0,) + tuple(range(2, x.ndim)), False, None)
    d = _iter_seq(x).astype(np.float64) - mean.astype(np.float64)
    vs = seqsum(d * d, np.zeros(x.shape[1]))
    invstd = _invstd(vs / n, eps).astype(dt)
    if running_mean is not None:
        running_mean[...] = (momentum * mean.astype(np.float64)
                             + (1 - momentum) * running_mean.astype(np.float64)).astype(dt)
    if running_var is not None:
        running_var[...] = (momentum * (vs / (n - 1))
                            + (1 - momentum) * running_var.astype(np.float64)).astype(dt)
    return mean, invstd


def batch_norm_apply(x, weight, bias, mean, invstd):
    """``batch_norm_cpu_transform_input_template``: the normalised output of ``x`` given
    each channel's mean and invstd (float32/float64, all of x's dtype)."""
    dt = x.dtype.type
    c = x.shape[1]
    shp = (1, c) + (1,) * (x.ndim - 2)
    w = np.ones(c, dt) if weight is None else weight
    b = np.zeros(c, dt) if bias is None else bias
    contiguous = min(x.strides, default=0) >= 0 and (
        x.flags.c_contiguous or _rows(x) is not None)
    if contiguous:
        alpha = invstd * w
        beta = fma(-mean, alpha, b)
        shape = x.shape
        return fma(x, np.broadcast_to(alpha.reshape(shp), shape),
                   np.broadcast_to(beta.reshape(shp), shape))
    return ((x - mean.reshape(shp)) * invstd.reshape(shp)) * w.reshape(shp) + b.reshape(shp)


def eval_invstd(running_var, eps):
    """invstd from the running variance: ``1 / sqrt(var + eps)`` in the dtype."""
    dt = running_var.dtype.type
    with np.errstate(divide="ignore", invalid="ignore"):
        return (dt(1) / np.sqrt(running_var + dt(eps))).astype(dt)


def eval_backward_invstd(running_var, eps):
    """The backward kernel's evaluation-mode invstd: ``1 / std::sqrt(var + eps)`` with the
    double ``eps``, in double, stored in the dtype."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (1.0 / np.sqrt(running_var.astype(np.float64) + eps)).astype(running_var.dtype)


# ----------------------------------------------------------------------------- backward

def _plain(a, b, c):
    return a * b + c


def _tailed(a, b, c, tail):
    """``fma(a, b, c)`` on the full vectors of each row (last axis), ``tail`` on the rest."""
    lanes = _exact._LANES[a.dtype]
    full = a.shape[-1] - a.shape[-1] % lanes
    out = fma(a, b, c)
    if full < a.shape[-1]:
        out[..., full:] = tail(a[..., full:], b[..., full:], c[..., full:])
    return out

def _lanes_reduce(acc, dt):
    """``vec_reduce_all`` of a vector sum (axis 0: one vector's lanes): floats fold in halves
    (AVX2's eight, AVX512's sixteen), doubles one after another."""
    if dt == np.float32:
        v = acc
        while v.shape[0] > 1:
            h = v.shape[0] // 2
            v = v[:h] + v[h:]
        return v[0]
    r = acc[0]
    for k in range(1, acc.shape[0]):
        r = r + acc[k]
    return r


def _columns(a, size):
    """``a``'s rows (last axis) as the columns of a C-contiguous (size, rows) array: each
    step below then runs over one contiguous block, not over a strided slice per row."""
    return np.ascontiguousarray(a.reshape(-1, size).T)


def vec_sum_rows(rows, fused=None, lanes=None, fuse_tail=True):
    """``vec::reduce_all`` (``map2_reduce_all`` with ``fused = (a, b)``: the sum of a * b,
    the products of the partial last vector added by fused multiply-adds where the compiler
    fuses them, ``fuse_tail``) along the last axis of (R, S) arrays, in vectors of ``lanes``
    (default: AVX2's)."""
    src = rows if fused is None else fused[0]
    lead, size = src.shape[:-1], src.shape[-1]
    if not size:
        return np.zeros(lead, src.dtype)
    if fused is None:
        return vec_sum_columns(_columns(rows, size), lanes=lanes).reshape(lead)
    a, b = (_columns(np.broadcast_to(v, src.shape), size) for v in fused)
    return vec_sum_columns(a, b, lanes, fuse_tail).reshape(lead)


def vec_sum_columns(a, b=None, lanes=None, fuse_tail=True):
    """:func:`vec_sum_rows` of the rows held as the columns of ``a`` (and ``b``): C-contiguous
    (S, R) arrays, whose every step runs over one contiguous block."""
    dt = a.dtype.type
    lanes = lanes or _exact._LANES[a.dtype]
    size = a.shape[0]
    if size < lanes:                # no full vector: the elements in turn
        return _exact.seqsum(a if b is None else a * b)
    full = size - size % lanes
    if b is None:
        acc = a[:lanes].copy()
        for d in range(lanes, full, lanes):
            acc += a[d:d + lanes]
        if full < size:
            acc[:size - full] += a[full:]
    else:
        acc = a[:lanes] * b[:lanes]
        # the compiler fuses the product into the sum on the partial vector only
        for d in range(lanes, full, lanes):
            acc += a[d:d + lanes] * b[d:d + lanes]
        if full < size:
            t = size - full
            acc[:t] = fma(a[full:], b[full:], acc[:t]) if fuse_tail else \
                acc[:t] + a[full:] * b[full:]
    return _lanes_reduce(acc, dt)


def _same_format(x, g):
    return x.strides == g.strides and min(x.strides, default=0) >= 0 and (
        x.flags.c_contiguous or _rows(x) is not None)


def batch_norm_backward(grad, x, weight, mean, invstd):
    """``native_batch_norm_backward`` in training mode: (grad_input, grad_weight,
    grad_bias) as torch's CPU kernels compute them (float32/float64 arrays of one dtype)."""
    dt = x.dtype.type
    n_b, c = x.shape[:2]
    n = x.size // c
    w = np.ones(c, dt) if weight is None else weight
    shp = (1, c) + (1,) * (x.ndim - 2)
    rows = _rows(x) if _same_format(x, grad) else None
    if rows is not None:
        # batch_norm_cpu_backward_channels_last_impl: per-thread vectors of the dtype
        gr = _rows(grad)
        threads = _exact.get_num_threads()
        ch = -(-rows.shape[0] // threads)
        sums = np.zeros((threads, c), dt)
        dots = np.zeros((threads, c), dt)
        d = rows - mean
        for t, b in enumerate(range(0, rows.shape[0], ch)):
            sums[t] = seqsum(gr[b:b + ch], np.zeros(c, dt))
            acc = np.zeros(c, dt)
            for i in range(b, min(b + ch, rows.shape[0])):
                acc = fma(d[i], gr[i], acc)
            dots[t] = acc
        s = seqsum(sums.astype(np.float64), np.zeros(c)).astype(dt)
        dotp = seqsum(dots.astype(np.float64), np.zeros(c)).astype(dt)
        k = dotp * invstd * invstd / dt(n)
        gi = _tailed(-d, np.broadcast_to(k, d.shape), gr - s / dt(n), _plain) * invstd * w
        if x.flags.c_contiguous:
            gi = gi.reshape(x.shape)
        else:
            sh = (x.shape[0],) + x.shape[2:] + (c,)
            gi = gi.reshape(sh).transpose(0, x.ndim - 1, *range(1, x.ndim - 1))
        return gi, dotp * invstd, s
    if x.flags.c_contiguous and _same_format(x, grad):
        # batch_norm_cpu_backward_contiguous_impl: a vector reduction per (sample, channel)
        xr = x.reshape(n_b * c, -1)
        gr = grad.reshape(n_b * c, -1)
        xc = xr - np.broadcast_to(mean, (n_b, c)).reshape(-1, 1)
        s = seqsum(vec_sum_rows(gr).reshape(n_b, c).astype(np.float64), np.zeros(c))
        dotp = seqsum(vec_sum_rows(None, (xc, gr)).reshape(n_b, c).astype(np.float64),
                      np.zeros(c))
        k = (dotp.astype(dt) * invstd * invstd / dt(n)).reshape(shp)
        gm = (s / n).astype(dt).reshape(shp)
        xc = xc.reshape(x.shape)
        gi = fma(-xc, np.broadcast_to(k, x.shape), grad - gm) * invstd.reshape(shp) \
            * w.reshape(shp)
        return gi, (dotp * invstd).astype(dt), s.astype(dt)
    # the generic path: at::sum for the bias, a serial dot product in double
    s = _exact.cascade_sum(grad, (0,) + tuple(range(2, x.ndim)), False)
    xs = _iter_seq(x)
    gs = np.transpose(np.broadcast_to(grad, x.shape), _iter_order(x)).reshape(-1, c)
    dotp = seqsum(((xs - mean) * gs).astype(np.float64), np.zeros(c))
    k = (dotp.astype(dt) * invstd * invstd / dt(n)).reshape(shp)
    gi = (x - mean.reshape(shp)) * k
    gi = ((grad - (s / dt(n)).reshape(shp)) - gi) * invstd.reshape(shp) * w.reshape(shp)
    return gi, (dotp * invstd).astype(dt), s


# ----------------------------------------------------------------------------- moments

def _add_moments_vec(m0_add, m1_add, m2_add, m0, m1, m2, dt):
    """``AddMomentsVec``: merge (m0_add, m1_add, m2_add) into (m0, m1, m2), the counts
    Python ints shared by every row; the compiled code adds the two M2s first and fuses
    ``(m0 * delta) * (c * delta)`` into that sum."""
    n = m0 + m0_add
    c = dt(0) if n == 0 else dt(m0_add) / dt(n)
    delta = m1_add - m1
    cd = c * delta
    return n, m1 + cd, fma(dt(m0) * delta, cd, m2 + m2_add)


def _add_moments(m0_add, m1_add, m2_add, m0, m1, m2, dt):
    """``AddMoments`` (scalar): ``m1 += c * delta`` and the last product of
    ``m2_add + delta * delta * c * m0`` fused."""
    n = m0 + m0_add
    c = dt(0) if n == 0 else dt(m0_add) / dt(n)
    delta = m1_add - m1
    m1 = fma(np.broadcast_to(c, delta.shape), delta, m1)
    t = delta * delta * c
    return n, m1, m2 + fma(t, np.broadcast_to(dt(m0), t.shape), m2_add)


def _welford(vecs, dt):
    """The Welford steps of ``UpdateMomentsVec`` along axis -2 (fused updates)."""
    shape = vecs.shape[:-2] + vecs.shape[-1:]
    m1 = np.zeros(shape, dt)
    m2 = np.zeros(shape, dt)
    for j in range(vecs.shape[-2]):
        xv = vecs[..., j, :]
        delta = xv - m1
        m1 = fma(delta, np.broadcast_to(dt(1) / dt(j + 1), shape), m1)
        m2 = fma(delta, xv - m1, m2)
    return m1, m2


def _cascade(m1, m2, counts, dt):
    """The stack of ``RowwiseMomentsImpl`` over chunk states (axis 0), level by level: each
    pair merges the later into the earlier; an unpaired node waits in its level's slot and
    the slots are finally merged, lowest first, into slot 0."""
    k = len(counts)
    depth = max(1, (k - 1).bit_length())
    slots = {}
    level = 0
    while True:
        k = len(counts)
        if level == depth:
            slots[depth - 1] = (counts[0], m1[0], m2[0])
            break
        if k % 2:
            slots[level] = (counts[-1], m1[-1], m2[-1])
        if k < 2:
            break
        h = k // 2
        cl, cr = counts[0:2 * h:2], counts[1:2 * h:2]
        n = cl + cr
        c = (cr.astype(dt) / n.astype(dt)).reshape((h,) + (1,) * (m1.ndim - 1))
        delta = m1[1:2 * h:2] - m1[0:2 * h:2]
        cd = c * delta
        m1, m2 = m1[0:2 * h:2] + cd, fma(cl.astype(dt).reshape(c.shape) * delta, cd,
                                         m2[0:2 * h:2] + m2[1:2 * h:2])
        counts = n
        level += 1
    res = slots.get(0)
    for i in range(1, depth):
        if i not in slots:
            continue
        if res is None:
            res = slots[i]
            continue
        m0, a1, a2 = res
        res = _add_moments_vec(*slots[i], m0, a1, a2, dt)
    return res


def rowwise_moments(x):
    """``RowwiseMoments``: (mean, biased variance) of each row of a (M, N) float array, by
    Welford steps over chunks of 16 vectors merged in a cascade, then the scalar tail and
    the lanes."""
    dt = x.dtype.type
    lanes = _exact._LANES[x.dtype]
    rows, size = x.shape
    nv = size // lanes
    full, part = divmod(nv, 16)
    m1 = np.zeros((0, rows, lanes), dt)
    m2 = m1
    counts = [16] * full
    if full:
        vec = x[:, :full * 16 * lanes].reshape(rows, full, 16, lanes).transpose(1, 0, 2, 3)
        m1, m2 = _welford(vec, dt)
    if part:
        vec = x[:, full * 16 * lanes:nv * lanes].reshape(rows, part, lanes)
        p1, p2 = _welford(vec, dt)
        m1 = np.concatenate([m1, p1[None]])
        m2 = np.concatenate([m2, p2[None]])
        counts.append(part)
    _, a1, a2 = (0, None, None) if not counts else _cascade(
        m1, m2, np.array(counts, np.int64), dt)
    return _fold_lanes(x, nv * lanes, nv, a1, a2, dt)


def _fold_lanes(x, start, per_lane, a1, a2, dt, fused=False):
    """The end of ``RowwiseMomentsImpl``: Welford steps over the scalar tail of the rows of
    ``x`` from ``start`` (``fused``: ``m2 += delta * (x - m1)`` contracted to one fma, as
    the float16 instance compiles, not the bfloat16 one), then each lane's (``per_lane`` elements)
    moments ``a1``, ``a2`` (None: no vectors) merged in: (mean, biased variance)."""
    rows, size = x.shape
    m0, m1, m2 = 0, np.zeros(rows, dt), np.zeros(rows, dt)
    for i in range(start, size):
        xi = x[:, i]
        delta = xi - m1
        m0 += 1
        m1 = m1 + delta / dt(m0)
        m2 = fma(delta, xi - m1, m2) if fused else m2 + delta * (xi - m1)
    if a1 is not None:
        for k in range(a1.shape[1]):
            m0, m1, m2 = _add_moments(per_lane, a1[:, k], a2[:, k], m0, m1, m2, dt)
    return m1, m2 / dt(size)


def rowwise_moments_reduced(x, fused_tail=False):
    """``RowwiseMoments`` of a float16/bfloat16 (M, N) array (given as float32): each vector
    of the reduced type is two float vectors, whose Welford steps over a chunk of 16
    vectors are merged one after the other into the bottom of the cascade's stack;
    ``fused_tail``: the scalar tail's steps as :func:`_fold_lanes`' fused ones."""
    dt = np.float32
    lanes = _exact._LANES[np.dtype(dt)]
    width = 2 * lanes
    rows, size = x.shape
    nv = size // width
    chunks = -(-nv // 16)
    depth = max(1, (chunks - 1).bit_length())
    zero = np.zeros((rows, lanes), dt)
    stack = [(0, zero, zero)] * depth
    for i in range(chunks):
        steps = min(16, nv - 16 * i)
        vec = x[:, i * 16 * width:(i * 16 + steps) * width].reshape(rows, steps, width)
        for half in (vec[..., :lanes], vec[..., lanes:]):
            stack[0] = _add_moments_vec(steps, *_welford(half, dt), *stack[0], dt)
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:
            stack[j] = _add_moments_vec(*stack[j - 1], *stack[j], dt)
            stack[j - 1] = (0, zero, zero)
            mask >>= 1
            j += 1
    for j in range(1, depth):
        stack[0] = _add_moments_vec(*stack[j], *stack[0], dt)
    return _fold_lanes(x, nv * width, 2 * nv, *(stack[0][1:] if nv else (None, None)), dt,
                       fused_tail)


def layer_norm(x, weight, bias, k, eps):
    """``LayerNormKernelImpl`` on a float32/float64 array normalised over its last ``k``
    dims: (output, mean, rstd), the statistics shaped as torch's (trailing dims of 1)."""
    dt = x.dtype.type
    lead = x.shape[:x.ndim - k]
    m = int(np.prod(lead, dtype=np.int64))
    n = x.size // m if m else 0
    rows = np.ascontiguousarray(x).reshape(m, n)
    mean, var = rowwise_moments(rows)
    rstd = dt(1) / np.sqrt(var + dt(eps))
    y = (rows - mean[:, None]) * rstd[:, None]
    if weight is not None and bias is not None:
        shape = rows.shape
        y = fma(y, np.broadcast_to(weight.reshape(1, n), shape),
                np.broadcast_to(bias.reshape(1, n), shape))
    elif weight is not None:
        y = y * weight.reshape(1, n)
    elif bias is not None:
        y = y + bias.reshape(1, n)
    stat_shape = lead + (1,) * k
    return y.reshape(x.shape), mean.reshape(stat_shape), rstd.reshape(stat_shape)


def layer_norm_reduced(x, weight, bias, k, eps):
    """``layer_norm_kernel_mixed_type`` on a float16/bfloat16 array normalised over its last
    ``k`` dims (the weight and bias of its type or float32): the statistics as
    :func:`rowwise_moments_reduced`, ``y = fma(fma(x, rstd, -rstd * mean), w, b)`` in float,
    rounded once."""
    f32 = np.float32
    m = int(np.prod(x.shape[:x.ndim - k], dtype=np.int64))
    n = x.size // m if m else 0
    rows = np.ascontiguousarray(x).reshape(m, n).astype(f32)
    mean, var = rowwise_moments_reduced(rows, x.dtype == np.float16)
    rstd = f32(1) / np.sqrt(var + f32(eps))
    t = fma(rows, np.broadcast_to(rstd[:, None], rows.shape),
            np.broadcast_to((-rstd * mean)[:, None], rows.shape))
    w = np.ones(n, f32) if weight is None else weight.astype(f32).reshape(n)
    b = np.zeros(n, f32) if bias is None else bias.astype(f32).reshape(n)
    y = fma(t, np.broadcast_to(w, rows.shape), np.broadcast_to(b, rows.shape))
    stat_shape = x.shape[:x.ndim - k] + (1,) * k
    return y.astype(x.dtype).reshape(x.shape), mean.reshape(stat_shape), \
        rstd.reshape(stat_shape)


def layer_norm_backward(grad, x, weight, k, mean, rstd, which):
    """``LayerNormBackwardKernelImpl`` on float32/float64 arrays normalised over their last
    ``k`` dims: the gradient ``which`` names (``"input"``, ``"weight"`` or ``"bias"``).

    ``mean`` and ``rstd`` are the forward's statistics (:func:`layer_norm`). Per row, with
    ``a`` the rstd, ``ds = Σ dy·x·γ`` and ``db = Σ dy·γ`` are vector reductions (the
    products fused into the sums on the partial vector, :func:`vec_sum_rows`),
    ``b = fma(db, mean, -ds)·a·a·a/N``, ``c = fma(-b, mean, -(db·a/N))`` and
    ``dx = fma(b, x, a·dy·γ) + c``. ``dγ`` and ``dβ`` fold each thread's rows into a vector,
    ``dγ += dy·fma(a, x, -a·mean)`` fused, and add the threads' vectors in order."""
    dt = x.dtype.type
    m = int(np.prod(x.shape[:x.ndim - k], dtype=np.int64))
    n = x.size // m
    dy = np.ascontiguousarray(grad).reshape(m, n)
    if which == "bias":
        return _per_thread_rows(dy, lambda acc, i: acc + dy[i], dt).reshape(x.shape[-k:])
    rows = np.ascontiguousarray(x).reshape(m, n)
    mean, a = mean.reshape(m), rstd.reshape(m)
    if which == "weight":
        b = -a * mean
        return _per_thread_rows(rows, lambda acc, i: fma(
            dy[i], fma(np.full(n, a[i]), rows[i], np.full(n, b[i])), acc), dt
        ).reshape(x.shape[-k:])
    if weight is None:
        ds = vec_sum_rows(None, (dy, rows))
        db = vec_sum_rows(dy)
        ady = a[:, None] * dy
    else:
        w = np.broadcast_to(weight.reshape(1, n), dy.shape)
        ds = vec_sum_rows(None, (dy * rows, w))
        db = vec_sum_rows(None, (dy, w))
        ady = a[:, None] * dy * w
    scale = dt(1) / dt(n)
    b = fma(db, mean, -ds) * a * a * a * scale
    c = fma(-b, mean, -(db * a * scale))
    return (fma(np.broadcast_to(b[:, None], dy.shape), rows, ady) + c[:, None]).reshape(x.shape)


def layer_norm_backward_reduced(grad, x, weight, k, mean, rstd, which, param_dtype):
    """``LayerNormBackwardKernelImpl`` on float16/bfloat16 arrays normalised over their last
    ``k`` dims (``param_dtype``: the weight's dtype, float32 for torch's mixed-type kernel):
    the gradient ``which`` names, as float32 values rounded as torch stores them.

    ``mean`` and ``rstd`` are the float forward's statistics, stored in ``param_dtype``
    (rounded to the reduced type unless mixed). ``dγ``/``dβ`` fold each thread's rows into a
    buffer of the input's type (each row's update rounded to it), the threads' buffers then added in
    float. ``ds``/``db`` are float sums over vectors of the reduced type, each two float
    halves, which are added before their lanes fold; ``dx`` as for float
    (:func:`layer_norm_backward`), rounded once."""
    f32 = np.float32
    rdt = x.dtype
    m = int(np.prod(x.shape[:x.ndim - k], dtype=np.int64))
    n = x.size // m

    def rounded(v):
        return v.astype(rdt).astype(f32)

    dy = np.ascontiguousarray(grad).reshape(m, n).astype(f32)
    if which == "bias":
        return _per_thread_rows(dy, lambda acc, i: rounded(acc + dy[i]), f32).reshape(
            x.shape[-k:])
    rows = np.ascontiguousarray(x).reshape(m, n).astype(f32)
    mean, a = mean.reshape(m).astype(f32), rstd.reshape(m).astype(f32)
    if which == "weight":
        b = -a * mean
        return _per_thread_rows(rows, lambda acc, i: rounded(fma(
            dy[i], fma(np.full(n, a[i]), rows[i], np.full(n, b[i])), acc)), f32
        ).reshape(x.shape[-k:])
    if weight is None:
        ds, db = _reduced_vec_sum(dy, rows), _reduced_vec_sum(dy)
        ady = a[:, None] * dy
    else:
        w = np.broadcast_to(weight.astype(f32).reshape(1, n), dy.shape)
        dyw = dy * w
        ds, db = _reduced_vec_sum(rows, dyw), _reduced_vec_sum(dyw)
        ady = a[:, None] * dy * w
    scale = f32(1) / f32(n)
    b = fma(db, mean, -ds) * a * a * a * scale
    c = fma(-b, mean, -(db * a * scale))
    dx = fma(np.broadcast_to(b[:, None], dy.shape), rows, ady) + c[:, None]
    return dx.reshape(x.shape)


def _reduced_vec_sum(a, b=None):
    """The float sums of the rows of (M, N) ``a`` (or of ``a * b``, fused into the sums
    after the first vector) over vectors of the reduced type, each two float vectors: a
    row shorter than one vector adds its second half into the first (one float vector or
    less: the lanes one after another); a longer one accumulates both halves, the partial
    last vector on its elements only, then adds them and folds the lanes."""
    f32 = np.float32
    lanes = _exact._LANES[np.dtype(f32)]
    width = 2 * lanes
    m, n = a.shape

    def part(s0, s1):
        v = np.zeros((m, width), f32)
        v[:, :s1 - s0] = a[:, s0:s1] if b is None else a[:, s0:s1] * b[:, s0:s1]
        return v

    if n < width:
        v = part(0, n)
        if n <= lanes:
            r = v[:, 0]
            for i in range(1, n):
                r = r + v[:, i]
            return r
        acc = v[:, :lanes]
        acc[:, :n - lanes] += v[:, lanes:n]
        return _lanes_reduce(acc.T, f32)
    acc = part(0, width)
    for d in range(width, n, width):
        t = min(width, n - d)
        if b is None:
            acc[:, :t] = acc[:, :t] + a[:, d:d + t]
        else:
            acc[:, :t] = fma(a[:, d:d + t], b[:, d:d + t], acc[:, :t])
    return _lanes_reduce((acc[:, :lanes] + acc[:, lanes:]).T, f32)


def group_norm(x, weight, bias, groups, eps, stats=None):
    """``GroupNormKernelImpl`` on a float32/float64 (N, C, *) array, taken contiguous unless
    it is channels-last (:func:`_group_norm_channels_last`): (output, mean, rstd), the
    statistics shaped (N, groups) (``stats``: the rows' (mean, rstd) where given); rstd is
    rounded from double, the output is ``scale * x + shift`` fused, with
    ``shift = b - scale * mean`` fused."""
    if x.ndim in (4, 5) and _mf.suggest(x) is not _mf.contiguous_format:
        return _group_norm_channels_last(x, weight, bias, groups, eps)
    dt = x.dtype.type
    n, c = x.shape[:2]
    rows = np.ascontiguousarray(x).reshape(n * groups, -1)
    if stats is not None:
        mean, rstd = stats
    else:
        mean, var = rowwise_moments(rows)
        rstd = (1 / np.sqrt(np.maximum(var, dt(0)).astype(np.float64) + eps)).astype(dt)
    stats = mean.reshape(n, groups), rstd.reshape(n, groups)
    if weight is None and bias is None:
        return ((rows - mean[:, None]) * rstd[:, None]).reshape(x.shape), *stats
    d = c // groups
    g = np.ones(c, dt) if weight is None else weight
    b = np.zeros(c, dt) if bias is None else bias
    scale = rstd.reshape(n, groups, 1) * g.reshape(1, groups, d)          # (n, G, D)
    shift = fma(-scale, np.broadcast_to(mean.reshape(n, groups, 1), scale.shape),
                np.broadcast_to(b.reshape(1, groups, d), scale.shape))
    xr = x.reshape(n, groups, d, -1)
    y = fma(np.broadcast_to(scale[..., None], xr.shape), xr,
            np.broadcast_to(shift[..., None], xr.shape))
    return y.reshape(x.shape), *stats


def _gn_stats_reduced(x, groups, eps):
    """The float32 (mean, rstd) of each (n, group) of a float16/bfloat16 (N, C, *) array, as
    ``GroupNormKernelImplInternal``'s ``RowwiseMoments`` of the reduced type gives them."""
    n = x.shape[0]
    mean, var = rowwise_moments_reduced(
        np.ascontiguousarray(x).reshape(n * groups, -1).astype(np.float32),
        x.dtype == np.float16)
    rstd = (1 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(np.float32)
    return mean, rstd


def group_norm_reduced(x, weight, bias, groups, eps):
    """``GroupNormKernelImpl`` on a float16/bfloat16 array (the weight and bias of its type
    or float32): :func:`group_norm` computed in float, rounded once, the contiguous kernel's
    statistics those of the reduced type's ``RowwiseMoments``: (output, mean, rstd), the
    statistics in float32."""
    f32 = np.float32
    w, b = (None if v is None else v.astype(f32) for v in (weight, bias))
    if x.ndim in (4, 5) and _mf.suggest(x) is not _mf.contiguous_format:
        pdt = next((v.dtype for v in (weight, bias) if v is not None), x.dtype)
        y, mean, rstd = _group_norm_channels_last(x.astype(f32), w, b, groups, eps, pdt)
    else:
        stats = _gn_stats_reduced(x, groups, eps)
        y, mean, rstd = group_norm(np.ascontiguousarray(x).astype(f32), w, b, groups, eps,
                                   stats)
    return y.astype(x.dtype), mean, rstd


def _gn_internal_grads_reduced(dy, x):
    """``ComputeInternalGradients`` for the reduced types: per row of (M, HxW) float arrays,
    ``ds = Σ dy·x`` and ``db = Σ dy`` over vectors of the reduced type, each two float
    vectors (``ds`` fused, ``db`` adding both halves in turn), the lanes added in order,
    then the tail one by one."""
    f32 = np.float32
    lanes = _exact._LANES[np.dtype(f32)]
    width = 2 * lanes
    m, hw = dy.shape
    inner = hw - hw % width
    ds = np.zeros((m, lanes), f32)
    db = np.zeros((m, lanes), f32)
    for j in range(0, inner, width):
        for h in (j, j + lanes):
            ds = fma(dy[:, h:h + lanes], x[:, h:h + lanes], ds)
        db = (db + dy[:, j:j + lanes]) + dy[:, j + lanes:j + width]
    ds_val, db_val = seqsum(ds.T), seqsum(db.T)
    for j in range(inner, hw):
        ds_val = fma(dy[:, j], x[:, j], ds_val)
        db_val = db_val + dy[:, j]
    return ds_val, db_val


def group_norm_backward_reduced(grad, x, weight, groups, eps, output_mask, param_dtype):
    """``GroupNormBackwardKernelImpl`` for a C-contiguous float16/bfloat16 input
    (``param_dtype``: the weight's dtype, float32 for torch's mixed-type kernel): the
    gradients of the input, weight and bias that ``output_mask`` asks for, in float:
    ``ds``/``db`` by :func:`_gn_internal_grads_reduced`, the forward's mean and rstd rounded
    to ``param_dtype``, the per-group sums weighted by gamma in vectors of the parameter
    type, then the formulas of :func:`group_norm_backward`; each result rounded once."""
    f32 = np.float32
    if channels_last_backward(x):
        w = None if weight is None else weight.astype(f32)
        out = _group_norm_backward_channels_last(grad.astype(f32), x.astype(f32), w, groups,
                                                 eps, output_mask, param_dtype,
                                                 x.dtype == np.float16)
        return tuple(None if v is None else v.astype(param_dtype if i else x.dtype)
                     for i, v in enumerate(out))
    n, c = x.shape[:2]
    g, d = groups, c // groups
    hw = x.size // (n * c)
    dy = np.ascontiguousarray(grad).reshape(n * c, hw).astype(f32)
    xr = np.ascontiguousarray(x).reshape(n * c, hw).astype(f32)
    ds, db = (v.reshape(n, g, d) for v in _gn_internal_grads_reduced(dy, xr))
    gb = seqsum(db.reshape(n, c), np.zeros(c, f32)).astype(param_dtype) \
        if output_mask[2] else None
    if not (output_mask[0] or output_mask[1]):
        return None, None, gb
    mean, rstd = (v.astype(param_dtype).astype(f32).reshape(n, g, 1)
                  for v in _gn_stats_reduced(x, groups, eps))
    gw = None
    if output_mask[1]:
        t = fma(-db, np.broadcast_to(mean, db.shape), ds)
        gw = _fold_rows(t, rstd).reshape(c).astype(param_dtype)
    if not output_mask[0]:
        return None, gw, gb
    gam = np.broadcast_to((np.ones(c, f32) if weight is None else weight.astype(f32))
                          .reshape(1, g, d), ds.shape)
    lanes = _exact._LANES[np.dtype(f32)]
    k = lanes if np.dtype(param_dtype) == f32 else 2 * lanes
    # float16's loop converts each element first: the compiler fuses c2·x there
    dx = _gn_input_grad(dy, xr, ds, db, gam, mean, rstd, k, lanes, x.dtype == np.float16)
    return dx.reshape(x.shape).astype(x.dtype), gw, gb


def _gn_input_grad(dy, x, ds, db, gam, mean, rstd, k, lanes, fuse_x=False):
    """The end of ``GroupNormInputBackward`` on (N·C, HxW) rows ``dy`` and ``x``, with
    ``ds``/``db``/``gam`` (N, G, D) and ``mean``/``rstd`` (N, G, 1): per (n, g) the sums of
    ``ds·γ`` and ``db·γ`` in vectors of ``k`` (``lanes`` wide accumulators) and then the tail
    (:func:`_gamma_tail`), ``c2 = fma(db, mean, -ds)·rstd³·s``, ``c3 = -c2·mean -
    (db·rstd)·s`` (the second product fused) and ``dx = fma(rstd·γ, dy, c2·x) + c3``
    (``fuse_x``: ``fma(c2, x, rstd·γ·dy) + c3``), shaped (N, G, D, HxW)."""
    n, g, d = ds.shape
    hw = dy.shape[-1]
    dt = ds.dtype.type
    full = d - d % k
    acc_s = np.zeros((n, g, lanes), dt)
    acc_b = np.zeros((n, g, lanes), dt)
    for j in range(0, full, lanes):
        acc_s = fma(ds[..., j:j + lanes], gam[..., j:j + lanes], acc_s)
        acc_b = fma(db[..., j:j + lanes], gam[..., j:j + lanes], acc_b)
    ds_val = seqsum(np.moveaxis(acc_s, -1, 0), np.zeros((n, g), dt))
    db_val = seqsum(np.moveaxis(acc_b, -1, 0), np.zeros((n, g), dt))
    ds_val, db_val = _gamma_tail(ds, db, gam, full, ds_val, db_val, k, n * g)
    s = dt(1) / dt(d * hw)
    c2 = fma(db_val, mean, -ds_val) * rstd * rstd * rstd * s
    c3 = fma(-(db_val * rstd), np.broadcast_to(s, c2.shape), -c2 * mean)
    c1 = (rstd * gam).reshape(n, g, d, 1)
    xg = x.reshape(n, g, d, hw)
    dyg = dy.reshape(xg.shape)
    if fuse_x:
        y = fma(np.broadcast_to(c2[..., None], xg.shape), xg, c1 * dyg)
    else:
        y = fma(np.broadcast_to(c1, xg.shape), dyg, c2[..., None] * xg)
    return y + c3[..., None]


def _fma_squares(v):
    """``acc = fma(v[j], v[j], acc)`` for each j in turn, from +0. float32 adds each exact
    square (in double) to the float sum and rounds back; a step whose double sum lies
    halfway between two floats is redone with :func:`fma`."""
    if v.dtype != np.float32:
        return _fma_seq(v, np.zeros(v.shape[1:], v.dtype))
    sq = np.square(v, dtype=np.float64)
    acc = np.zeros(v.shape[1:], np.float32)
    s = np.empty(v.shape[1:])
    low, mid = _exact._LOW29, _exact._MID29
    for j in range(v.shape[0]):
        np.add(sq[j], acc, out=s)
        if ((s.view(np.int64) & low) == mid).any():
            acc = fma(v[j], v[j], acc)
        else:
            acc = s.astype(np.float32)
    return acc


def _group_norm_channels_last(x, weight, bias, groups, eps, reduced=None):
    """``GroupNormKernelImplChannelsLastInternal`` on a channels-last (N, C, *) array; the
    output is channels-last too.

    Below 1024 spatial elements, each (n, g) sums its ``D`` channels of every position in
    vectors (the last one zero-padded), ``acc += x`` and ``acc2 += x * x`` (the product
    rounded), then folds the lanes. From 1024 on, each thread adds its share of the
    positions (the input's rows) into per-sample rows of C, ``acc2 = fma(x, x, acc2)``; a
    group's sums then run over its channels, each over the threads. Both then take
    ``mean = sum * s`` and ``var = max(fma(sum2, s, -mean * mean), 0)``, ``s = 1/(D·HxW)``;
    ``y = fma(x, scale, shift)`` with ``shift = fma(-scale, mean, b)`` (unfused without a
    weight).

    ``reduced`` (the parameters' dtype): float16/bfloat16 data given as float32, whose
    ``ColumnwiseMoments`` takes vectors of the reduced type, each two float halves added
    (``x0 + x1``, ``x0² + x1²``) before the step; float16 parameters leave the shift
    unfused."""
    dt = x.dtype.type
    n, c = x.shape[:2]
    g = groups
    d = c // g
    hw = x.size // (n * c)
    perm = (0, *range(2, x.ndim), 1)
    r = x.transpose(perm).reshape(n, hw, c)
    s = dt(1) / dt(d * hw)
    if hw < 1024:
        k = _exact._LANES[x.dtype]
        width = k if reduced is None else 2 * k
        pad = -(-d // width) * width
        v = np.zeros((hw, pad // k, k, n, g), dt)       # (steps..., lanes, n, g)
        v.reshape(hw, pad, n, g)[:, :d] = r.reshape(n, hw, g, d).transpose(1, 3, 0, 2)
        if reduced is not None:
            v = v.reshape(hw, pad // width, 2, k, n, g)
            v0, v1 = v[:, :, 0].reshape(-1, k, n, g), v[:, :, 1].reshape(-1, k, n, g)
            total = _lanes_reduce(seqsum(v0 + v1), dt)
            total2 = _lanes_reduce(seqsum(v0 * v0 + v1 * v1), dt)
        else:
            v = v.reshape(-1, k, n, g)
            total = _lanes_reduce(seqsum(v), dt)
            total2 = _lanes_reduce(seqsum(v * v), dt)
    else:
        # each thread's rows per sample, zero-padded: an added +0 leaves the sums as they are
        buf = _thread_rows(r.reshape(n * hw, c), n, hw)
        threads = buf.shape[1]
        total = seqsum(buf)
        acc = _fma_squares(buf)
        # per (n, g): its channels in turn, each over the threads in turn
        order = (3, 0, 1, 2)
        total = seqsum(total.reshape(threads, n, g, d).transpose(order).reshape(-1, n, g))
        total2 = seqsum(acc.reshape(threads, n, g, d).transpose(order).reshape(-1, n, g))
    mean = total * s
    var = np.maximum(fma(total2, np.broadcast_to(s, total2.shape), -(mean * mean)), dt(0))
    rstd = (1 / np.sqrt(var.astype(np.float64) + eps)).astype(dt)
    gam = np.ones(c, dt) if weight is None else weight
    bet = np.zeros(c, dt) if bias is None else bias
    scale = rstd[:, :, None] * gam.reshape(1, g, d)
    if weight is None or reduced == np.float16:   # the compiler leaves these unfused
        shift = bet.reshape(1, g, d) - scale * mean[:, :, None]
    else:
        shift = fma(-scale, np.broadcast_to(mean[:, :, None], scale.shape),
                    np.broadcast_to(bet.reshape(1, g, d), scale.shape))
    y = fma(r, np.broadcast_to(scale.reshape(n, 1, c), r.shape),
            np.broadcast_to(shift.reshape(n, 1, c), r.shape))
    y = y.reshape((n, *x.shape[2:], c)).transpose(np.argsort(perm))
    return y, mean, rstd


def group_norm_backward(grad, x, weight, groups, eps, output_mask):
    """``GroupNormBackwardKernelImpl`` for a C-contiguous float32/float64 (N, C, *) input:
    the gradients of the input, weight and bias that ``output_mask`` asks for (None for
    the others).

    ``ds``/``db`` per (n, c) are vector reductions over the spatial elements (float32's
    products rounded, float64's last partial vector fused); per (n, g) they are weighted by
    gamma in vectors of ``K`` and then one by one (fused; where ``parallel_for`` runs inline,
    a first ``K / 2`` of these as rounded products added in turn), giving
    ``c2 = fma(db, mean, -ds)·rstd³·s`` and ``c3 = -c2·mean - (db·rstd)·s`` (the second
    product fused); ``dx = fma(rstd·γ, dy, c2·x) + c3``. ``dγ`` adds
    ``fma(-db, mean, ds)·rstd`` (fused) over n, ``dβ`` adds db over n."""
    if channels_last_backward(x):
        return _group_norm_backward_channels_last(grad, x, weight, groups, eps, output_mask)
    dt = x.dtype.type
    n, c = x.shape[:2]
    g, d = groups, c // groups
    hw = x.size // (n * c)
    k = _exact._LANES[x.dtype]
    dy = np.ascontiguousarray(grad).reshape(n * c, hw)
    rows = x.reshape(n * c, hw)
    ds = vec_sum_rows(None, (dy, rows), k, dt == np.float64).reshape(n, g, d)
    db = vec_sum_rows(dy, lanes=k).reshape(n, g, d)
    gb = seqsum(db.reshape(n, c), np.zeros(c, dt)) if output_mask[2] else None
    if not (output_mask[0] or output_mask[1]):
        return None, None, gb
    mean, var = rowwise_moments(x.reshape(n * g, -1))
    rstd = (1 / np.sqrt(np.maximum(var, dt(0)).astype(np.float64) + eps)).astype(dt)
    mean, rstd = mean.reshape(n, g, 1), rstd.reshape(n, g, 1)
    gw = None
    if output_mask[1]:
        t = fma(-db, np.broadcast_to(mean, db.shape), ds)
        gw = _fold_rows(t, rstd).reshape(c)
    if not output_mask[0]:
        return None, gw, gb
    gam = np.broadcast_to((np.ones(c, dt) if weight is None else weight).reshape(1, g, d),
                          ds.shape)
    return _gn_input_grad(dy, rows, ds, db, gam, mean, rstd, k, k).reshape(x.shape), gw, gb


def _gamma_tail(ds, db, gam, full, ds_val, db_val, k, tasks):
    """``GroupNormInputBackward``'s tail past the ``full`` channels of its ``k``-lane
    vectors: ``ds_val += ds·γ`` (``db_val`` likewise) one by one, fused; parallel_for's
    inlined copy (over ``tasks``) runs its first half vector (if the tail fills one) as
    rounded products added in turn. Returns both, shaped (..., 1)."""
    d = ds.shape[-1]
    half = k // 2
    rounded = full + ((d - full) // half * half if _exact.runs_inline(tasks) else 0)
    for j in range(full, d):
        if j < rounded:
            ds_val = ds_val + ds[..., j] * gam[..., j]
            db_val = db_val + db[..., j] * gam[..., j]
        else:
            ds_val = fma(ds[..., j], gam[..., j], ds_val)
            db_val = fma(db[..., j], gam[..., j], db_val)
    return ds_val[..., None], db_val[..., None]


def channels_last_backward(x):
    """Whether torch's group norm backward takes its channels-last kernel on ``x``."""
    return x.ndim in (4, 5) and _mf.suggest(x) is not _mf.contiguous_format


def _thread_rows(r, n, hw):
    """The (n·hw, C) rows ``r`` as each thread's share of them per sample, zero-padded:
    (position in the thread's run of one sample, thread, n, C)."""
    threads = _exact.get_num_threads()
    rows = n * hw
    ch = -(-rows // threads)
    buf = np.zeros((min(ch, hw), threads, n, r.shape[1]), r.dtype)
    idx = np.arange(rows)
    t, i_n = idx // ch, idx // hw
    buf[idx - np.maximum(t * ch, i_n * hw), t, i_n] = r
    return buf


def _group_norm_backward_channels_last(grad, x, weight, groups, eps, output_mask,
                                       param_dtype=None, half=False):
    """``GroupNormBackwardKernelImplChannelsLastInternal`` (``param_dtype``: float16/bfloat16
    data given as float32, the parameters' dtype; its mean and rstd are read back in that
    type and below 2048 positions :func:`_cl_internal_grads_reduced` sums).

    Below 2048 spatial elements, per (n, g), ``CalcInternalGradientsChannelsLast`` sums
    ``x * dy`` (rounded) and ``dy`` over the positions in vectors of the group's channels
    (the last one zero-padded), storing ``ds``/``db`` per channel, and adds each vector's
    lanes of ``acc * gamma`` to ``ds_gamma``/``db_gamma``. From 2048 on, each thread adds
    its share of the positions into rows of C (``ds = fma(x, dy, ds)``), and a group's
    ``ds_gamma``/``db_gamma`` add ``buf * gamma`` (rounded) over its channels, each over the
    threads, ``ds``/``db`` the threads' sums. Then ``c2 = fma(db_gamma, mean,
    -ds_gamma)·rstd³·s``, ``c3 = fma(-c2, mean, -(db_gamma·rstd·s))`` and
    ``dx = fma(c2, x, c1·dy) + c3`` with ``c1 = rstd·γ``, channels-last. ``dγ``/``dβ`` fold
    ``ds``/``db`` as the contiguous kernel does. ``half`` (float16 data): the products with
    float32 gamma past the vectors below 2048 positions, and with float16 gamma from 2048
    on, are fused into their sums, as those instances compile."""
    dt = x.dtype.type
    n, c = x.shape[:2]
    g, d = groups, c // groups
    hw = x.size // (n * c)
    perm = (0, *range(2, x.ndim), 1)
    xr = x.transpose(perm).reshape(n, hw, g, d)
    dyr = np.asarray(grad).transpose(perm).reshape(n, hw, g, d)
    gam = (np.ones(c, dt) if weight is None else weight).reshape(g, d)
    sums = None
    if hw < 2048 and param_dtype is not None:
        ds, db, *sums = _cl_internal_grads_reduced(xr, dyr, gam,
                                                   half and param_dtype == np.float32)
    elif hw < 2048:
        ds = seqsum(np.moveaxis(xr * dyr, 1, 0))                # (n, g, d)
        db = seqsum(np.moveaxis(dyr, 1, 0))
    else:
        bx = _thread_rows(xr.reshape(n * hw, c), n, hw)
        by = _thread_rows(dyr.reshape(n * hw, c), n, hw)
        acc = np.zeros(bx.shape[1:], dt)
        for j in range(bx.shape[0]):
            acc = fma(bx[j], by[j], acc)
        threads = acc.shape[0]
        accb = seqsum(by)
        ds = seqsum(acc).reshape(n, g, d)
        db = seqsum(accb).reshape(n, g, d)
        # per (n, g): its channels in turn, each over the threads in turn
        order = (3, 0, 1, 2)
        gt = np.broadcast_to(gam.T[:, None, None, :], (d, threads, n, g)).reshape(-1, n, g)
        terms = [v.reshape(threads, n, g, d).transpose(order).reshape(-1, n, g)
                 for v in (acc, accb)]
        if param_dtype == np.float16:
            sums = tuple(_fma_seq(t, np.zeros((n, g), dt), gt) for t in terms)
        else:
            sums = tuple(seqsum(t * gt) for t in terms)
    gb = seqsum(db.reshape(n, c), np.zeros(c, dt)) if output_mask[2] else None
    if not (output_mask[0] or output_mask[1]):
        return None, None, gb
    _, mean, rstd = _group_norm_channels_last(x, weight, None, groups, eps, param_dtype)
    if param_dtype is not None:
        mean, rstd = (v.astype(param_dtype).astype(dt) for v in (mean, rstd))
    gw = None
    if output_mask[1]:
        t = fma(-db, np.broadcast_to(mean[:, :, None], db.shape), ds)
        gw = _fold_rows(t, rstd[:, :, None]).reshape(c)
    if not output_mask[0]:
        return None, gw, gb
    if sums is not None:
        dsg, dbg = sums
    else:
        k = _exact._LANES[x.dtype]
        pad = -(-d // k) * k
        gp = np.zeros((g, pad), dt)
        gp[:, :d] = gam
        dsg = np.zeros((n, g), dt)
        dbg = np.zeros((n, g), dt)
        for src, tot in ((ds, dsg), (db, dbg)):
            sp = np.zeros((n, g, pad), dt)
            sp[..., :d] = src
            for j in range(0, pad, k):
                tot += _lanes_reduce(np.moveaxis(sp[..., j:j + k] * gp[:, j:j + k], -1, 0), dt)
    s = dt(1) / dt(d * hw)
    c2 = fma(dbg, mean, -dsg) * rstd * rstd * rstd * s
    c3 = fma(-c2, mean, -(dbg * rstd * s))
    shape = xr.shape
    c1 = np.broadcast_to((rstd[:, :, None] * gam)[:, None], shape)
    y = fma(np.broadcast_to(c2[:, None, :, None], shape), xr, c1 * dyr)
    y = y + c3[:, None, :, None]
    return y.reshape((n, *x.shape[2:], c)).transpose(np.argsort(perm)), gw, gb


def _cl_internal_grads_reduced(xr, dyr, gam, fused=False):
    """``CalcInternalGradientsChannelsLast`` for the reduced types on (N, HxW, G, D) float
    arrays: (ds, db, ds_gamma, db_gamma). The channels in vectors of the reduced type sum
    ``x * dy`` (rounded) and ``dy`` over the positions, and add each float half's lanes of
    ``acc * gamma`` to ``ds_gamma``/``db_gamma``; the channels past them run one by one,
    fused, their products with gamma fused into those sums too where ``fused``."""
    f32 = np.float32
    lanes = _exact._LANES[np.dtype(f32)]
    n, hw, g, d = xr.shape
    full = d - d % (2 * lanes)
    ds = np.empty((n, g, d), f32)
    db = np.empty((n, g, d), f32)
    ds[..., :full] = seqsum(np.moveaxis(xr[..., :full] * dyr[..., :full], 1, 0))
    db[..., :full] = seqsum(np.moveaxis(dyr[..., :full], 1, 0))
    dsg = np.zeros((n, g), f32)
    dbg = np.zeros((n, g), f32)
    for j in range(0, full, lanes):
        gj = gam[:, j:j + lanes]
        dsg = dsg + _lanes_reduce(np.moveaxis(ds[..., j:j + lanes] * gj, -1, 0), f32)
        dbg = dbg + _lanes_reduce(np.moveaxis(db[..., j:j + lanes] * gj, -1, 0), f32)
    for j in range(full, d):
        a0 = np.zeros((n, g), f32)
        a1 = np.zeros((n, g), f32)
        for m in range(hw):
            a0 = fma(xr[:, m, :, j], dyr[:, m, :, j], a0)
            a1 = a1 + dyr[:, m, :, j]
        ds[..., j], db[..., j] = a0, a1
        gj = np.broadcast_to(gam[:, j], a0.shape)
        if fused:
            dsg, dbg = fma(a0, gj, dsg), fma(a1, gj, dbg)
        else:
            dsg, dbg = dsg + a0 * gj, dbg + a1 * gj
    return ds, db, dsg, dbg


def _fold_rows(t, rstd):
    """``GammaBackward``: ``acc = fma(t[n], rstd[n], acc)`` over the samples n in turn."""
    acc = np.zeros(t.shape[1:], t.dtype)
    for i in range(t.shape[0]):
        acc = fma(t[i], np.broadcast_to(rstd[i], t[i].shape), acc)
    return acc


# ----------------------------------------------------------------------------- weight norm

def _per_thread_rows(rows, fn, dt):
    """The vertical reduction of ``WeightNormKernel.cpp`` and of the layer norm backward's
    ``dγ``/``dβ`` over the rows of a (M, N) array: each thread folds its share of the rows
    into a vector (``acc = fn(acc, i)`` row by row), and
    the threads' vectors are added in thread order."""
    m, n = rows.shape
    threads = _exact.get_num_threads()
    buf = np.zeros((threads, n), dt)
    ch = -(-m // threads) if m else 1
    for t, b in enumerate(range(0, m, ch)):
        acc = buf[t]
        for i in range(b, min(b + ch, m)):
            acc = fn(acc, i)
        buf[t] = acc
    total = np.zeros(n, dt)
    for t in range(threads):
        total = total + buf[t]
    return total


def weight_norm_norms(v, dim):
    """The norms of ``_weight_norm_interface`` over every dim of ``v`` but ``dim`` (0 or the
    last), as torch's CPU kernel sums them: a vector reduction of ``x * x`` along each row for
    dim 0, a fused ``acc + x * x`` down the rows per thread for the last dim."""
    dt = v.dtype.type
    if dim == 0:
        rows = np.ascontiguousarray(v).reshape(v.shape[0], -1)
        return np.sqrt(vec_sum_rows(rows * rows))
    rows = np.ascontiguousarray(v).reshape(-1, v.shape[-1])
    return np.sqrt(_per_thread_rows(rows, lambda acc, i: fma(rows[i], rows[i], acc), dt))


def weight_norm_backward(grad, v, g, norm, dim):
    """``_weight_norm_interface_backward``: (grad_v, grad_g) with ``s = Σ grad·v`` over each
    slice (reduced as the forward's norms are, the products fused on the last dim),
    ``grad_g = s / norm`` and ``grad_v = a·grad − b·v``, ``a = g / norm``, ``b = a·grad_g /
    norm``, the second product fused into the difference."""
    dt = v.dtype.type
    if dim == 0:
        rows = np.ascontiguousarray(v).reshape(v.shape[0], -1)
        grows = np.ascontiguousarray(grad).reshape(rows.shape)
        s = vec_sum_rows(grows * rows)
        shape = (-1, 1)
    else:
        rows = np.ascontiguousarray(v).reshape(-1, v.shape[-1])
        grows = np.ascontiguousarray(grad).reshape(rows.shape)
        s = _per_thread_rows(rows, lambda acc, i: fma(grows[i], rows[i], acc), dt)
        shape = (1, -1)
    norm = norm.reshape(-1)
    grad_g = s / norm
    a = g.reshape(-1) / norm
    b = a * grad_g / norm
    a, b = (np.broadcast_to(x.reshape(shape), rows.shape) for x in (a, b))
    grad_v = fma(-b, rows, a * grows)
    return grad_v.reshape(v.shape), grad_g


# ----------------------------------------------------------------------------- reduced batch norm

def _plane_sums(v, u=None, fuse_tail=True):
    """Per channel of (N, C, HxW) float arrays, the sum of ``v`` (of ``v * u`` when given,
    each product fused into the vector sum, and into the tail's with ``fuse_tail``) as the
    reduced types' contiguous batch norm kernels take it: one float vector sums both float
    halves of each reduced-type vector of every sample's plane in turn, the tails go one by
    one into a scalar, and the vector's lanes, added one after another (``vec_reduce_all``
    with a size), join that scalar last."""
    f32 = np.float32
    lanes = _exact._LANES[np.dtype(f32)]
    n_b, c, hw = v.shape
    full = hw - hw % (2 * lanes)
    acc = np.zeros((c, lanes), f32)
    tail = np.zeros(c, f32)
    for b in range(n_b):
        for j in range(0, full, lanes):
            acc = acc + v[b, :, j:j + lanes] if u is None else \
                fma(v[b, :, j:j + lanes], u[b, :, j:j + lanes], acc)
        for j in range(full, hw):
            if u is None:
                tail = tail + v[b, :, j]
            elif fuse_tail:
                tail = fma(v[b, :, j], u[b, :, j], tail)
            else:
                tail = tail + v[b, :, j] * u[b, :, j]
    return tail + seqsum(acc.T)


def _bn_stats_reduced_contiguous(x):
    """``batch_norm_cpu_collect_stats_contiguous_internal`` on a C-contiguous float16/bfloat16
    array: :func:`_plane_sums` of the values, then of the squared deviations from the
    float mean (unfused). (mean, var_sum) float32."""
    n_b, c = x.shape[:2]
    xs = np.ascontiguousarray(x).reshape(n_b, c, -1).astype(np.float32)
    mean = _plane_sums(xs) / np.float32(xs.size // c)
    d = xs - mean[None, :, None]
    return mean, _plane_sums(d * d)


def _bn_stats_reduced_rows(r, param=None):
    """``batch_norm_cpu_collect_stats_channels_last_internal`` on (rows, C) float values of
    a float16/bfloat16 array: with more rows than threads each thread sums its share of
    the rows into its own float row and the threads' rows are added in float; otherwise
    one sum over the rows. The squared deviations likewise, each fused into its sum.
    (mean, var_sum) float32."""
    f32 = np.float32
    n, c = r.shape
    threads = _exact.get_num_threads()
    ch = -(-n // threads) if n > threads else n
    parts = range(0, n, ch)
    mean = np.zeros(c, f32)
    for b in parts:
        mean += seqsum(r[b:b + ch], np.zeros(c, f32))
    mean /= f32(n)
    if param is not None:       # the deviations from the mean as stored
        mean = mean.astype(param).astype(f32)
    d = r - mean
    vs = np.zeros(c, f32)
    for b in parts:
        vs += _fma_seq(d[b:b + ch], np.zeros(c, f32))
    return mean, vs


def batch_norm_stats_reduced(x, running_mean, running_var, momentum, eps, param=np.float32):
    """``batch_norm_cpu_update_stats_template`` for a contiguous or channels-last
    float16/bfloat16 ``x`` with parameters of dtype ``param`` (float32, or x's own):
    (mean, invstd) of that dtype (invstd through double, as ``InvStd`` adds the double
    eps), the running stats updated in place. float16 parameters take the float32 ones'
    float statistics and updates, stored rounded; with bfloat16 parameters the statistics
    are stored rounded and the updates follow c10's reduced-type arithmetic, each operation
    rounding."""
    f32 = np.float32
    n = x.size // x.shape[1]
    rows = _rows(x)
    # float16 parameters: float statistics and updates, as the mixed kernel's, stored rounded
    mixed = np.dtype(param) in (np.float32, np.float16)
    if rows is None:
        mean, vs = _bn_stats_reduced_contiguous(x)
    else:
        mean, vs = _bn_stats_reduced_rows(rows.astype(f32), None if mixed else param)
    if mixed:
        var = vs / f32(n)
    else:
        p = np.dtype(param).type
        mean, vs = mean.astype(p), vs.astype(p)
        var = (vs.astype(f32) / f32(p(n))).astype(p).astype(f32)
    invstd = _invstd(var.astype(np.float64), eps).astype(f32).astype(param)
    if mixed:
        m = f32(momentum)
        om = f32(1) - m
        if running_mean is not None:
            running_mean[...] = m * mean + om * running_mean.astype(f32)
        if running_var is not None:
            running_var[...] = m * (vs / f32(n - 1)) + om * running_var.astype(f32)
        return mean.astype(param), invstd
    m = p(momentum)
    mf = m.astype(f32)
    om = (f32(1) - mf).astype(p).astype(f32)
    if running_mean is not None:
        rm = running_mean.astype(f32)
        running_mean[...] = ((mf * mean.astype(f32)).astype(p).astype(f32)
                             + (om * rm).astype(p).astype(f32)).astype(p)
    if running_var is not None:
        unbiased = (vs.astype(f32) / f32(p(n - 1))).astype(p).astype(f32)
        rv = running_var.astype(f32)
        running_var[...] = (mf * unbiased + (om * rv).astype(p).astype(f32)).astype(p)
    return mean, invstd


def batch_norm_apply_reduced(x, weight, bias, mean, invstd):
    """``batch_norm_cpu_contiguous_impl`` for float16/bfloat16: ``alpha = invstd * w`` and
    ``beta = b - mean * alpha`` in float (fused for a float32 mean), the output
    ``x * alpha + beta`` fused and rounded once to x's dtype."""
    f32 = np.float32
    c = x.shape[1]
    shp = (1, c) + (1,) * (x.ndim - 2)
    w = np.ones(c, f32) if weight is None else weight.astype(f32)
    b = np.zeros(c, f32) if bias is None else bias.astype(f32)
    alpha = invstd.astype(f32) * w
    if mean.dtype == f32:
        beta = fma(-mean, alpha, b)
    else:       # c10's reduced-type ``mean * alpha`` is its own rounded product
        beta = b - mean.astype(f32) * alpha
    xf = x.astype(f32)
    y = fma(xf, np.broadcast_to(alpha.reshape(shp), x.shape),
            np.broadcast_to(beta.reshape(shp), x.shape))
    return y.astype(x.dtype)


def batch_norm_backward_reduced_generic(grad, x, weight, mean, invstd, train, param):
    """``batch_norm_backward_cpu_template``'s accessor path, which torch takes for a
    float16/bfloat16 input and gradient of different layouts: c10's reduced-type
    arithmetic, each operation between two values of the type (``param`` the parameters'
    dtype: that type, or float32 for the mixed kernel, whose products stay in float) rounded
    to it. The bias gradient is ``at::sum`` of the gradient (rounded for bfloat16, float for
    float16); the dot product a serial float sum in TensorIterator's order;
    ``k = dotp·invstd²/N`` and ``sum/N`` rounded to the type. (grad_input, grad_weight,
    grad_bias) as float32 values of their dtypes."""
    f32 = np.float32
    rdt = x.dtype
    same = np.dtype(param) != f32

    def r(v):
        return v.astype(rdt).astype(f32)

    p = r if same else (lambda v: v)
    c = x.shape[1]
    n = x.size // c
    shp = (1, c) + (1,) * (x.ndim - 2)
    xf, gf = x.astype(f32), grad.astype(f32)
    w = np.ones(c, f32) if weight is None else weight.astype(f32)
    mean, invstd = mean.astype(f32), p(invstd.astype(f32))
    s = _exact.cascade_sum(gf, (0,) + tuple(range(2, x.ndim)), False)
    if rdt != np.float16:       # float16's gradient sum reaches the kernel unrounded
        s = r(s)
    xs = _iter_seq(xf)
    gs = np.transpose(np.broadcast_to(gf, x.shape), _iter_order(x)).reshape(-1, c)
    dotp = seqsum(p(p(xs - mean) * gs), np.zeros(c, f32))
    nr = r(np.full(c, n, f32))                  # the int64 count as the type's divisor
    if train:
        k = r(p(p(r(dotp) * invstd) * invstd) / (nr if same else f32(n)))
        gi = r(p(xf - mean.reshape(shp)) * k.reshape(shp))
        gi = r(r(gf - r(s / nr).reshape(shp)) - gi)
    else:
        gi = gf
    gi = r(p(p(gi * invstd.reshape(shp)) * w.reshape(shp)))
    gi = _mf.follow(np.ascontiguousarray(gi).astype(rdt), x)
    return gi, p(dotp * invstd), s


def batch_norm_backward_reduced(grad, x, weight, mean, invstd, train=True):
    """``batch_norm_cpu_backward_contiguous_internal`` for C-contiguous float16/bfloat16
    ``grad`` and ``x`` with ``weight``/``mean``/``invstd`` of float32 or x's dtype (taken
    in float): per channel the sum of
    ``dy`` and of ``(x - mean) * dy`` (fused; bfloat16's tail not) by :func:`_plane_sums`, then
    ``dx = (dy - sum / N - (x - mean) * k) * invstd * w`` in float (``dy * invstd * w`` in
    evaluation mode) rounded once. (grad_input, grad_weight and grad_bias in float32, which
    the engine rounds to the parameters' dtype)."""
    f32 = np.float32
    n_b, c = x.shape[:2]
    shape = (n_b, c, x.size // (n_b * c))
    xs = x.reshape(shape).astype(f32)
    dy = grad.reshape(shape).astype(f32)
    n = x.size // c
    w = np.ones(c, f32) if weight is None else weight.astype(f32)
    xc = xs - mean[None, :, None]
    # float16's scalar tail converts each element first: the compiler fuses its product
    s = _plane_sums(dy)
    dotp = _plane_sums(xc, dy, x.dtype == np.float16)
    if train:
        k = (dotp * invstd * invstd / f32(n))[None, :, None]
        gm = (s / f32(n))[None, :, None]
        gi = ((dy - gm) - xc * k) * invstd[None, :, None] * w[None, :, None]
    else:
        gi = dy * invstd[None, :, None] * w[None, :, None]
    return gi.astype(x.dtype).reshape(x.shape), dotp * invstd, s
