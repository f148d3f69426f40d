"""A fused ``y += s * x`` for float32 arrays from the BLAS NumPy ships (OpenBLAS).

torch's ``a.add_(b, alpha=s)`` on float32 is ``fmadd(b, s, a)`` per element, one rounding;
NumPy has no fused multiply-add, so the optimizers emulate it in float64 (three passes with
conversions). OpenBLAS's AVX2 ``saxpy`` kernel computes whole blocks of 32 elements with the
CPU's fused multiply-add (its last, partial block with a separate product and sum), so Ember
calls that kernel (single-threaded; the AVX2 build, on AVX512 cores too) on the 32-element
blocks and emulates the rest. It is used only after a probe at the first call found its blocks
equal to the exact fused result (on values where a fused and an unfused update differ);
``EMBER_BLAS_AXPY=0`` switches it off.
"""

from __future__ import annotations

import ctypes
import glob
import os

import numpy as np

_F32 = np.dtype(np.float32)
_BLOCK = 32
_KERNELS = {core: "saxpy_k_HASWELL" for core in
            (b"Haswell", b"Zen", b"SkylakeX", b"Cooperlake", b"SapphireRapids")}
_FN: list = []               # [the bound kernel or None], set at the first call


def _address(a: np.ndarray) -> int:
    try:                     # cheaper than a.ctypes.data where the buffer allows it
        return ctypes.addressof(ctypes.c_char.from_buffer(a))
    except (TypeError, ValueError, BufferError):
        return a.ctypes.data


def _load():
    if os.environ.get("EMBER_BLAS_AXPY", "1") == "0":
        return None
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs",
                                  "libscipy_openblas*.so"))
    if len(libs) != 1:
        return None
    try:
        lib = ctypes.CDLL(libs[0])
        core = lib.scipy_openblas_get_corename64_
        core.restype = ctypes.c_char_p
        name = _KERNELS.get(core())
        if name is None:
            return None
        fn = getattr(lib, name)
    except (OSError, AttributeError):
        return None
    fn.restype = ctypes.c_int
    fn.argtypes = (ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_float,
                   ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                   ctypes.c_void_p, ctypes.c_int64)
    return fn if _probe(fn) else None


def _probe(fn) -> bool:
    """The kernel's blocks are the exact fused results, and it leaves the rest alone."""
    from ._exact import fma
    rng = np.random.default_rng(20261204)
    for n in (32, 33, 63, 64, 96, 100, 1024, 4099):
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32) * np.float32(1e-3)
        s = np.float32(-1.0 / 3.0)
        want = fma(np.full(n, s), x, y)
        got = y.copy()
        n1 = n - n % _BLOCK
        fn(n1, 0, 0, s, _address(x), 1, _address(got), 1, None, 0)
        if not (np.array_equal(want[:n1].view(np.int32), got[:n1].view(np.int32))
                and np.array_equal(y[n1:].view(np.int32), got[n1:].view(np.int32))):
            return False
    return True


def axpy_blocks(y: np.ndarray, s, x: np.ndarray) -> int:
    """``y += s * x`` fused, in place, on the whole 32-element blocks of float32 ``y`` and
    ``x`` (C-contiguous, one shape, not overlapping); returns how many leading elements it
    updated (0: none, the caller computes everything)."""
    if not _FN:
        _FN.append(_load())
    fn = _FN[0]
    if fn is None or y.dtype != _F32 or x.dtype != _F32 or type(y) is not np.ndarray \
            or type(x) is not np.ndarray or y.shape != x.shape:
        return 0
    n = y.size
    n1 = n - n % _BLOCK
    if not n1 or not (y.flags.c_contiguous and x.flags.c_contiguous and y.flags.writeable) \
            or np.may_share_memory(x, y):
        return 0
    fn(n1, 0, 0, s, _address(x), 1, _address(y), 1, None, 0)
    return n1
