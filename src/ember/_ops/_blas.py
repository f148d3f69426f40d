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


_SIZES = (32, 33, 63, 64, 96, 100, 1024, 4099)      # the probe's lengths


def _probe_operands(dt):
    """The probe's ``x``, ``y``, ``s`` and the fused ``s * x + y`` for all its lengths.

    The operands are fixed pseudo-random values (a multiplicative hash of the index, no
    NumPy generator to import), ``|x|`` in [1/2, 1) and ``|y|`` below 1e-3. A float32
    ``s * x + y`` is then exact in float64 (at most 49 significant bits), so its one
    rounding to float32 is the fused result; float64 takes :func:`_exact.fma`."""
    total = sum(_SIZES)
    h = np.arange(2 * total, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    v = (h >> np.uint64(11)).astype(np.float64) * 2.0 ** -52 - 1.0       # in [-1, 1)
    v[:total] = np.copysign(0.5 + 0.5 * np.abs(v[:total]), v[:total])
    x, y = v[:total].astype(dt), (v[total:] * 1e-3).astype(dt)
    s = dt.type(-1.0 / 3.0)
    if dt == np.float32:
        fused = (x.astype(np.float64) * float(s) + y).astype(dt)
    else:
        from ._exact import fma
        fused = fma(np.full(total, s), x, y)
    return x, y, s, fused


def _probe(fn, dt) -> bool:
    """The kernel's blocks are the exact fused results, and it leaves the rest alone: one
    call per length, each on its own segment of one buffer, checked in one comparison."""
    x, y, s, fused = _probe_operands(dt)
    want, got = y.copy(), y.copy()
    start = 0
    for n in _SIZES:
        n1 = n - n % _BLOCK
        want[start:start + n1] = fused[start:start + n1]
        fn(n1, 0, 0, s, _address(x[start:]), 1, _address(got[start:]), 1, None, 0)
        start += n
    ints = np.int32 if dt == np.float32 else np.int64
    return np.array_equal(want.view(ints), got.view(ints))


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
