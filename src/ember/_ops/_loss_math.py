"""The arithmetic of torch's CPU loss kernels, rounded as torch rounds it.

``binary_cross_entropy`` runs a scalar ``cpu_kernel`` whose logs are the C library's
(``std::log``/``std::log1p`` on a float are glibc's ``logf``/``log1pf``); NumPy's float32
``log`` is its own SIMD code, so the float32 logs here are glibc's, called element by element
where NumPy's ufunc does not agree with it on a probe. The reductions are torch's
(``cascade_sum``, then the division by the count for ``mean``). The backward kernels of
``smooth_l1_loss`` and ``huber_loss`` compute the vectors and the one-by-one tail with
different formulas; :func:`scalar_lanes` says which elements take the tail.
"""

from __future__ import annotations

import numpy as np

from . import _exact, _sleef, _sleef_d, _sleef_ext
from ._libm import libm


def reduce(loss, reduction: int):
    """``apply_loss_reduction``: none (0), torch's mean (1) or sum (2) of a float array."""
    if reduction == 0:
        return loss
    if loss.dtype not in _exact.exact_dtype:
        return (loss.mean() if loss.size else np.array(np.nan, loss.dtype)) \
            if reduction == 1 else loss.sum()
    if min(loss.strides, default=0) < 0:
        loss = np.ascontiguousarray(loss)
    s = _exact.cascade_sum(loss, (), False)
    if reduction == 2:
        return s
    with np.errstate(invalid="ignore", divide="ignore"):
        return s / loss.dtype.type(loss.size)


def bce(x, t):
    """``binary_cross_entropy``'s element: ``(t - 1) * max(log1p(-x), -100) - t *
    max(log(x), -100)``."""
    dt = x.dtype.type
    with np.errstate(divide="ignore", invalid="ignore"):
        l1 = np.maximum(libm("log1p", -x), dt(-100))
        lx = np.maximum(libm("log", x), dt(-100))
        return (t - dt(1)) * l1 - t * lx


def bce_grad(g, x, t):
    """``binary_cross_entropy_backward``'s element: ``g * (x - t) / max((1 - x) * x,
    1e-12)`` (the float epsilon, also for doubles)."""
    dt = x.dtype.type
    with np.errstate(divide="ignore", invalid="ignore"):
        return g * (x - t) / np.maximum((dt(1) - x) * x, dt(np.float32(1e-12)))


_f32 = np.float32


def log_sigmoid(x):
    """``log_sigmoid``'s vector kernel on every element: ``min(x, 0) - log1p(exp(-|x|))``
    with Sleef's exp and log1p (float or double)."""
    with np.errstate(all="ignore"):
        if x.dtype == np.float32:
            return np.minimum(x, _f32(0)) - _sleef_ext.log1pf(_sleef.expf(-np.abs(x)))
        if x.dtype == np.float64:
            return np.minimum(x, 0.0) - _sleef_ext.log1pd(_sleef_d.expd(-np.abs(x)))
        return np.minimum(x, x.dtype.type(0)) - np.log1p(np.exp(-np.abs(x)))


def log_sigmoid_backward(grad, x):
    """``log_sigmoid_backward``'s kernel: ``(max_deriv - sign * z / (1 + z)) * grad`` with
    ``z = exp(-|x|)``, the buffer of the forward kernel (Sleef's exp on every element);
    ``max_deriv`` and ``sign`` are 1 and 1 where ``x < 0``, else 0 and -1."""
    if x.dtype == np.float32:
        exp = _sleef.expf
    elif x.dtype == np.float64:
        exp = _sleef_d.expd
    else:
        return None
    with np.errstate(all="ignore"):
        z = exp(-np.abs(x))
        q = z / (x.dtype.type(1) + z)
        return np.where(x < 0, x.dtype.type(1) - q, q) * grad


def scalar_lanes(*arrays):
    """Where ``cpu_kernel_vec`` runs the one-by-one function for operands of one shape
    written to a contiguous output: the row tails when every operand is contiguous (or a
    broadcast scalar), everywhere otherwise."""
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    if not all(a.ndim == 0 or not any(a.strides) or (a.shape == shape and a.flags.c_contiguous)
               for a in arrays):
        return np.ones(shape, bool)
    if not shape:
        return np.ones(shape, bool)
    return _sleef._scalar_mask(np.empty(shape, arrays[0].dtype), avx512=False)
