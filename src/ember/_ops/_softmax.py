"""torch's CPU softmax and log_softmax (float32 and float64), bit for bit
(``SoftMaxKernel.cpp``, ``LogSoftmaxKernelImpl.h``).

Over the last dim each row takes its max, Sleef's ``exp`` of the differences and their
vectorised sum (``vec::reduce_all``); softmax multiplies by the sum's reciprocal, log_softmax
subtracts the max and Sleef's ``log`` of the sum. Over another dim softmax
(``_vec_softmax``) runs one vector of inner positions (8 floats, 4 doubles; 16 and 8 on
AVX512) at a time: the max and a sum added in turn along the dim, then a division;
positions that do not fill a vector (the end of an inner row or of a thread's share) run
the same steps with glibc's ``exp``. log_softmax over another dim (``_vec_logsoftmax``)
cuts each inner row into chunks of about 128 KiB of the dim and runs each chunk's full
vectors with Sleef's ``exp`` and the rest of the chunk with glibc's, then Sleef's ``log``
of every sum. The backward kernels
(``_vec_host_softmax_backward_lastdim``, ``_vec_softmax_backward``,
``_vec_log_softmax_backward``) follow the same layouts.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _cpu
from . import _exact, _norms, _sleef, _sleef_d

# (vector exp, one-by-one exp, vector log, lanes) per dtype: torch also builds these kernels
# for AVX512, where a vector holds 16 floats or 8 doubles
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_MATH = {_F32: (_sleef.expf, _sleef.expf_scalar, _sleef.logf, _cpu.avx512_lanes(_F32)),
         _F64: (_sleef_d.expd, _sleef_d.exp_scalar, _sleef_d.logd, _cpu.avx512_lanes(_F64))}


def _lastdim(x):
    """``_vec_softmax_lastdim`` on a C-contiguous (rows, n) array (computed on its columns,
    see :func:`_log_lastdim`)."""
    exp, _, _, lanes = _MATH[x.dtype]
    with np.errstate(invalid="ignore", over="ignore"):
        if x.shape[1] >= _LONG_ROWS:    # only the sum needs the columns
            e = exp(x - np.maximum.reduce(x, axis=1, keepdims=True))
            s = _norms.vec_sum_columns(np.ascontiguousarray(e.T), lanes=lanes)
            e *= (x.dtype.type(1) / s)[:, None]
            return e
        c = np.ascontiguousarray(x.T)
        e = exp(c - np.maximum.reduce(c, axis=0))
        e *= x.dtype.type(1) / _norms.vec_sum_columns(e, lanes=lanes)
        return np.ascontiguousarray(e.T)


# rows at least this long are processed as rows (NumPy's steps on them are long enough)
_LONG_ROWS = 64


def _parallel_chunk(total, grain):
    """The share of ``[0, total)`` each thread of ``at::parallel_for`` takes."""
    return -(-total // _exact.parallel_threads(total, grain))


def _scalar_positions(outer, inner, lanes):
    """Which flat (outer × inner) positions ``_vec_softmax`` computes one by one: the
    positions are shared between the threads (every position is worth a thread's start
    here), and each thread's share runs in vectors along each inner row, the rest of a row
    (or of the share) one by one."""
    total = outer * inner
    chunk = _parallel_chunk(total, 1)
    idx = np.arange(total)
    b = idx // chunk * chunk
    e = np.minimum(b + chunk, total)
    row = idx // inner * inner
    s = np.maximum(row, b)
    end = np.minimum(row + inner, e)
    return (idx - s) >= (end - s) // lanes * lanes


def _inner(x):
    """``_vec_softmax`` on a C-contiguous (outer, dim, inner) array."""
    outer, dim, inner = x.shape
    exp, exp1, _, lanes = _MATH[x.dtype]
    with np.errstate(invalid="ignore", over="ignore"):
        d = x - x.max(axis=1, keepdims=True)
        e = exp(d)
        scalar = _scalar_positions(outer, inner, lanes).reshape(outer, inner)
        if scalar.any():
            sel = np.broadcast_to(scalar[:, None, :], d.shape)
            e[sel] = exp1(d[sel])
        s = _exact.seqsum(np.moveaxis(e, 1, 0), np.zeros((outer, inner), x.dtype))
        return e / s[:, None, :]


def _split(x, dim):
    shape = x.shape
    return math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1:])


def softmax(x, dim):
    """torch's CPU softmax of a float32/float64 array along ``dim`` (taken contiguous)."""
    x = np.ascontiguousarray(x)
    if x.size == 0:
        return x.copy()
    outer, n, inner = _split(x, dim)
    if dim == x.ndim - 1:
        return _lastdim(x.reshape(outer, n)).reshape(x.shape)
    return _inner(x.reshape(outer, n, inner)).reshape(x.shape)


def _log_lastdim(x):
    """``serial_vec_log_softmax_lastdim_range`` on a C-contiguous (rows, n) array, computed
    on its columns (an (n, rows) copy): each row's max, sum and difference are then
    operations on contiguous blocks, several times faster than on strided rows when the
    rows are short."""
    exp, _, log, lanes = _MATH[x.dtype]
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if x.shape[1] >= _LONG_ROWS:    # only the sum needs the columns
            d = x - _nan_max(np.maximum.reduce(x, axis=1, keepdims=True))
            s = _norms.vec_sum_columns(np.ascontiguousarray(exp(d).T), lanes=lanes)
            d -= _nan_log(log, s)[:, None]
            return d
        c = np.ascontiguousarray(x.T)
        d = c - _nan_max(np.maximum.reduce(c, axis=0))
        d -= _nan_log(log, _norms.vec_sum_columns(exp(d), lanes=lanes))
        return np.ascontiguousarray(d.T)


def _nan_max(m):
    """A row's max as ``vec::maximum`` gives it: all bits set where the row has a NaN (the
    comparison's mask OR'ed in); each difference from it then carries those bits, or the
    element's own NaN (x86 keeps the first operand's)."""
    nan = np.isnan(m)
    if nan.any():
        m = np.where(nan, np.array(-1, _INT[m.dtype]).view(m.dtype), m)
    return m


def _nan_log(log, s):
    """The log of the row sums, a NaN sum keeping its bits (as the kernel's does)."""
    out = log(s)
    nan = np.isnan(s)
    if nan.any():
        out = np.where(nan, s, out)
    return out


_INT = {_F32: np.int32, _F64: np.int64}


def _log_scalar_inner(inner, dim, itemsize, lanes):
    """Which inner positions ``serial_vec_logsoftmax_range`` runs one by one: the inner
    row is cut into chunks of ``128 KiB / (dim · itemsize)`` (whole vectors, at most the
    row), and the end of each chunk that does not fill a vector is scalar."""
    ch = max((128 * 1024) // dim // itemsize, lanes) // lanes * lanes
    ch = min(ch, inner)
    j = np.arange(inner)
    start = j // ch * ch
    size = np.minimum(ch, inner - start)
    return (j - start) >= size - size % lanes


def _log_inner(x, rd=None):
    """``serial_vec_logsoftmax_range`` on a C-contiguous (outer, dim, inner) array (float32
    holding a reduced type ``rd``: its chunks and vectors are those of the type, the result
    rounded to it)."""
    outer, dim, inner = x.shape
    exp, exp1, log, lanes = _MATH[x.dtype]
    itemsize = x.itemsize
    if rd is not None:
        lanes, itemsize = _reduced_lanes(rd)[0], rd.itemsize
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        m = x.max(axis=1, keepdims=True)
        d = x - m
        e = exp(d)
        scalar = _log_scalar_inner(inner, dim, itemsize, lanes)
        if scalar.any():
            e[:, :, scalar] = exp1(d[:, :, scalar])
        s = _exact.seqsum(np.moveaxis(e, 1, 0), np.zeros((outer, inner), x.dtype))
        out = d - log(s)[:, None, :]
        return out if rd is None else out.astype(rd)


def log_softmax(x, dim):
    """torch's CPU log_softmax of a float32/float64 array along ``dim`` (taken contiguous)."""
    x = np.ascontiguousarray(x)
    if x.size == 0:
        return x.copy()
    outer, n, inner = _split(x, dim)
    if dim == x.ndim - 1:
        return _log_lastdim(x.reshape(outer, n)).reshape(x.shape)
    return _log_inner(x.reshape(outer, n, inner)).reshape(x.shape)


# ----------------------------------------------------------------------------- backward
# (the compiler fuses the products of these loops into their sums, except in the last
# dim's dot product)

def _rows3(a, dim):
    a = np.ascontiguousarray(a)
    return a, a.reshape(_split(a, dim))


def _row_sums(e, rd):
    """``vec::reduce_all`` of each row of the (rows, n) array ``e``; for a reduced type
    ``rd`` (``e`` float32), its ``vec::map_reduce_all`` over vectors of the type."""
    if rd is None:
        return _norms.vec_sum_rows(e, lanes=_MATH[e.dtype][3])
    return _map_sum_reduced(np.ascontiguousarray(e.T), rd)


def softmax_backward(grad, out, dim, rd=None):
    """``softmax_backward_cpu``: ``(grad - sum(grad * out)) * out`` along ``dim``. For a
    reduced type ``rd`` (float16 arrays; bfloat16 ones come as float32) torch computes in
    float32, with the vectors of the type, and rounds the result once."""
    if rd is not None:
        grad, out = grad.astype(_F32), out.astype(_F32)
    out, o = _rows3(out, dim)
    grad, g = _rows3(grad, dim)
    if out.size == 0:
        res = out.copy()
    elif dim == out.ndim - 1:
        g, o = g[:, :, 0], o[:, :, 0]
        inline = _exact.runs_inline(o.shape[0])
        if rd is None and o.dtype == _F32 and inline:
            # parallel_for runs the rows inline, where the compiler fuses the float products
            # of map2_reduce_all's last partial vector into the sum (its OpenMP-outlined
            # copy of the loop does not)
            sums = _norms.vec_sum_rows(None, fused=(g, o), lanes=_MATH[o.dtype][3])
        else:
            sums = _row_sums(g * o, rd)
        res = (g - sums[:, None]) * o
    else:
        acc = np.zeros((o.shape[0], o.shape[2]), out.dtype)
        for d in range(o.shape[1]):
            acc = _exact.fma(g[:, d], o[:, d], acc)
        res = o * (g - acc[:, None, :])
    res = res.reshape(out.shape)
    return res if rd is None else res.astype(rd)


def log_softmax_backward(grad, out, dim, rd=None):
    """``log_softmax_backward_cpu``: ``grad - exp(out) * sum(grad)`` along ``dim``, Sleef's
    exp in the vectors (glibc's on the ends of the inner chunks that do not fill one); a
    reduced type ``rd`` as in :func:`softmax_backward`."""
    if rd is not None:
        grad, out = grad.astype(_F32), out.astype(_F32)
    res = _log_softmax_backward(grad, out, dim, rd)
    return res if rd is None else res.astype(rd)


def _log_softmax_backward(grad, out, dim, rd):
    if dim == out.ndim - 1 and out.size and out.flags.c_contiguous \
            and grad.flags.c_contiguous and out.dtype in _MATH:
        # the last dim of contiguous rows: the general steps on (rows, n) views
        n = out.shape[-1]
        o, g = out.reshape(-1, n), grad.reshape(-1, n)
        with np.errstate(over="ignore", invalid="ignore"):
            e = _MATH[out.dtype][0](o)
            return _exact.fma(e, -_row_sums(g, rd)[:, None], g).reshape(out.shape)
    out, o = _rows3(out, dim)
    grad, g = _rows3(grad, dim)
    if out.size == 0:
        return out.copy()
    outer, n, inner = o.shape
    exp, exp1, _, lanes = _MATH[out.dtype]
    with np.errstate(over="ignore", invalid="ignore"):
        e = exp(o)
        if dim == out.ndim - 1:
            s = _row_sums(g[:, :, 0], rd)[:, None, None]
        else:
            s = _exact.seqsum(np.moveaxis(g, 1, 0), np.zeros((outer, inner), out.dtype))
            s = s[:, None, :]
            itemsize = out.itemsize if rd is None else np.dtype(rd).itemsize
            lanes = lanes if rd is None else _reduced_lanes(rd)[0]
            tail = _log_scalar_inner(inner, n, itemsize, lanes)
            if tail.any():
                e[:, :, tail] = exp1(o[:, :, tail])
        return _exact.fma(e, -s, g).reshape(out.shape)


# ------------------------------------------------------------------ float16 and bfloat16
# torch's kernels for the reduced types read the input into float32, compute there (with
# vectors of float32 beside vectors of the reduced type, twice as long) and round the results
# to the type; some steps also round intermediate values to it.

def _reduced_lanes(rd):
    """(lanes of a vector of the reduced type, lanes of a float32 vector)."""
    return _cpu.avx512_lanes(rd), _cpu.avx512_lanes(_F32)


def _tree_of_chunks(e, lanes):
    """A vector accumulator (from zeros) over the full chunks of ``lanes`` along axis 0,
    folded by ``vec_reduce_all``; zeros when there is no full chunk."""
    full = e.shape[0] - e.shape[0] % lanes
    if not full:
        return np.zeros(e.shape[1:], e.dtype)
    acc = e[:lanes].copy()
    for d in range(lanes, full, lanes):
        acc += e[d:d + lanes]
    return _norms._lanes_reduce(acc, e.dtype)


def _softmax_lastdim_reduced(c, rd):
    """``_vec_softmax_lastdim`` for a reduced type on the columns ``c`` (n, rows) float32:
    Sleef's exp on the full float vectors, their sum folded, then glibc's exp of the rest
    added one by one; each result is ``e * (1 / sum)`` rounded to the type."""
    _, flanes = _reduced_lanes(rd)
    n = c.shape[0]
    full = n - n % flanes
    d = c - np.maximum.reduce(c, axis=0)
    e = np.empty_like(d)
    e[:full] = _sleef.expf(d[:full])
    e[full:] = _sleef.expf_scalar(d[full:])
    s = _tree_of_chunks(e[:full], flanes)
    for k in range(full, n):
        s = s + e[k]
    return (e * (np.float32(1) / s)).astype(rd)


def _softmax_inner_reduced(x, rd):
    """``_vec_softmax`` for a reduced type on an (outer, dim, inner) float32 array: positions
    in vectors of the reduced type take Sleef's exp and ``e / sum``; the others (see
    :func:`_scalar_positions`) glibc's exp, rounded to the type before ``/ sum``."""
    outer, dim, inner = x.shape
    blanes, _ = _reduced_lanes(rd)
    d = x - x.max(axis=1, keepdims=True)
    e = _sleef.expf(d)
    scalar = _scalar_positions(outer, inner, blanes).reshape(outer, inner)
    if scalar.any():
        sel = np.broadcast_to(scalar[:, None, :], d.shape)
        e[sel] = _sleef.expf_scalar(d[sel])
    s = _exact.seqsum(np.moveaxis(e, 1, 0), np.zeros((outer, inner), _F32))
    if scalar.any():
        e[sel] = e[sel].astype(rd).astype(_F32)
    return (e / s[:, None, :]).astype(rd)


def _map_sum_reduced(e, rd):
    """``vec::map_reduce_all`` of a reduced type (the map already applied: ``e``, float32,
    the rows as columns (n, rows)): one vector of the type is two float vectors that
    accumulate apart, then add and fold; rows shorter than a vector of the type add the
    second float vector's lanes into the first and sum its lanes in turn."""
    blanes, flanes = _reduced_lanes(rd)
    n = e.shape[0]
    if n >= blanes or n <= flanes:
        return _norms.vec_sum_columns(e, lanes=blanes)
    f0 = e[:flanes].copy()
    f0[:n - flanes] += e[flanes:]
    return _exact.seqsum(f0)


def _log_softmax_lastdim_reduced(c, rd):
    """``serial_vec_log_softmax_lastdim_range`` for a reduced type on the columns ``c``
    (n, rows) float32: the sum of Sleef's exp is stored in the type, its Sleef log too, and
    ``(x - max) - log`` is rounded to the type."""
    d = c - _nan_max(np.maximum.reduce(c, axis=0))
    s = _map_sum_reduced(_sleef.expf(d), rd).astype(rd).astype(_F32)
    ls = _nan_log(_sleef.logf, s).astype(rd).astype(_F32)
    return _to_reduced(d - ls, rd)


def _to_reduced(a, rd):
    """float32 ``a`` rounded to the reduced type as the vector conversion does: a bfloat16
    NaN is 0xffff."""
    out = a.astype(rd)
    if rd.itemsize == 2 and rd != np.float16:
        nan = np.isnan(a)
        if nan.any():
            out[nan] = np.array(-1, np.int16).view(rd)
    return out


def softmax_reduced(x, dim, log=False):
    """torch's CPU softmax (log_softmax with ``log``) of a float16 or bfloat16 array."""
    rd = x.dtype
    if x.size == 0:
        return x.copy()
    outer, n, inner = _split(x, dim)
    f = np.ascontiguousarray(x).astype(_F32)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if dim == x.ndim - 1:
            c = np.ascontiguousarray(f.reshape(outer, n).T)
            out = (_log_softmax_lastdim_reduced if log else _softmax_lastdim_reduced)(c, rd)
            return np.ascontiguousarray(out.T).reshape(x.shape)
        f = f.reshape(outer, n, inner)
        if log:
            return _log_inner(f, rd).reshape(x.shape)
        return _softmax_inner_reduced(f, rd).reshape(x.shape)
