"""MKL's vector math library (VML): torch's kernel for float ``exp``, ``log``, ``sin`` ….

torch's CPU build (``USE_MKL=ON``) hands ``exp``, ``log``, ``log2``, ``log10``, ``sqrt``,
``sin``, ``cos``, ``tan``, ``tanh``, ``asin``, ``acos``, ``atan``, ``erf``, ``erfc`` and
``erfinv`` on float32/float64 tensors to VML in high-accuracy mode (ATen's ``vml.h``:
``VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE``). VML's algorithms are not published, so its
bits can only come from MKL itself. Where MKL's runtime is installed (``pip install
ember[mkl]``: the ``mkl`` wheel puts ``libmkl_rt`` in the environment's ``lib``), Ember calls
the same functions through ctypes and gets torch's results bit for bit; elsewhere the ops use
NumPy's loops, within 1-3 ulp. ``EMBER_MKL=0`` switches VML off; ``EMBER_MKL_LIB`` names the
library file to load.

The library is found and loaded at import, in the background (``ember._mkl``).
"""

from __future__ import annotations

import ctypes
import functools

import numpy as np

from .. import _mkl

# ATen's vml.h: VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE
_MODE = ctypes.c_int64(0x2 | 0x140000 | 0x100)
_CHUNK = 1 << 30                     # VML's lengths are 32-bit (the LP64 interface)
_PREFIX = {np.dtype(np.float32): "vms", np.dtype(np.float64): "vmd"}


_PATH = _mkl.PATH
_TABLES: dict | None = None          # dtype -> {VML name: bound function}, set at first call


def available() -> bool:
    """Whether MKL's VML computes Ember's float ``exp``, ``log``, ``sin`` … (torch's bits)."""
    return bool(_tables())


def _tables() -> dict:
    """A table of bound functions per dtype (once), empty without MKL."""
    global _TABLES
    if _TABLES is None:
        lib = _mkl.library()
        tables: dict = {}
        if lib is not None:
            tables = {dtype: {} for dtype in _PREFIX}
            tables["lib"] = lib
        _TABLES = tables
        from ._exact import get_num_threads
        set_num_threads(get_num_threads())
    return _TABLES


def set_num_threads(n: int) -> None:
    """MKL's thread count follows torch's intra-op count (``at::set_num_threads`` sets both)."""
    if _TABLES:
        _TABLES["lib"].MKL_Set_Num_Threads(ctypes.c_int(n))


def library():
    """MKL's runtime (loaded once), or None where it is not installed."""
    return (_TABLES if _TABLES is not None else _tables()).get("lib")


_BOUND: dict = {}                    # MKL function name -> bound function, or None


def bind(name: str, argtypes=None, restype=None):
    """MKL's function ``name``, with its argument and result types set once; None where
    MKL's runtime is not installed (the BLAS, LAPACK callers' one table)."""
    fn = _BOUND.get(name, False)
    if fn is False:
        lib = library()
        fn = None
        if lib is not None:
            fn = getattr(lib, name)
            if argtypes is not None:
                fn.argtypes = argtypes
            fn.restype = restype
        _BOUND[name] = fn
    return fn


def _bind(name: str, dtype: np.dtype):
    fn = getattr(_TABLES["lib"], _PREFIX[dtype] + name)
    fn.restype = None
    fn.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
    _TABLES[dtype][name] = fn
    return fn


_addressof = ctypes.addressof
_from_buffer = ctypes.c_char.from_buffer


def _address(a: np.ndarray) -> int:
    try:                             # cheaper than a.ctypes.data where the buffer allows it
        return ctypes.addressof(ctypes.c_char.from_buffer(a))
    except (TypeError, ValueError, BufferError):
        return a.ctypes.data


def call(name: str, a: np.ndarray) -> np.ndarray | None:
    """VML's ``name`` (``"Exp"``, ``"Ln"`` …) of a float32/float64 array, or None where VML
    is not installed or ``a`` has another dtype."""
    table = (_TABLES if _TABLES is not None else _tables()).get(a.dtype)
    if table is None:
        return None
    fn = table.get(name) or _bind(name, a.dtype)
    if type(a) is not np.ndarray:    # a NumPy scalar: its result is a scalar too
        if isinstance(a, np.ndarray):
            return None     # (a meta stand-in: NumPy's ufunc gives its shape)
        return call(name, np.asarray(a))[()]
    flags = a.flags
    if flags.c_contiguous and flags.writeable:
        # the common case: a C-contiguous input, one call (addresses without the fallback)
        n = a.size
        if 0 < n <= _CHUNK:
            out = np.empty(a.shape, a.dtype)
            fn(n, _addressof(_from_buffer(a)), _addressof(_from_buffer(out)), _MODE)
            return out
    # the result keeps the input's memory order, as torch's TensorIterator does: a later
    # reduction adds in that order
    # (a K-order copy is dense, and so is an empty_like of it, with the same strides: one
    # call over the memory keeps a channels_last layout)
    src = a if flags.c_contiguous or flags.f_contiguous else a.copy(order="K")
    out = np.empty_like(src)
    if out.strides != src.strides:
        src = np.ascontiguousarray(src)
        out = np.empty_like(src)
    n = src.size
    if n <= _CHUNK:
        fn(n, _address(src), _address(out), _MODE)
        return out
    size, pin, pout = src.itemsize, src.ctypes.data, out.ctypes.data
    for start in range(0, n, _CHUNK):
        fn(min(_CHUNK, n - start), pin + start * size, pout + start * size, _MODE)
    return out


def first(name: str):
    """Decorator: the kernel computes with VML's ``name`` where it can, else as written.

    Without an MKL runtime the kernel is returned as it is (no cost per call)."""
    def wrap(kernel):
        if _PATH is None:
            return kernel

        @functools.wraps(kernel)
        def kernel_vml(self):
            out = call(name, self)
            return kernel(self) if out is None else out
        return kernel_vml
    return wrap


def exp(a: np.ndarray) -> np.ndarray:
    """torch's ``exp`` of an array: VML's where installed, NumPy's otherwise."""
    out = call("Exp", a)
    if out is None:
        with np.errstate(over="ignore"):
            out = np.exp(a)
    return out


def log(a: np.ndarray) -> np.ndarray:
    """torch's ``log`` of an array: VML's where installed, NumPy's otherwise."""
    out = call("Ln", a)
    if out is None:
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.log(a)
    return out


def sqrt(a: np.ndarray) -> np.ndarray:
    """torch's ``sqrt`` of an array: VML's where installed, NumPy's otherwise."""
    out = call("Sqrt", a)
    if out is None:
        with np.errstate(invalid="ignore"):
            out = np.sqrt(a)
    return out
