"""The C library's math functions, which torch's one-by-one loops call (``std::exp`` on a
float is glibc's ``expf``), and NumPy's ufuncs where they agree with them.

NumPy's own SIMD loops (its AVX512 builds of float64 ``exp``, ``sinh``, ``power`` …) round
otherwise than glibc on part of their arguments, so each function is probed once and falls
back to glibc's, called element by element through ctypes.
"""

from __future__ import annotations

import functools

import numpy as np

_BINARY = {"pow": np.power, "atan2": np.arctan2}


@functools.cache
def c_fn(name: str, dtype: type = np.float64):
    """The C library's scalar function ``name`` on ``dtype`` (float32: ``c_float``,
    float64: ``c_double``), through ctypes: two arguments for ``pow``/``atan2``."""
    import ctypes
    import ctypes.util
    try:
        lib = ctypes.CDLL("libm.so.6")
    except OSError:
        lib = ctypes.CDLL(ctypes.util.find_library("m"))
    ctype = ctypes.c_float if dtype == np.float32 else ctypes.c_double
    fn = getattr(lib, name)
    fn.restype = ctype
    fn.argtypes = [ctype] * (2 if name.rstrip("f") in _BINARY else 1)
    return fn


@functools.cache
def _c_libm(name: str, dtype: type):
    """:func:`c_fn` over arrays, element by element."""
    fn = c_fn(name, dtype)

    def f(*xs):
        xs = np.broadcast_arrays(*(np.asarray(x, dtype) for x in xs))
        flat = [x.reshape(-1).tolist() for x in xs]
        return np.fromiter(map(fn, *flat), dtype, count=xs[0].size).reshape(xs[0].shape)
    return f


def c_float(name: str):
    """glibc's float function ``name`` (``expf``, ``erff`` …) over an array."""
    return _c_libm(name, np.float32)


def c_double(name: str):
    """glibc's double function ``name`` over an array."""
    return _c_libm(name, np.float64)


@functools.cache
def float_fn(name: str):
    """NumPy's float32 ``name`` where it equals glibc's on a probe of 4096 arguments, else
    glibc's called element by element."""
    c = c_float(name + "f")
    u = np.random.default_rng(20240229).random(4096).astype(np.float32)
    x = u * np.float32(8) if name == "log" else -u
    with np.errstate(all="ignore"):
        same = np.array_equal(getattr(np, name)(x), c(x), equal_nan=True)
    return getattr(np, name) if same else c


@functools.cache
def double_fn(name: str):
    """NumPy's float64 ``name`` where it equals glibc's on a probe of 4096 arguments, else
    glibc's called element by element. NumPy's own SIMD loops (AVX512 builds of ``exp``,
    ``sinh``, ``power`` …) round otherwise than glibc, which torch's one-by-one loops call."""
    c = c_double(name)
    rng = np.random.default_rng(20240229)
    x = rng.standard_normal(4096) * 4
    vec = _BINARY.get(name, getattr(np, name, None))
    args = (np.abs(x), rng.standard_normal(4096) * 4) if name in _BINARY else (x,)
    with np.errstate(all="ignore"):
        same = vec is not None and np.array_equal(vec(*args), c(*args), equal_nan=True)
    return vec if same else c


def libm(name: str, x):
    """glibc's ``log`` or ``log1p`` of a float32/float64 array (what ``std::`` calls); the
    doubles through ``random``'s, which maps Python's ``math`` (five times ctypes' speed)."""
    if x.dtype == np.float32:
        return float_fn(name)(x)
    from .. import random
    return getattr(random, "_" + name)(x).astype(x.dtype, copy=False)
