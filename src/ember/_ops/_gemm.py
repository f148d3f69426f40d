"""torch's matrix products on MKL's BLAS: ``addmm``/``mm``, ``addmv``/``mv``, ``dot`` and the
batched products, with ATen's choices of layout, transposition and leading dimensions.

torch's CPU build hands float32/float64 products to MKL (``sgemm``, ``sgemv``, ``sdot``,
``cblas_sgemm_batch`` …), whose blocking decides the order of each sum; NumPy's OpenBLAS adds in
another order (a few ulps apart). Where MKL's runtime is installed (``ember[mkl]``, see
``_vml``), Ember makes the same calls with the same arguments as ATen's ``addmm_impl_cpu_``,
``addmv_out_cpu``, ``dot`` and ``bmm_out_or_baddbmm_`` (``LinearAlgebra.cpp``, ``Blas.cpp``),
and gets torch's bits, on torch's thread count. Each function returns None where it does not
apply (no MKL, another dtype, a stride BLAS cannot take): the caller then computes with NumPy.
"""

from __future__ import annotations

import contextlib
import ctypes
import math

import numpy as np

from .._meta import MetaArray
from . import _vml
from ._fused import complex_product

_COL_MAJOR, _N, _T = 102, 111, 112
_PREFIX = {np.dtype(np.float32): ("s", ctypes.c_float),
           np.dtype(np.float64): ("d", ctypes.c_double),
           np.dtype(np.complex64): ("c", ctypes.c_float),
           np.dtype(np.complex128): ("z", ctypes.c_double)}
_INT_MAX = 2 ** 31 - 1
_addressof, _byref, _from_buffer = ctypes.addressof, ctypes.byref, ctypes.c_char.from_buffer
_address = _vml._address


def _signatures() -> dict:
    """(routine, dtype) -> the ``cblas_?routine`` name, argument types and result type.

    Complex products take their scalars by address; Ember calls the batched matrix product
    and the dots (``?dotu_sub``/``?dotc_sub``, which return through a pointer) for them.
    ``?gemm`` itself is bound without argument types (:func:`_raw_gemm`)."""
    i, p = ctypes.c_int, ctypes.c_void_p
    ip = ctypes.POINTER(ctypes.c_int)
    table = {}
    for dtype, (prefix, real) in _PREFIX.items():
        rp = ctypes.POINTER(real)
        if dtype.kind == "c":
            real = rp = p
        for routine, types, result in (
                ("gemv", (i, i, i, i, real, p, i, p, i, real, p, i), None),
                ("dot", (i, p, i, p, i), real),
                ("dotu_sub", (i, p, i, p, i, p), None),
                ("dotc_sub", (i, p, i, p, i, p), None),
                # gemm_batch: arrays of one group's arguments
                ("gemm_batch", (i, ip, ip, ip, ip, ip, rp, p, ip, p, ip, rp, p, ip, i, ip),
                 None)):
            # (complex types: the batched product and the dots by address; real ones: the rest)
            if "gemm" in routine or routine.endswith("_sub") == (dtype.kind == "c"):
                table[routine, dtype] = ("cblas_" + prefix + routine, types, result)
    return table


_SIGNATURES = _signatures()


def _fn(routine: str, dtype: np.dtype):
    """MKL's ``cblas_?routine`` for ``dtype`` (float32/float64; complex64/complex128 for the
    batched product), or None."""
    sig = _SIGNATURES.get((routine, dtype))
    return None if sig is None else _vml.bind(*sig)


def _ref(dtype: np.dtype, value):
    """A BLAS scalar of ``dtype`` passed by address (``gemm_batch``'s, complex ``gemm``'s)."""
    real = _PREFIX[dtype][1]
    if dtype.kind == "c":
        value = complex(value)
        return ctypes.byref((real * 2)(value.real, value.imag))
    return ctypes.byref(real(value))


def _scalar(dtype: np.dtype, value):
    """A ``?gemm`` scalar argument: by value for real types, by address for complex ones."""
    return _ref(dtype, value) if dtype.kind == "c" else value


def aligned_empty(shape, dtype, zero: bool = False) -> np.ndarray:
    """A C-contiguous array starting on a 64-byte boundary, as c10's allocator places a
    tensor: MKL rounds some small products by their output's alignment."""
    dtype = np.dtype(dtype)
    n = math.prod(shape) * dtype.itemsize
    raw = np.zeros(n + 64, np.uint8) if zero else np.empty(n + 64, np.uint8)
    start = -_addressof(_from_buffer(raw)) % 64
    return raw[start:start + n].view(dtype).reshape(shape)


def available(dtype) -> bool:
    """Whether MKL's BLAS computes products of ``dtype`` (torch's bits)."""
    return _raw_gemm(np.dtype(dtype)) is not None


def _elem_strides(a: np.ndarray):
    """The strides of ``a`` in elements, or None where BLAS cannot take them."""
    size = a.itemsize
    strides = a.strides
    if any(s < 0 or s % size for s in strides):
        return None
    return tuple(s // size for s in strides)


def _operand(x: np.ndarray, rows_t: int, cols_t: int, transpose_c: bool, lead_n: int,
             lead_t: int):
    """ATen's cast of a product's operand to a BLAS matrix: ``(array, transposed, ld)``.

    ``rows_t``/``cols_t`` index the operand's dims as the column-major call sees them
    (swapped when the result is row-major); ``lead_n``/``lead_t`` are the least leading
    dimensions a plain or a transposed operand needs."""
    size = x.itemsize
    st = x.strides
    sr, sc = st[rows_t], st[cols_t]
    if sr >= 0 and sc >= 0 and not (sr % size or sc % size):
        sr //= size
        sc //= size
        if sr == 1 and sc >= max(1, lead_n):
            return x, False, sc
        if sc == 1 and sr >= max(1, lead_t):
            return x, True, sr
    # ATen: clone(Contiguous), transposed = !transpose_c, ld = the row-major row length
    return np.ascontiguousarray(x), not transpose_c, max(1, x.shape[1])


def addmm(c: np.ndarray | None, m1: np.ndarray, m2: np.ndarray, beta=0, alpha=1):
    """``beta * c + alpha * (m1 @ m2)`` as ATen's ``addmm_impl_cpu_`` computes it into a
    fresh contiguous result (``c`` broadcast to it; None with ``beta`` 0), or None."""
    dtype = m1.dtype
    if m2.dtype != dtype or (c is not None and c.dtype != dtype):
        return None
    if m1.__class__ is MetaArray or m2.__class__ is MetaArray:
        return None         # (meta stand-ins: NumPy's matmul gives their shape, computing none)
    if _raw_gemm(dtype) is None:
        return None
    m, k = m1.shape
    n = m2.shape[1]
    out = np.empty((m, n), dtype)
    if beta != 0 and c is not None:
        out[...] = c
    if out.size == 0:
        return out
    if k == 0:
        if beta == 0 or c is None:
            out.fill(0)
        else:
            out *= dtype.type(beta)
        return out
    # the result is contiguous: row-major unless it has one column (ATen's strides test)
    transpose_c = n != 1
    if transpose_c:
        m1, m2 = m2, m1
        rows, cols, kk = n, m, k
    else:
        rows, cols, kk = m, n, k
    # an operand's first dim is the call's row dim unless transpose_c swapped the roles
    r, q = (1, 0) if transpose_c else (0, 1)
    a, ta, lda = _operand(m1, r, q, transpose_c, rows, kk)
    b, tb, ldb = _operand(m2, r, q, transpose_c, kk, cols)
    ldc = n if transpose_c else m
    if not gemm(ta, tb, rows, cols, kk, alpha, a, lda, b, ldb,
                0.0 if beta == 0 or c is None else beta, out, ldc):
        return None
    return out


def _normalize(ta, tb, m, n, k, lda, ldb, ldc):
    """``cpublas::normalize_last_dims``: the leading dims BLAS is given for degenerate sizes."""
    if n == 1:
        ldc = m
    if ta:
        if m == 1:
            lda = k
    elif k == 1:
        lda = m
    if tb:
        if k == 1:
            ldb = n
    elif n == 1:
        ldb = k
    return lda, ldb, ldc


def gemm(ta: bool, tb: bool, m: int, n: int, k: int, alpha, a: np.ndarray, lda: int,
         b: np.ndarray, ldb: int, beta, c: np.ndarray, ldc: int) -> bool:
    """``cpublas::gemm``: one column-major ``?gemm`` (``c = alpha * op(a) @ op(b) + beta *
    c``) on arrays whose first elements are the matrices' origins, as ATen's kernels call it;
    False where MKL or the BLAS path does not apply (nothing written)."""
    dt = c.dtype
    call = _RAW.get(dt) or _raw_gemm(dt)
    if call is None:
        return False
    lda, ldb, ldc = _normalize(ta, tb, m, n, k, lda, ldb, ldc)
    if max(m, n, k, lda, ldb, ldc) > _INT_MAX or lda < max(1, k if ta else m) \
            or ldb < max(1, n if tb else k) or ldc < max(1, m):
        return False
    fn, scalar = call
    fn(_COL_MAJOR, _T if ta else _N, _T if tb else _N, m, n, k, scalar(alpha), pointer(a),
       lda, pointer(b), ldb, scalar(beta), pointer(c), ldc)
    return True


_RAW: dict = {}         # dtype -> (cblas_?gemm bound without argument types, its scalar)


def _raw_gemm(dtype: np.dtype):
    """``cblas_?gemm`` for ``dtype`` bound without ``argtypes`` (ctypes' conversions
    through them cost a fifth of a small product's call): (function, scalar maker), the
    scalar by address for complex types; None without MKL or for another dtype."""
    call = _RAW.get(dtype, False)
    if call is False:
        call = None
        lib = _vml.library()
        if lib is not None and dtype in _PREFIX:
            prefix, real = _PREFIX[dtype]
            fn = lib["cblas_" + prefix + "gemm"]        # a fresh binding: no argtypes
            fn.restype = None
            call = fn, (real if dtype.kind != "c" else lambda v: _ref(dtype, v))
        _RAW[dtype] = call
    return call




def pointer(a: np.ndarray):
    """A ctypes pointer argument to ``a``'s first element: from its buffer where that is
    writable and contiguous (a transposed matrix's buffer is its transpose's), else through
    ``a.ctypes`` (several times slower)."""
    flags = a.flags
    if flags.writeable and a.size:
        if flags.c_contiguous:
            return _byref(_from_buffer(a))
        if flags.f_contiguous:
            return _byref(_from_buffer(a.T))
    return ctypes.c_void_p(a.ctypes.data)


@contextlib.contextmanager
def one_thread():
    """MKL on one thread in this block: ATen's kernels call BLAS inside ``parallel_for``,
    where MKL runs sequentially (a product's bits depend on its thread count)."""
    lib = _vml.library()
    before = lib.MKL_Set_Num_Threads_Local(1) if lib is not None else None
    try:
        yield
    finally:
        if lib is not None:
            lib.MKL_Set_Num_Threads_Local(before)


def addmv(c: np.ndarray | None, mat: np.ndarray, vec: np.ndarray, beta=0, alpha=1):
    """``beta * c + alpha * (mat @ vec)`` as ATen's ``addmv_out_cpu`` computes it, or None."""
    dtype = mat.dtype
    if vec.dtype != dtype or (c is not None and c.dtype != dtype):
        return None
    fn = _fn("gemv", dtype)
    sm, sv = _elem_strides(mat), _elem_strides(vec)
    if fn is None or sm is None or sv is None or mat.size == 0:
        return None
    rows, cols = mat.shape
    out = np.empty(rows, dtype)
    if beta != 0 and c is not None:
        out[...] = c
    incx = sv[0] if cols > 1 else 1
    if sm[0] == 1 and (cols == 1 or sm[1] >= max(1, rows)):
        trans, m, n, lda = _N, rows, cols, sm[1]
    elif sm[1] == 1 and (rows == 1 or sm[0] >= max(1, cols)):
        trans, m, n, lda = _T, cols, rows, sm[0]
    else:
        mat = np.ascontiguousarray(mat)
        trans, m, n, lda = _T, cols, rows, cols
    if n == 1:                       # ATen's gemv: a one-column matrix's lda is m
        lda = m
    if incx <= 0 or lda < max(1, m) or max(m, n, lda, incx) > _INT_MAX:
        return None
    fn(_COL_MAJOR, trans, m, n, alpha, _address(mat), lda, _address(vec), incx,
       0.0 if beta == 0 or c is None else beta, _address(out), 1)
    return out


def dot(x: np.ndarray, y: np.ndarray, conj: bool = False):
    """ATen's ``dot`` of two 1-d arrays (``sdot``/``ddot``, ``cdotu``/``zdotu`` for complex
    ones; ``vdot``'s ``cdotc``/``zdotc`` where ``conj``) as a 0-d array, or None."""
    dtype = x.dtype
    if y.dtype != dtype:
        return None
    complex_ = dtype.kind == "c"
    fn = _fn(("dotc_sub" if conj else "dotu_sub") if complex_ else "dot", dtype)
    sx, sy = _elem_strides(x), _elem_strides(y)
    if fn is None or sx is None or sy is None:
        return None
    n = x.shape[0]
    incx, incy = (1, 1) if n == 1 else (sx[0], sy[0])
    if max(n, incx, incy) > _INT_MAX:
        return None
    if complex_:
        res = np.zeros(1, dtype)
        fn(n, _address(x), incx, _address(y), incy, _address(res))
        return res.reshape(())
    return np.array(fn(n, _address(x), incx, _address(y), incy), dtype)


def baddbmm(c: np.ndarray | None, b1: np.ndarray, b2: np.ndarray, beta=0, alpha=1):
    """``beta * c + alpha * (b1 @ b2)`` per batch, on ATen's ``bmm_out_or_baddbmm_`` paths:
    its own loop below 400 multiply-adds a batch, MKL's batched gemm for batches of
    contiguous or transposed matrices, ``addmm`` batch by batch otherwise. None without
    MKL or for another dtype."""
    dtype = b1.dtype
    if b2.dtype != dtype or (c is not None and c.dtype != dtype) or _raw_gemm(dtype) is None:
        return None
    bs, rows, kk = b1.shape
    cols = b2.shape[2]
    keep = beta != 0 and c is not None
    out = np.empty((bs, rows, cols), dtype)
    if keep:
        out[...] = c
    if out.size == 0:
        return out
    if kk == 0:
        if keep:
            out *= dtype.type(beta)
        else:
            out.fill(0)
        return out
    if kk * rows * cols < 400:
        return _bmm_loop(out if keep else None, b1, b2, beta, alpha)
    if _items_ok(b1) and _items_ok(b2):
        _gemm_batch(out, b1, b2, beta if keep else 0, alpha)
        return out
    for i in range(bs):
        out[i] = addmm(out[i] if keep else None, b1[i], b2[i], beta if keep else 0, alpha)
    return out


def _items_ok(t: np.ndarray) -> bool:
    """ATen's ``batch_items_contiguous_or_transposed``."""
    s = _elem_strides(t)
    if s is None:
        return False
    _, r, q = t.shape
    return (s[2] == 1 and (r == 1 or s[1] >= q)) or (s[1] == 1 and (q == 1 or s[2] >= r))


def _bmm_loop(c, b1, b2, beta, alpha):
    """ATen's ``baddbmm_cpu_kernel``: each element a sequential sum of products in the
    accumulation type (no fused multiply-add), then scaled and added to ``c``."""
    acc = np.zeros((b1.shape[0], b1.shape[1], b2.shape[2]), b1.dtype)
    product = complex_product if acc.dtype.kind == "c" else np.multiply
    for k in range(b1.shape[2]):
        acc += product(b1[:, :, k, None], b2[:, None, k, :])
    if c is None and alpha == 1:
        return acc
    t = acc.dtype.type
    if c is None or beta == 0:
        return t(alpha) * acc
    return c * t(beta) + t(alpha) * acc


def _gemm_batch(out, b1, b2, beta, alpha):
    """ATen's ``baddbmm_with_gemm_``: one ``cblas_?gemm_batch`` group over the batch (a
    single gemm for a batch of one), the result row-major so the operands swap."""
    s1, s2 = _elem_strides(b1), _elem_strides(b2)
    bs, n, _ = b1.shape
    m, k = b2.shape[2], b2.shape[1]
    ta = s2[1] == 1 and s2[2] >= b2.shape[1]
    tb = s1[1] == 1 and s1[2] >= b1.shape[1]
    lda = s2[2 if ta else 1]
    ldb = s1[2 if tb else 1]
    ldc = m
    if bs == 1:                      # cpublas::gemm_batched_with_stride: one plain gemm
        gemm(ta, tb, m, n, k, alpha, b2, lda, b1, ldb, beta, out, ldc)
        return
    lda, ldb, ldc = _normalize(ta, tb, m, n, k, lda, ldb, ldc)
    dtype = out.dtype
    pa, pb, pc = _address(b2), _address(b1), _address(out)
    fn = _fn("gemm_batch", dtype)
    i = ctypes.c_int
    step1, step2, stepc = s1[0] * b1.itemsize, s2[0] * b2.itemsize, m * n * out.itemsize
    ptrs = ctypes.c_void_p * bs
    a_ptrs = ptrs(*[pa + j * step2 for j in range(bs)])
    b_ptrs = ptrs(*[pb + j * step1 for j in range(bs)])
    c_ptrs = ptrs(*[pc + j * stepc for j in range(bs)])
    fn(_COL_MAJOR, ctypes.byref(i(_T if ta else _N)), ctypes.byref(i(_T if tb else _N)),
       ctypes.byref(i(m)), ctypes.byref(i(n)), ctypes.byref(i(k)), _ref(dtype, alpha),
       a_ptrs, ctypes.byref(i(lda)), b_ptrs, ctypes.byref(i(ldb)), _ref(dtype, beta),
       c_ptrs, ctypes.byref(i(ldc)), 1, ctypes.byref(i(bs)))
