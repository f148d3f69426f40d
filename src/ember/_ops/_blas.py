"""A fused ``y += s * x`` for float32/float64 arrays from the BLAS NumPy ships (OpenBLAS).

torch's ``a.add_(b, alpha=s)`` is ``fmadd(b, s, a)`` per element, one rounding; NumPy has
no fused multiply-add, so ``_ops._exact.fma`` emulates it (float32 in float64, float64 with
error-free transformations: many passes). OpenBLAS's AVX2 ``saxpy``/``daxpy`` kernels
compute whole blocks with the CPU's fused multiply-add (their last, partial block with a
separate product and sum), so Ember calls those kernels (single-threaded; the AVX2 build,
on AVX512 cores too) on 32-element blocks (the last one zero-padded). A kernel is used only
after a probe at its first call found its blocks equal to the exact fused result (on values
where a fused and an unfused update differ); ``EMBER_BLAS_AXPY=0`` switches them off.
"""

from __future__ import annotations

import ctypes
import os

import numpy as np

_BLOCK = 32
_KERNELS = {core: "axpy_k_HASWELL" for core in
            (b"Haswell", b"Zen", b"SkylakeX", b"Cooperlake", b"SapphireRapids")}
_TYPES = {np.dtype(np.float32): ("s", ctypes.c_float), np.dtype(np.float64): ("d", ctypes.c_double)}
_FN: dict = {}               # dtype: the bound kernel or None, set at the first call


def _address(a: np.ndarray) -> int:
    try:                     # cheaper than a.ctypes.data where the buffer allows it
        return ctypes.addressof(ctypes.c_char.from_buffer(a))
    except (TypeError, ValueError, BufferError):
        return a.ctypes.data


def _load(dt):
    if os.environ.get("EMBER_BLAS_AXPY", "1") == "0":
        return None
    folder = os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs")
    try:
        libs = [os.path.join(folder, n) for n in os.listdir(folder)
                if n.startswith("libscipy_openblas") and n.endswith(".so")]
    except OSError:
        libs = []
    if len(libs) != 1:
        return None
    prefix, scalar = _TYPES[dt]
    try:
        lib = ctypes.CDLL(libs[0])
        core = lib.scipy_openblas_get_corename64_
        core.restype = ctypes.c_char_p
        name = _KERNELS.get(core())
        if name is None:
            return None
        fn = getattr(lib, prefix + name)
    except (OSError, AttributeError):
        return None
    fn.restype = ctypes.c_int
    fn.argtypes = (ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, scalar,
                   ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                   ctypes.c_void_p, ctypes.c_int64)
    return fn if _probe(fn, dt) else None


def _probe(fn, dt) -> bool:
    """The kernel's blocks are the exact fused results, and it leaves the rest alone.

    The operands are fixed pseudo-random values (a multiplicative hash of the index, no
    NumPy generator to import), and one exact reference serves every length: an element's
    fused result does not depend on the others."""
    from ._exact import fma
    ints = np.int32 if dt == np.float32 else np.int64
    sizes = (32, 33, 63, 64, 96, 100, 1024, 4099)
    h = np.arange(2 * sizes[-1], dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    v = (h >> np.uint64(11)).astype(np.float64) * 2.0 ** -52 - 1.0     # in [-1, 1)
    xs = v[:sizes[-1]].astype(dt)
    ys = v[sizes[-1]:].astype(dt) * dt.type(1e-3)
    s = dt.type(-1.0 / 3.0)
    wants = fma(np.full(sizes[-1], s), xs, ys)
    for n in sizes:
        x, y, want = xs[:n], ys[:n], wants[:n]
        got = y.copy()
        n1 = n - n % _BLOCK
        fn(n1, 0, 0, s, _address(x), 1, _address(got), 1, None, 0)
        if not (np.array_equal(want[:n1].view(ints), got[:n1].view(ints))
                and np.array_equal(y[n1:].view(ints), got[n1:].view(ints))):
            return False
    return True


def axpy_blocks(y: np.ndarray, s, x: np.ndarray) -> int:
    """``y += s * x`` fused, in place, for float32 or float64 ``y`` and ``x`` (one dtype
    and shape, C-contiguous, not overlapping): the whole 32-element blocks in place, the
    rest as one zero-padded block. Returns how many elements it updated (0: none, the
    caller computes everything)."""
    dt = y.dtype
    fn = _FN.get(dt, False)
    if fn is False:
        fn = _FN[dt] = _load(dt) if dt in _TYPES else None
    if fn is None or x.dtype != dt or type(y) is not np.ndarray \
            or type(x) is not np.ndarray or y.shape != x.shape:
        return 0
    n = y.size
    if not n or not (y.flags.c_contiguous and x.flags.c_contiguous and y.flags.writeable) \
            or np.may_share_memory(x, y):
        return 0
    n1 = n - n % _BLOCK
    if n1:
        fn(n1, 0, 0, s, _address(x), 1, _address(y), 1, None, 0)
    if n1 < n:
        yt, xt = np.zeros(_BLOCK, dt), np.zeros(_BLOCK, dt)
        yf = y.reshape(-1)
        yt[:n - n1] = yf[n1:]
        xt[:n - n1] = x.reshape(-1)[n1:]
        fn(_BLOCK, 0, 0, s, _address(xt), 1, _address(yt), 1, None, 0)
        yf[n1:] = yt[:n - n1]
    return n
