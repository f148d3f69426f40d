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

import functools

import numpy as np

from . import _exact, _sleef, _sleef_d, _sleef_ext


@functools.cache
def _c_libm(name: str, dtype: type):
    """The C library's function ``name`` on ``dtype`` (float32: ``c_float``, float64:
    ``c_double``) over an array, element by element."""
    import ctypes
    import ctypes.util
    try:
        lib = ctypes.CDLL("libm.so.6")
    except OSError:
        lib = ctypes.CDLL(ctypes.util.find_library("m"))
    ctype = ctypes.c_float if dtype == np.float32 else ctypes.c_double
    fn = getattr(lib, name)
    fn.restype, fn.argtypes = ctype, [ctype]

    def f(x):
        flat = np.asarray(x, dtype).reshape(-1).tolist()
        return np.fromiter(map(fn, flat), dtype, count=len(flat)).reshape(np.shape(x))
    return f


def _c_float(name: str):
    """glibc's float function ``name`` (``expf``, ``erff`` …) over an array."""
    return _c_libm(name, np.float32)


def _c_double(name: str):
    """glibc's double function ``name`` over an array."""
    return _c_libm(name, np.float64)


@functools.cache
def _float_libm(name: str):
    """NumPy's float32 ``name`` where it equals glibc's on a probe of 4096 arguments, else
    glibc's called element by element."""
    c = _c_float(name + "f")
    u = np.random.default_rng(20240229).random(4096).astype(np.float32)
    x = u * np.float32(8) if name == "log" else -u
    with np.errstate(all="ignore"):
        same = np.array_equal(getattr(np, name)(x), c(x))
    return getattr(np, name) if same else c


@functools.cache
def _double_libm(name: str):
    """NumPy's float64 ``name`` where it equals glibc's on a probe of 4096 arguments, else
    glibc's called element by element."""
    c = _c_double(name)
    x = np.random.default_rng(20240229).standard_normal(4096) * 4
    vec = getattr(np, name, None)
    with np.errstate(all="ignore"):
        same = vec is not None and np.array_equal(vec(x), c(x))
    return vec if same else c


def libm(name: str, x):
    """glibc's ``log`` or ``log1p`` of a float32/float64 array (what ``std::`` calls)."""
    if x.dtype == np.float32:
        return _float_libm(name)(x)
    from .. import random
    return getattr(random, "_" + name)(x).astype(x.dtype, copy=False)


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
    lanes2 = 16 if arrays[0].dtype == np.float32 else 8
    return _sleef._scalar_mask(np.empty(shape, arrays[0].dtype), lanes2)
