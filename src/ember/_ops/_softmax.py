"""torch's float32 CPU softmax (and log_softmax over the last dim), bit for bit
(``SoftMaxKernel.cpp``).

Over the last dim each row takes its max, Sleef's ``exp`` of the differences, their
vectorised sum (``vec::reduce_all``) and multiplies by its reciprocal. Over another dim
(``_vec_softmax``) eight inner positions run as one vector: the max and a sum added in
turn along the dim, then a division; positions that do not fill a vector (the end of an
inner row or of a thread's share) run the same steps with glibc's ``expf``. log_softmax
over the last dim subtracts the max and Sleef's ``log`` of the vectorised sum of exps.
"""

from __future__ import annotations

import numpy as np

from . import _exact, _norms, _sleef

_f32 = np.float32


def _lastdim(x):
    """``_vec_softmax_lastdim`` on a C-contiguous (rows, n) float32 array."""
    with np.errstate(invalid="ignore", over="ignore"):
        e = _sleef.expf(x - x.max(axis=1, keepdims=True))
        inv = _f32(1) / _norms.vec_sum_rows(e)
        return e * inv[:, None]


def _scalar_positions(outer, inner):
    """Which flat (outer × inner) positions ``_vec_softmax`` computes one by one: the
    positions are shared between all threads, and each thread's share runs in vectors
    of eight along each inner row, the rest of a row (or of the share) one by one."""
    total = outer * inner
    chunk = -(-total // min(_exact.get_num_threads(), total))
    idx = np.arange(total)
    b = idx // chunk * chunk
    e = np.minimum(b + chunk, total)
    row = idx // inner * inner
    s = np.maximum(row, b)
    end = np.minimum(row + inner, e)
    return (idx - s) >= (end - s) // 8 * 8


def _inner(x):
    """``_vec_softmax`` on a C-contiguous (outer, dim, inner) float32 array."""
    outer, dim, inner = x.shape
    with np.errstate(invalid="ignore", over="ignore"):
        d = x - x.max(axis=1, keepdims=True)
        e = _sleef.expf(d)
        scalar = _scalar_positions(outer, inner).reshape(outer, 1, inner)
        if scalar.any():
            e = np.where(scalar, _sleef.expf_scalar(d), e)
        s = _exact.seqsum(np.moveaxis(e, 1, 0), np.zeros((outer, inner), _f32))
        return e / s[:, None, :]


def softmax(x, dim):
    """torch's CPU softmax of a float32 array along ``dim`` (taken contiguous)."""
    x = np.ascontiguousarray(x)
    shape = x.shape
    n = shape[dim]
    outer = int(np.prod(shape[:dim], dtype=np.int64))
    inner = int(np.prod(shape[dim + 1:], dtype=np.int64))
    if x.size == 0:
        return x.copy()
    if dim == x.ndim - 1:
        return _lastdim(x.reshape(outer, n)).reshape(shape)
    return _inner(x.reshape(outer, n, inner)).reshape(shape)


def _log_lastdim(x):
    """``_vec_log_softmax_lastdim`` on a C-contiguous (rows, n) float32 array."""
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        m = x.max(axis=1, keepdims=True)
        lse = _sleef.logf(_norms.vec_sum_rows(_sleef.expf(x - m)))
        return (x - m) - lse[:, None]


def log_softmax(x, dim):
    """torch's CPU log_softmax of a float32 array along its last dim (taken contiguous)."""
    x = np.ascontiguousarray(x)
    if x.size == 0:
        return x.copy()
    return _log_lastdim(x.reshape(-1, x.shape[-1])).reshape(x.shape)
