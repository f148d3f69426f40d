"""Window sums in the order torch's CPU pooling kernels add (``AvgPoolKernel.cpp``,
``AdaptiveAvgPoolKernel.cpp``).

Both directions are one mechanism. The forward of a pooling adds each window's elements to a
zero accumulator one by one in raster order (last axis fastest); its backward adds each
output's share to the window's elements, the outputs taken in raster order, so that an input
element receives the windows that hold it in raster order too. Each is a sum over "windows"
given per axis as ``(start, end)`` index arrays: the backward's windows are, per input index,
the range of outputs whose windows hold it (:func:`holders`).

The sums run one window offset at a time over every window at once (a few vectorised passes),
padding the shorter windows with zeros (which leave a +0-started sum unchanged).
"""

from __future__ import annotations

import numpy as np

from .._device import xp


def pool_bounds(size, k, s, p, o):
    """``cpu_avg_pool``'s windows along one axis: (start, end, pool_size) of each output, the
    window clipped to the input and pool_size the length before that clipping (clipped to the
    padded input)."""
    start = np.arange(o, dtype=np.int64) * s - p
    end = np.minimum(start + k, size + p)
    pool = end - start
    return np.maximum(start, 0), np.minimum(end, size), pool


def adaptive_bounds(size, o):
    """torch's adaptive windows ``[floor(i*size/o), ceil((i+1)*size/o))``."""
    i = np.arange(o, dtype=np.int64)
    return (i * size) // o, -((-(i + 1) * size) // o)


def holders(bounds, size):
    """For each of the ``size`` inputs, the range ``[lo, hi)`` of the outputs whose windows
    (``bounds``: start and end arrays, each nondecreasing) hold it."""
    start, end = bounds
    i = np.arange(size)
    return np.searchsorted(end, i, "right"), np.searchsorted(start, i, "right")


def _axis_index(idx, n):
    """``idx`` (into an axis of length ``n``; indices past it are clipped) as a slice when
    it is an arithmetic run inside the axis."""
    if idx[-1] >= n:
        return np.minimum(idx, n - 1)
    if idx.size == 1:
        return slice(int(idx[0]), int(idx[0]) + 1)
    step = int(idx[1] - idx[0])
    if step > 0 and (np.diff(idx) == step).all():
        return slice(int(idx[0]), int(idx[-1]) + 1, step)
    return idx


def window_sum(x, bounds):
    """``x`` (..., *sizes) summed over windows of its trailing axes: ``bounds`` holds per axis
    the (start, end) arrays of the windows. Each result is ``((0 + a) + b) + …`` over the
    window's elements in raster order (an empty window gives +0)."""
    nd = len(bounds)
    lead = x.shape[:x.ndim - nd]
    outs = tuple(len(s) for s, _ in bounds)
    acc = xp.zeros(lead + outs, x.dtype)
    if 0 in outs or 0 in x.shape:
        return acc
    lens = [e - s for s, e in bounds]
    kmax = [max(int(n.max()), 0) for n in lens]
    for off in np.ndindex(*kmax):
        v = x
        mask = None
        for ax, (a, (s, _), n) in enumerate(zip(off, bounds, lens)):
            axis = x.ndim - nd + ax
            idx = _axis_index(s + a, x.shape[axis])
            v = v[(slice(None),) * axis + (idx,)] if isinstance(idx, slice) else xp.take(
                v, idx, axis=axis)
            valid = a < n
            if not valid.all():
                m = valid.reshape((-1,) + (1,) * (nd - 1 - ax))
                mask = m if mask is None else mask & m
        if mask is not None:
            v = xp.where(mask, v, x.dtype.type(0))
        acc += v
    return acc


def window_scatter(d, bounds, sizes):
    """The backward of :func:`window_sum`: each output's ``d`` added to the elements of its
    window, the outputs in raster order, into zeros of the trailing ``sizes``."""
    inv = tuple(holders(b, n) for b, n in zip(bounds, sizes))
    return window_sum(d, inv)
