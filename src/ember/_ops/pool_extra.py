"""More pooling ops: max unpooling (``MaxUnpool2DBackward0``/``3D``), fractional max pooling
with torch's interval sequences (``FractionalMaxPool2DBackward0``/``3D``) and adaptive max
pooling's window maxima in 3 dims.

Indices are flat over each plane's spatial dims, as torch's; forward and backward are the
gather/scatter pair of :mod:`.nn` (``_gather_flat``/``_scatter_flat``).
"""

from __future__ import annotations

import math

import numpy as np

from .._device import xp
from .._tensor import Tensor
from . import nn as _nn
from .registry import NONE, op

_wrap = Tensor._wrap


# ============================================================================ max unpooling

def _unpool_np(x, indices, out_size, nd):
    sizes = x.shape[:x.ndim - nd] + tuple(out_size)
    total = math.prod(out_size)
    if not total:           # (torch runs no kernel for an empty output)
        return xp.zeros(sizes, x.dtype)
    if indices.size and (indices.min() < 0 or indices.max() >= total):
        bad = indices[(indices < 0) | (indices >= total)].flat[-1]     # (the last one, as torch)
        raise RuntimeError(f"Found an invalid max index: {int(bad)} (output volumes are of "
                           f"size {'x'.join(map(str, out_size))})")
    return _nn._scatter_flat(x, indices, sizes, nd, unique=True, store=True)


def _make_unpool(node, nd):
    gather = _nn._max_pool_gather[nd]
    return op(node, name="_max_unpool" + str(nd) + "d", method=False, function=False,
              promote=NONE, tensors=("self", "indices"),
              self=lambda grad, indices: gather(grad, indices)[0])(
        lambda self, indices, output_size: _unpool_np(self, indices, output_size, nd))


max_unpool = {2: _make_unpool("MaxUnpool2DBackward0", 2),
              3: _make_unpool("MaxUnpool3DBackward0", 3)}


# ============================================================================ fractional

def _intervals(sample, size, out, pool, dt):
    """torch's ``generate_intervals`` (in the input's dtype), vectorised over planes:
    ``int((i + u) * alpha) - int(u * alpha)``, the last start ``size - pool``."""
    seq = np.empty(sample.shape + (out,), np.int64)
    if out > 1:
        alpha = dt.type(size - pool) / dt.type(out - 1)
        i = np.arange(out - 1, dtype=dt)
        u = sample.astype(dt)[..., None]
        seq[..., :-1] = ((i + u) * alpha).astype(np.int64) - (u * alpha).astype(np.int64)
    if out > 0:
        seq[..., -1] = size - pool
    return seq


def fractional_indices(x, kernel, out_size, samples):
    """Flat indices of the window maxima of fractional max pooling of (N, C, *sp) ``x``;
    ``samples`` (N, C, nd): per plane, torch's order (2-d: width, height; 3-d: time,
    height, width)."""
    nd = len(kernel)
    sp = x.shape[2:]
    order = [1, 0] if nd == 2 else list(range(nd))
    starts = [_intervals(samples[..., order[d]], sp[d], out_size[d], kernel[d], x.dtype)
              for d in range(nd)]
    coords = []
    for d in range(nd):
        c = starts[d][..., :, None] + np.arange(kernel[d])         # (N, C, o_d, k_d)
        shape = [x.shape[0], x.shape[1]] + [1] * (2 * nd)
        shape[2 + d], shape[2 + nd + d] = out_size[d], kernel[d]
        coords.append(c.reshape(shape))
    flat = coords[0]
    for d in range(1, nd):
        flat = flat * sp[d] + coords[d]                              # (N, C, *o, *k)
    planes = x.reshape(x.shape[:2] + (-1,))
    win = _nn._gather_flat(planes, flat.reshape(x.shape[:2] + (-1,)), 1).reshape(flat.shape)
    kk = math.prod(kernel)
    win = win.reshape(win.shape[:2 + nd] + (kk,))
    arg = win.argmax(-1)
    nan = np.isnan(win) if x.dtype.kind == "f" else None
    if nan is not None and nan.any():          # torch: the last NaN of a window wins
        last = kk - 1 - nan[..., ::-1].argmax(-1)
        arg = np.where(nan.any(-1), last, arg)
    flat = np.broadcast_to(flat, flat.shape[:2 + nd] + tuple(kernel)).reshape(win.shape)
    return np.take_along_axis(flat, arg[..., None], -1)[..., 0]


fractional_gather = {2: _nn._make_gather("FractionalMaxPool2DBackward0", 2),
                     3: _nn._make_gather("FractionalMaxPool3DBackward0", 3)}


# ============================================================================ adaptive 3-d

def adaptive_max_indices_nd(x, output_size):
    """Flat indices of the maxima of torch's adaptive windows over the last ``nd`` dims (the
    first maximum of a window, in scan order)."""
    nd = len(output_size)
    sp = x.shape[x.ndim - nd:]
    lead = x.shape[:x.ndim - nd]
    coords = []
    kshape = []
    for d, (size, o) in enumerate(zip(sp, output_size)):
        s, e = _nn._adaptive_bounds(size, o)
        kmax = int((e - s).max()) if o else 1
        ii = np.minimum(s[:, None] + np.arange(kmax)[None, :], (e - 1)[:, None])
        shape = [1] * (2 * nd)
        shape[d], shape[nd + d] = o, kmax
        coords.append(ii.reshape(shape))
        kshape.append(kmax)
    flat = coords[0]
    for d in range(1, nd):
        flat = flat * sp[d] + coords[d]                              # (*o, *k)
    flat = np.broadcast_to(flat, tuple(output_size) + tuple(kshape))
    planes = x.reshape((-1, math.prod(sp)))
    win = planes[:, flat.reshape(-1)].reshape((planes.shape[0],) + tuple(output_size)
                                              + (math.prod(kshape),))
    arg = win.argmax(-1)
    idx = flat.reshape(tuple(output_size) + (-1,))
    res = np.take_along_axis(np.broadcast_to(idx, win.shape), arg[..., None], -1)[..., 0]
    return xp.ascontiguousarray(res.reshape(lead + tuple(output_size)))
