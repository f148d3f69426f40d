"""Upsampling (``F.interpolate``): a per-axis resampling plan applied as gathers, whose
backward is the plan's transposed weight matrix; each is the other's backward, so double
backward works.
"""

from __future__ import annotations

import numpy as np

from .._device import xp
from .registry import NONE, op

# ============================================================================ upsampling
# A resampling plan holds, per spatial axis, (i0, i1, l0, l1, M): output o reads
# ``l0[o] * x[i0[o]] + l1[o] * x[i1[o]]`` (``l0 is None``: nearest, ``x[i0[o]]``) and M is the
# (out, in) matrix of those weights, whose transpose is the backward (a scatter-add).

def _opmath(np_dtype):
    return np.float64 if np_dtype == np.float64 else np.float32


def _nearest_axis(n_in, n_out, scale, np_dtype):
    """torch's ``nearest_idx``: ``min(floor(o * ratio), in - 1)`` with a float32 ratio."""
    o = np.arange(n_out)
    if n_out == n_in:
        i0 = o
    elif n_out == 2 * n_in:
        i0 = o >> 1
    else:
        r = np.float32(1.0 / scale) if scale is not None and scale > 0 else \
            np.float32(n_in) / np.float32(n_out)
        i0 = np.minimum(np.floor(o.astype(np.float32) * r).astype(np.int64), n_in - 1)
    m = np.zeros((n_out, n_in), np_dtype)
    m[o, i0] = 1
    return i0, i0, None, None, m


def _linear_axis(n_in, n_out, align_corners, scale, np_dtype):
    """torch's ``compute_source_index_and_lambda`` in the kernel's opmath precision."""
    o = np.arange(n_out)
    if n_out == n_in:
        i0 = i1 = o
        l0, l1 = np.ones(n_out, np_dtype), np.zeros(n_out, np_dtype)
    else:
        T = _opmath(np_dtype)
        if align_corners:
            r = T(n_in - 1) / T(n_out - 1) if n_out > 1 else T(0)
            src = r * o.astype(T)
        else:
            r = T(1.0 / scale) if scale is not None and scale > 0 else T(n_in) / T(n_out)
            src = np.maximum(r * (o.astype(T) + T(0.5)) - T(0.5), T(0))
        i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
        l1 = np.clip(src - i0.astype(T), 0, 1).astype(np_dtype)
        i1 = i0 + (i0 < n_in - 1)
        l0 = (1 - l1).astype(np_dtype)
    m = np.zeros((n_out, n_in), np_dtype)
    np.add.at(m, (o, i0), l0)
    np.add.at(m, (o, i1), l1)
    return i0, i1, l0, l1, m


def resample_plan(shape, out_size, mode, align_corners, scales, np_dtype):
    """The plan of ``interpolate`` over the trailing ``len(out_size)`` dims of ``shape``."""
    nd = len(out_size)
    plan = []
    for k in range(nd):
        n_in, s = shape[-nd + k], scales[k] if scales is not None else None
        if mode == "nearest":
            plan.append(_nearest_axis(n_in, out_size[k], s, np_dtype))
        else:
            plan.append(_linear_axis(n_in, out_size[k], align_corners,
                                     None if align_corners else s, np_dtype))
    return tuple(plan)


def _resample_np(x, plan):
    nd = len(plan)
    for k in reversed(range(nd)):
        axis = x.ndim - nd + k
        i0, i1, l0, l1, _ = plan[k]
        if l0 is None:
            x = xp.take(x, i0, axis=axis)
        else:
            sh = [1] * x.ndim
            sh[axis] = -1
            x = xp.take(x, i0, axis=axis) * l0.reshape(sh) + \
                xp.take(x, i1, axis=axis) * l1.reshape(sh)
    return x


def _resample_t_np(g, plan):
    nd = len(plan)
    for k in reversed(range(nd)):
        m = plan[k][4].astype(g.dtype, copy=False)
        g = xp.moveaxis(xp.moveaxis(g, g.ndim - nd + k, -1) @ m, -1, g.ndim - nd + k)
    return g


def _make_resample(node):
    fwd = op(node, name="_resample_" + node, method=False, function=False, promote=NONE,
             self=lambda grad, plan: bwd(grad, plan))(
        lambda self, plan: _resample_np(self, plan))
    bwd = op(node.replace("Backward0", "BackwardBackward0"), name="_resample_bwd_" + node,
             method=False, function=False, promote=NONE,
             grad_output=lambda grad, plan: fwd(grad, plan))(
        lambda grad_output, plan: _resample_t_np(grad_output, plan))
    return fwd


RESAMPLE_OPS = {("nearest", 1): _make_resample("UpsampleNearest1DBackward0"),
                ("nearest", 2): _make_resample("UpsampleNearest2DBackward0"),
                ("linear", 1): _make_resample("UpsampleLinear1DBackward0"),
                ("bilinear", 2): _make_resample("UpsampleBilinear2DBackward0")}
