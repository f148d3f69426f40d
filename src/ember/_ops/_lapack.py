"""MKL's LAPACK, called as ATen's CPU kernels call it: torch's linalg bits.

torch's CPU linalg hands each matrix of a batch to LAPACK's Fortran interface
(``BatchLinearAlgebraKernel.cpp``: ``apply_cholesky``, ``apply_geqrf``, ``apply_orgqr``,
``apply_ormqr``, ``apply_lu_factor``, ``apply_lu_solve``, ``apply_lapack_eigh`` …): the
matrices are first copied to batched column-major order (each matrix Fortran-contiguous,
the batch outermost), a workspace query (``lwork = -1``) sizes one workspace for the whole
batch, and the routine runs matrix by matrix. Where MKL's runtime is installed (``_vml``),
Ember makes the same calls with the same arguments and gets torch's results bit for bit, on
torch's thread count. Every function returns None where MKL is absent or the dtype is not
one LAPACK takes; the callers then compute with NumPy.

Results are batched column-major arrays, the layout torch's results have (their strides
are torch's).
"""

from __future__ import annotations

import ctypes
import math

import numpy as np

from . import _vml

_PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d",
           np.dtype(np.complex64): "c", np.dtype(np.complex128): "z"}
_int = ctypes.c_int


def _fn(routine: str, dtype: np.dtype):
    """MKL's ``?routine_`` for ``dtype`` (``"potrf"`` → ``spotrf_`` …), or None.

    Routines named ``or…`` (real) are ``un…`` for complex dtypes, as in LAPACK."""
    dtype = np.dtype(dtype)
    prefix = _PREFIX.get(dtype)
    if prefix is None:
        return None
    if dtype.kind == "c" and routine.startswith("or"):
        routine = "un" + routine[2:]
    if routine == "syevd" and dtype.kind == "c":
        routine = "heevd"
    return _vml.bind(prefix + routine + "_")


def available(dtype) -> bool:
    """Whether MKL's LAPACK computes for ``dtype`` (float32/64, complex64/128)."""
    return _fn("potrf", dtype) is not None


# ----------------------------------------------------------------------------- arguments

def _i(v: int):
    return ctypes.byref(_int(v))


def _c(ch: str):
    return ctypes.c_char_p(ch.encode())


def column_major(a: np.ndarray, shape=None) -> np.ndarray:
    """A fresh batched column-major copy of ``a`` (ATen's ``cloneBatchedColumnMajor``),
    broadcast to ``shape`` where given."""
    shape = a.shape if shape is None else tuple(shape)
    out = np.empty(shape[:-2] + (shape[-1], shape[-2]), a.dtype).swapaxes(-1, -2)
    out[...] = a
    return out


def _matrices(a: np.ndarray):
    """The address of each matrix of a batched column-major array, batch order."""
    count = math.prod(a.shape[:-2])
    base, step = a.ctypes.data, a.shape[-1] * a.shape[-2] * a.itemsize
    return [base + i * step for i in range(count)]


def _ptr(a: np.ndarray) -> int:
    return a.ctypes.data


def _work_to_int(w) -> int:
    """ATen's ``lapack_work_to_int``: the queried size, one ulp up, rounded up, at least 1."""
    v = w.real.dtype.type(w.real)
    return max(1, math.ceil(float(np.nextafter(v, v.dtype.type(np.inf)))))


def _work(dtype, size: int) -> np.ndarray:
    return np.empty(max(1, size), dtype)


def _real(dtype) -> np.dtype:
    return np.empty(0, dtype).real.dtype


# ----------------------------------------------------------------------------- cholesky

def potrf(a: np.ndarray, upper: bool):
    """``apply_cholesky``: ``?potrf`` on a column-major copy of ``a``; ``(factor, info)``
    with the other triangle zeroed (``linalg_cholesky_ex``'s ``triu_``/``tril_``), or None."""
    fn = _fn("potrf", a.dtype)
    if fn is None:
        return None
    n = a.shape[-1]
    f = column_major(a)
    info = np.zeros(a.shape[:-2], np.int32)
    flat = info.reshape(-1)
    out = _int()
    uplo = _c("U" if upper else "L")
    for k, p in enumerate(_matrices(f)):
        fn(uplo, _i(n), ctypes.c_void_p(p), _i(max(1, n)), ctypes.byref(out))
        flat[k] = out.value
    f[...] = np.triu(f) if upper else np.tril(f)
    return f, info


def potrs(b: np.ndarray, factor: np.ndarray, upper: bool):
    """``apply_cholesky_solve``: ``?potrs`` of column-major copies of ``b`` and the factor
    (batches already broadcast), or None."""
    fn = _fn("potrs", b.dtype)
    if fn is None:
        return None
    n, nrhs = b.shape[-2:]
    x, f = column_major(b), column_major(factor)
    out = _int()
    for pb, pa in zip(_matrices(x), _matrices(f)):
        fn(_c("U" if upper else "L"), _i(n), _i(nrhs), ctypes.c_void_p(pa), _i(max(1, n)),
           ctypes.c_void_p(pb), _i(max(1, n)), ctypes.byref(out))
    return x


def potri(factor: np.ndarray, upper: bool):
    """``apply_cholesky_inverse``: ``?potri`` on a column-major copy of the factor, then the
    triangle LAPACK left alone filled with the conjugate of the other; or None."""
    fn = _fn("potri", factor.dtype)
    if fn is None:
        return None
    n = factor.shape[-1]
    f = column_major(factor)
    out = _int()
    for p in _matrices(f):
        fn(_c("U" if upper else "L"), _i(n), ctypes.c_void_p(p), _i(max(1, n)),
           ctypes.byref(out))
    # the other triangle takes copies of its mirror (a -0 stays -0, as in torch's result)
    rows, cols = np.indices((n, n))
    empty = rows < cols if not upper else rows > cols
    mirror = f.swapaxes(-1, -2)
    f[...] = np.where(empty, mirror.conj() if f.dtype.kind == "c" else mirror, f)
    return f


# ----------------------------------------------------------------------------- householder

def geqrf(f: np.ndarray):
    """``apply_geqrf`` in place on the batched column-major ``f``: returns ``tau`` (or None
    without MKL, ``f`` untouched)."""
    fn = _fn("geqrf", f.dtype)
    if fn is None:
        return None
    m, n = f.shape[-2:]
    k = min(m, n)
    tau = np.zeros(f.shape[:-2] + (k,), f.dtype)
    if f.size == 0:
        return tau
    lda, info = max(1, m), _int()
    wk = np.empty(1, f.dtype)
    fn(_i(m), _i(n), ctypes.c_void_p(f.ctypes.data), _i(lda),
       ctypes.c_void_p(tau.ctypes.data), ctypes.c_void_p(_ptr(wk)), _i(-1),
       ctypes.byref(info))
    lwork = max(n, _work_to_int(wk[0]))
    work = _work(f.dtype, lwork)
    taus = tau.reshape(-1, k)
    for j, p in enumerate(_matrices(f)):
        fn(_i(m), _i(n), ctypes.c_void_p(p), _i(lda), ctypes.c_void_p(_ptr(taus[j])),
           ctypes.c_void_p(_ptr(work)), _i(lwork), ctypes.byref(info))
    return tau


def orgqr(f: np.ndarray, tau: np.ndarray) -> bool:
    """``apply_orgqr`` in place on the batched column-major ``f`` (m×n, m ≥ n ≥ k) with
    the batch's ``tau`` (a C-contiguous ``(..., k)``); False without MKL."""
    fn = _fn("orgqr", f.dtype)
    if fn is None:
        return False
    if f.size == 0:
        return True
    m, n = f.shape[-2:]
    k = tau.shape[-1]
    tau = np.ascontiguousarray(tau).reshape(-1, k) if k else np.zeros((1, 1), f.dtype)
    lda, info = max(1, m), _int()
    wk = np.empty(1, f.dtype)
    fn(_i(m), _i(n), _i(k), ctypes.c_void_p(f.ctypes.data), _i(lda),
       ctypes.c_void_p(_ptr(tau[0])), ctypes.c_void_p(_ptr(wk)), _i(-1),
       ctypes.byref(info))
    lwork = _work_to_int(wk[0])
    work = _work(f.dtype, lwork)
    for j, p in enumerate(_matrices(f)):
        fn(_i(m), _i(n), _i(k), ctypes.c_void_p(p), _i(lda),
           ctypes.c_void_p(_ptr(tau[j if k else 0])), ctypes.c_void_p(_ptr(work)),
           _i(lwork), ctypes.byref(info))
    return True


def ormqr(a: np.ndarray, tau: np.ndarray, c: np.ndarray, left: bool, transpose: bool):
    """``apply_ormqr``: ``op(Q) C`` (or ``C op(Q)``) on column-major copies, batches
    already broadcast; or None."""
    fn = _fn("ormqr", c.dtype)
    if fn is None:
        return None
    a, x = column_major(a), column_major(c)
    m, n = x.shape[-2:]
    k = tau.shape[-1]
    tau = np.ascontiguousarray(tau).reshape(-1, max(1, k)) if k else np.zeros((1, 1), c.dtype)
    if x.size == 0:
        return x
    side, trans = _c("L" if left else "R"), _c(("C" if c.dtype.kind == "c" else "T")
                                                if transpose else "N")
    lda, ldc, info = max(1, m if left else n), max(1, m), _int()
    wk = np.empty(1, c.dtype)
    pa, px = _matrices(a), _matrices(x)
    fn(side, trans, _i(m), _i(n), _i(k), ctypes.c_void_p(pa[0]), _i(lda),
       ctypes.c_void_p(_ptr(tau[0])), ctypes.c_void_p(px[0]), _i(ldc),
       ctypes.c_void_p(_ptr(wk)), _i(-1), ctypes.byref(info))
    lwork = max(1, int(wk[0].real))
    work = _work(c.dtype, lwork)
    for j, (qa, qx) in enumerate(zip(pa, px)):
        fn(side, trans, _i(m), _i(n), _i(k), ctypes.c_void_p(qa), _i(lda),
           ctypes.c_void_p(_ptr(tau[j if k else 0])), ctypes.c_void_p(qx), _i(ldc),
           ctypes.c_void_p(_ptr(work)), _i(lwork), ctypes.byref(info))
    return x


def qr(a: np.ndarray, mode: str):
    """``linalg_qr_out``: geqrf on a column-major copy, ``R`` its upper triangle, ``Q`` from
    orgqr on the reflectors (``mode`` ``'reduced'``, ``'complete'`` or ``'r'``); ``(Q, R)``
    (``Q`` empty for ``'r'``), or None."""
    if _fn("geqrf", a.dtype) is None:
        return None
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    qr_ = column_major(a)
    tau = geqrf(qr_)
    rows = m if mode == "complete" else k
    r = np.empty(batch + (n, rows), a.dtype).swapaxes(-1, -2)
    r[...] = np.triu(qr_[..., :rows, :])
    if mode == "r":
        return np.empty((0,), a.dtype), r
    cols = m if mode == "complete" else k
    q = np.zeros(batch + (cols, m), a.dtype).swapaxes(-1, -2)
    q[..., :, :min(cols, n)] = qr_[..., :, :min(cols, n)]
    orgqr(q, tau)
    return q, r


# ----------------------------------------------------------------------------- LU

def getrf(a: np.ndarray):
    """``apply_lu_factor``: ``?getrf`` on a column-major copy of ``a`` (m×n): ``(LU, pivots,
    info)`` with LAPACK's 1-based int32 pivots, or None."""
    fn = _fn("getrf", a.dtype)
    if fn is None:
        return None
    m, n = a.shape[-2:]
    lu = column_major(a)
    batch = a.shape[:-2]
    piv = np.zeros(batch + (min(m, n),), np.int32)
    info = np.zeros(batch, np.int32)
    if lu.size == 0:
        return lu, piv, info
    pivs, infos, out = piv.reshape(-1, min(m, n)), info.reshape(-1), _int()
    for j, p in enumerate(_matrices(lu)):
        fn(_i(m), _i(n), ctypes.c_void_p(p), _i(max(1, m)), ctypes.c_void_p(_ptr(pivs[j])),
           ctypes.byref(out))
        infos[j] = out.value
    return lu, piv, info


def lu_solve(lu: np.ndarray, piv: np.ndarray, b: np.ndarray, left: bool, adjoint: bool):
    """``linalg_lu_solve_out``: ``?getrs`` on a column-major copy of ``B`` (``Bᴴ`` when not
    ``left``, with the adjoint flag flipped), each matrix with its (broadcast) factors; the
    result ``Xᴴ`` turned back when not ``left``. None without MKL."""
    fn = _fn("getrs", b.dtype)
    if fn is None:
        return None
    n = lu.shape[-1]
    batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    if not left:
        adjoint = not adjoint
        b = b.swapaxes(-1, -2)
        b = b.conj() if b.dtype.kind == "c" else b
    x = column_major(b, batch + b.shape[-2:])
    if x.size:
        lu = lu if _is_column_major(lu) else column_major(lu)
        pivs = np.ascontiguousarray(piv, np.int32).reshape(-1, n)
        count = math.prod(lu.shape[:-2])
        which = np.broadcast_to(np.arange(count).reshape(lu.shape[:-2]), batch).reshape(-1)
        trans = _c(("C" if b.dtype.kind == "c" else "T") if adjoint else "N")
        pa, nrhs, out = _matrices(lu), x.shape[-1], _int()
        for px, j in zip(_matrices(x), which):
            fn(trans, _i(n), _i(nrhs), ctypes.c_void_p(pa[j]), _i(max(1, n)),
               ctypes.c_void_p(_ptr(pivs[j])), ctypes.c_void_p(px), _i(max(1, n)),
               ctypes.byref(out))
    if not left:
        x = x.swapaxes(-1, -2)
        x = x.conj() if x.dtype.kind == "c" else x
    return x


def _is_column_major(a: np.ndarray) -> bool:
    """Whether ``a`` is a dense batch of Fortran-contiguous matrices, batch outermost."""
    if a.ndim < 2:
        return False
    m, n = a.shape[-2:]
    size = a.itemsize
    want = [size, size * m]
    step = size * m * n
    for d in reversed(a.shape[:-2]):
        want.insert(0, step)
        step *= d
    return all(s == w or d == 1 for s, w, d in zip(a.strides, [*want[:-2], *want[-2:]],
                                                     a.shape))


def solve(a: np.ndarray, b: np.ndarray, left: bool):
    """``_linalg_solve_ex_out``: getrf on ``A``, getrs on ``B``; ``(X, info)`` or None.
    ``b`` is a matrix (or batch); vector right-hand sides are the caller's."""
    if _fn("getrf", a.dtype) is None:
        return None
    lu, piv, info = getrf(a)
    return lu_solve(lu, piv, b, left, False), info


def lu_det(a: np.ndarray):
    """``_linalg_det_out``'s factorization: LU of ``Aᴴ`` where ``A`` is contiguous and real,
    of ``A`` otherwise; ``(LU, pivots, info)`` or None."""
    if _fn("getrf", a.dtype) is None:
        return None
    use_t = a.flags.c_contiguous and a.dtype.kind != "c"
    return getrf(a.swapaxes(-1, -2) if use_t else a)


# ----------------------------------------------------------------------------- eigh, svd

def _null():
    return ctypes.c_void_p(0)


def eigh(a: np.ndarray, upper: bool, vectors: bool):
    """``apply_lapack_eigh``: ``?syevd``/``?heevd`` (``jobz`` ``'V'`` or ``'N'``) on a
    column-major copy of ``a``; ``(eigenvalues, eigenvectors, info)`` (the vectors are the
    overwritten copy), or None. Stops at the first matrix that fails, as ATen."""
    fn = _fn("syevd", a.dtype)
    if fn is None:
        return None
    n = a.shape[-1]
    v = column_major(a)
    real = _real(a.dtype)
    w = np.zeros(a.shape[:-1], real)
    info = np.zeros(a.shape[:-2], np.int32)
    if v.size == 0:
        return w, v, info
    cplx = a.dtype.kind == "c"
    jobz, uplo, lda = _c("V" if vectors else "N"), _c("U" if upper else "L"), max(1, n)
    wk, rwk, iwk, out = np.empty(1, a.dtype), np.empty(1, real), np.zeros(1, np.int32), _int()
    ws = w.reshape(-1, n)

    def call(p, wp, work, lwork, rwork, lrwork, iwork, liwork):
        args = [jobz, uplo, _i(n), ctypes.c_void_p(p), _i(lda), ctypes.c_void_p(wp),
                ctypes.c_void_p(_ptr(work)), _i(lwork)]
        if cplx:
            args += [ctypes.c_void_p(_ptr(rwork)), _i(lrwork)]
        fn(*args, ctypes.c_void_p(_ptr(iwork)), _i(liwork), ctypes.byref(out))

    mats = _matrices(v)
    call(mats[0], _ptr(ws[0]), wk, -1, rwk, -1, iwk, -1)
    lwork, liwork = _work_to_int(wk[0]), max(1, int(iwk[0]))
    lrwork = _work_to_int(rwk[0]) if cplx else 0
    work, iwork = _work(a.dtype, lwork), np.empty(liwork, np.int32)
    rwork = _work(real, lrwork) if cplx else rwk
    flat = info.reshape(-1)
    for j, p in enumerate(mats):
        call(p, _ptr(ws[j]), work, lwork, rwork, lrwork, iwork, liwork)
        flat[j] = out.value
        if out.value:
            break
    return w, v, info


def svd(a: np.ndarray, full_matrices: bool, compute_uv: bool):
    """``apply_svd``: ``?gesdd`` (``jobz`` ``'A'``, ``'S'`` or ``'N'``) on a column-major copy
    of ``a``; ``(U, S, Vh, info)`` with ``U``/``Vh`` column-major (None without ``compute_uv``),
    or None."""
    fn = _fn("gesdd", a.dtype)
    if fn is None:
        return None
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    real = _real(a.dtype)
    x = column_major(a)
    s = np.zeros(batch + (k,), real)
    info = np.zeros(batch, np.int32)
    u = vh = None
    if compute_uv:
        ucols, vrows = (m, n) if full_matrices else (k, k)
        u = np.zeros(batch + (ucols, m), a.dtype).swapaxes(-1, -2)
        vh = np.zeros(batch + (n, vrows), a.dtype).swapaxes(-1, -2)
    if x.size == 0:
        return u, s, vh, info
    jobz = _c(("A" if full_matrices else "S") if compute_uv else "N")
    ldu, ldvh = (m, vh.shape[-2]) if compute_uv else (1, 1)
    cplx = a.dtype.kind == "c"
    iwork = np.empty(max(1, 8 * k), np.int32)
    rwork = _work(real, _lrwork(jobz.value.decode(), m, n)) if cplx else None
    mats = _matrices(x)
    us = _matrices(u) if compute_uv else [0] * len(mats)
    vs = _matrices(vh) if compute_uv else [0] * len(mats)
    ss = s.reshape(-1, k)
    out = _int()

    def call(j, work, lwork):
        args = [jobz, _i(m), _i(n), ctypes.c_void_p(mats[j]), _i(max(1, m)),
                ctypes.c_void_p(_ptr(ss[j])),
                ctypes.c_void_p(us[j]) if compute_uv else _null(), _i(ldu),
                ctypes.c_void_p(vs[j]) if compute_uv else _null(), _i(ldvh),
                ctypes.c_void_p(_ptr(work)), _i(lwork)]
        if cplx:
            args.append(ctypes.c_void_p(_ptr(rwork)))
        fn(*args, ctypes.c_void_p(_ptr(iwork)), ctypes.byref(out))
        return out.value

    wk = np.empty(1, a.dtype)
    call(0, wk, -1)
    lwork = _work_to_int(wk[0])
    work = _work(a.dtype, lwork)
    flat = info.reshape(-1)
    for j in range(len(mats)):
        flat[j] = call(j, work, lwork)
    return u, s, vh, info


def _lrwork(jobz: str, m: int, n: int) -> int:
    """ATen's ``computeLRWorkDim``: the real workspace of complex gesdd."""
    mn, mx = min(m, n), max(m, n)
    if jobz == "N":
        return max(1, 5 * mn)
    if mx > 10 * mn:
        return max(1, 5 * mn * mn + 5 * mn)
    return max(1, 5 * mn * mn + 5 * mn, 2 * mx * mn + 2 * mn * mn + mn)


# ----------------------------------------------------------------------------- lstsq

def lstsq(a: np.ndarray, b: np.ndarray, rcond: float, driver: str):
    """``linalg_lstsq_out_info``/``apply_lstsq``: the driver (``gels``, ``gelsy``, ``gelsd``,
    ``gelss``) on a column-major copy of ``A`` and ``B`` in the top rows of a column-major
    ``(max(m, n), nrhs)`` buffer, the batches of ``A`` and ``B`` alike. Returns ``(buffer,
    rank, singular_values, info)`` (rank and singular values None where the driver gives
    none), or None."""
    fn = _fn(driver, a.dtype)
    if fn is None:
        return None
    m, n = a.shape[-2:]
    nrhs = b.shape[-1]
    batch = a.shape[:-2]
    cplx = a.dtype.kind == "c"
    real = _real(a.dtype)
    x = np.zeros(batch + (nrhs, max(m, n)), a.dtype).swapaxes(-1, -2)
    x[..., :m, :] = b
    a = column_major(a)
    rank = np.zeros(batch, np.int64) if driver != "gels" else None
    s = np.zeros(batch + (min(m, n),), real) if driver in ("gelsd", "gelss") else None
    info = np.zeros(batch, np.int32)
    if a.size == 0 or x.size == 0:
        return x, rank, s, info
    lda, ldb = max(1, m), max(1, m, n)
    # ATen hands gelsy an uninitialized ``jpvt`` (``at::empty``), once for the whole batch:
    # a nonzero entry fixes its column ahead of the pivoted ones, so torch's first matrix is
    # pivoted as leftover heap bytes say (mostly nonzero: no pivoting), and every later one
    # starts from the permutation the one before returned (all nonzero: no pivoting)
    jpvt = np.ones(max(1, n), np.int32)
    rc = (ctypes.c_float if real == np.float32 else ctypes.c_double)(real.type(rcond))
    rank32, out = _int(), _int()
    ss = s.reshape(-1, min(m, n)) if s is not None else None

    def call(pa, pb, j, work, lwork, rwork, iwork):
        head = [_i(m), _i(n), _i(nrhs), ctypes.c_void_p(pa), _i(lda), ctypes.c_void_p(pb),
                _i(ldb)]
        w = [ctypes.c_void_p(_ptr(work)), _i(lwork)]
        r = [ctypes.c_void_p(_ptr(rwork))] if cplx else []
        if driver == "gels":
            fn(_c("N"), *head, *w, ctypes.byref(out))
        elif driver == "gelsy":
            fn(*head, ctypes.c_void_p(_ptr(jpvt)), ctypes.byref(rc), ctypes.byref(rank32),
               *w, *r, ctypes.byref(out))
        elif driver == "gelsd":
            fn(*head, ctypes.c_void_p(_ptr(ss[j])), ctypes.byref(rc), ctypes.byref(rank32),
               *w, *r, ctypes.c_void_p(_ptr(iwork)), ctypes.byref(out))
        else:
            fn(*head, ctypes.c_void_p(_ptr(ss[j])), ctypes.byref(rc), ctypes.byref(rank32),
               *w, *r, ctypes.byref(out))
        return out.value

    pas, pbs = _matrices(a), _matrices(x)
    wk, rwk, iwk = np.empty(1, a.dtype), np.zeros(1, real), np.zeros(1, np.int32)
    call(pas[0], pbs[0], 0, wk, -1, rwk, iwk)
    lwork = _work_to_int(wk[0])
    work = _work(a.dtype, lwork)
    rlen = {"gelsy": max(1, 2 * n), "gelss": max(1, 5 * min(m, n))}.get(
        driver, max(1, int(rwk[0])))
    rwork = _work(real, rlen) if cplx else rwk
    iwork = np.empty(max(1, int(iwk[0])), np.int32)
    ranks, infos = (rank.reshape(-1) if rank is not None else None), info.reshape(-1)
    for j, (pa, pb) in enumerate(zip(pas, pbs)):
        infos[j] = call(pa, pb, j, work, lwork, rwork, iwork)
        if ranks is not None:
            ranks[j] = rank32.value
    return x, rank, s, info


# ----------------------------------------------------------------------------- eig

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


def eig(a: np.ndarray, vectors: bool):
    """``apply_linalg_eig``: ``?geev`` (right eigenvectors only, ``jobvr`` ``'V'`` or
    ``'N'``) on a column-major copy of ``a``; ``(eigenvalues, eigenvectors, info)``,
    complex, the vectors column-major (None without ``vectors``); for real input the pairs
    ``VR(:,j) ± i VR(:,j+1)`` of each complex pair of eigenvalues, as
    ``linalg_eig_make_complex_eigenvectors``. None without MKL."""
    fn = _fn("geev", a.dtype)
    if fn is None:
        return None
    n = a.shape[-1]
    batch = a.shape[:-2]
    cplx = a.dtype.kind == "c"
    x = column_major(a)
    w = np.zeros(batch + ((n,) if cplx else (2 * n,)), a.dtype)
    v = column_major(np.zeros(a.shape, a.dtype)) if vectors else None
    info = np.zeros(batch, np.int32)
    if x.size == 0:
        values = _eig_complex(w, v, n)
        return values, (v.astype(values.dtype) if vectors else None), info
    lda = max(1, n)
    rwork = _work(_real(a.dtype), 2 * lda) if cplx else None
    ws = w.reshape(-1, w.shape[-1])
    vs = _matrices(v) if vectors else None
    out = _int()

    def call(j, p, work, lwork):
        vals = [ctypes.c_void_p(_ptr(ws[j]))]
        if not cplx:
            vals.append(ctypes.c_void_p(_ptr(ws[j]) + n * a.itemsize))
        vr = ctypes.c_void_p(vs[j]) if vectors else _null()
        args = [_c("N"), _c("V" if vectors else "N"), _i(n), ctypes.c_void_p(p), _i(lda),
                *vals, _null(), _i(1), vr, _i(lda if vectors else 1),
                ctypes.c_void_p(_ptr(work)), _i(lwork)]
        if cplx:
            args.append(ctypes.c_void_p(_ptr(rwork)))
        fn(*args, ctypes.byref(out))
        return out.value

    mats = _matrices(x)
    wk = np.empty(1, a.dtype)
    call(0, mats[0], wk, -1)
    lwork = _work_to_int(wk[0])
    work = _work(a.dtype, lwork)
    flat = info.reshape(-1)
    for j, p in enumerate(mats):
        flat[j] = call(j, p, work, lwork)
    values = _eig_complex(w, None, n)
    if cplx or not vectors:
        return values, v, info
    return values, _eig_vectors(values, v), info


def _eig_complex(w, v, n):
    """The complex eigenvalues: ``w`` itself for complex input, ``wr + i wi`` for real."""
    if w.dtype.kind == "c":
        return w
    out = np.empty(w.shape[:-1] + (n,), _COMPLEX_OF[w.dtype])
    out.real, out.imag = w[..., :n], w[..., n:]
    return out


def _eig_vectors(values: np.ndarray, vr: np.ndarray) -> np.ndarray:
    """``linalg_eig_make_complex_eigenvectors_cpu_impl``: complex eigenvectors from geev's
    real ``VR``, column-major."""
    n = vr.shape[-1]
    out = column_major(vr.astype(_COMPLEX_OF[vr.dtype]))
    vals = values.reshape(-1, n)
    outs, vrs = out.reshape((-1,) + out.shape[-2:]), vr.reshape((-1,) + vr.shape[-2:])
    for b in range(vals.shape[0]):
        j = 0
        while j < n:
            if vals[b, j].imag != 0:
                re, im = vrs[b, :, j], vrs[b, :, j + 1]
                outs[b, :, j].real, outs[b, :, j].imag = re, im
                outs[b, :, j + 1].real, outs[b, :, j + 1].imag = re, -im
                j += 1
            j += 1
    return out


# ----------------------------------------------------------------------------- triangular

def _row_or_column_contiguous(a: np.ndarray) -> bool:
    return a.flags.c_contiguous or a.swapaxes(-1, -2).flags.c_contiguous


def solve_triangular(a: np.ndarray, b: np.ndarray, upper: bool, left: bool,
                     unitriangular: bool):
    """``linalg_solve_triangular_out`` and ``apply_triangular_solve``: BLAS ``?trsm`` on a
    column-major copy of ``B`` (batches broadcast), ``A`` passed as it lies in memory where
    it is row- or column-contiguous (the transposition flag and ``upper`` follow), copied
    otherwise; or None. (Ember's arrays carry no lazy conjugation, so ATen's conj/neg cases
    do not arise.)"""
    fn = _fn("trsm", b.dtype)
    if fn is None or a.dtype != b.dtype:
        return None
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    x = column_major(b, batch + b.shape[-2:])
    if x.size == 0:
        return x
    # an F-contiguous result with one row has unit strides: ATen takes it as transposed
    transpose_a = x.shape[-2] == 1
    f = x.swapaxes(-1, -2) if transpose_a else x
    if transpose_a:
        left = not left
    if not _row_or_column_contiguous(a):
        a = np.ascontiguousarray(a) if transpose_a else column_major(a)
        a_f_contig = True
    else:
        a_f_contig = (a.strides[-1] == a.itemsize or a.shape[-1] == 1) == transpose_a
    if a.strides[-1] == a.itemsize or a.shape[-1] == 1:
        upper = not upper
    _trsm(a, f, left, upper, "N" if a_f_contig else "T", unitriangular)
    return x


def triangular_solve(b: np.ndarray, a: np.ndarray, upper: bool, transpose: bool,
                     unitriangular: bool):
    """``torch.triangular_solve``: ``?trsm`` from the left on column-major copies of ``b``
    and ``A`` (batches broadcast); ``(X, A's copy)``, or None."""
    if _fn("trsm", b.dtype) is None or a.dtype != b.dtype:
        return None
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    x, ac = column_major(b, batch + b.shape[-2:]), column_major(a, batch + a.shape[-2:])
    if x.size:
        _trsm(ac, x, True, upper, "T" if transpose else "N", unitriangular)
    return x, ac


def _trsm(a: np.ndarray, f: np.ndarray, left: bool, upper: bool, trans: str,
          unitriangular: bool) -> None:
    """``apply_triangular_solve``: ``?trsm`` per matrix, in place on the column-major ``f``,
    ``A`` read column-major from its memory (batches dense, batch outermost)."""
    fn = _fn("trsm", f.dtype)
    m, n = (a.shape[-1] if left else f.shape[-2]), f.shape[-1]
    lda, ldb = max(1, a.shape[-2]), max(1, f.shape[-2])
    one = np.ones(1, f.dtype)
    base, step = a.ctypes.data, a.shape[-1] * a.shape[-2] * a.itemsize
    fbase, fstep = f.ctypes.data, f.shape[-1] * f.shape[-2] * f.itemsize
    for j in range(math.prod(f.shape[:-2])):
        fn(_c("L" if left else "R"), _c("U" if upper else "L"), _c(trans),
           _c("U" if unitriangular else "N"), _i(m), _i(n), ctypes.c_void_p(_ptr(one)),
           ctypes.c_void_p(base + j * step), _i(lda), ctypes.c_void_p(fbase + j * fstep),
           _i(ldb))


# ----------------------------------------------------------------------------- LDL

def ldl_factor(a: np.ndarray, hermitian: bool):
    """``linalg_ldl_factor_ex``: ``?sytrf`` (``?hetrf`` for Hermitian complex input) with
    ``uplo='L'`` on the lower triangle of ``A`` copied column-major; ``(LD, pivots, info)``,
    or None."""
    routine = "hetrf" if hermitian and a.dtype.kind == "c" else "sytrf"
    fn = _fn(routine, a.dtype)
    if fn is None:
        return None
    n = a.shape[-1]
    ld = column_major(np.tril(a))
    piv = np.zeros(a.shape[:-1], np.int32)
    info = np.zeros(a.shape[:-2], np.int32)
    if ld.size == 0:
        return ld, piv, info
    out, wk = _int(), np.empty(1, a.dtype)
    mats, pivs, infos = _matrices(ld), piv.reshape(-1, n), info.reshape(-1)
    fn(_c("L"), _i(n), ctypes.c_void_p(mats[0]), _i(max(1, n)), ctypes.c_void_p(_ptr(pivs[0])),
       ctypes.c_void_p(_ptr(wk)), _i(-1), ctypes.byref(out))
    lwork = max(1, int(wk[0].real))
    work = _work(a.dtype, lwork)
    for j, p in enumerate(mats):
        fn(_c("L"), _i(n), ctypes.c_void_p(p), _i(max(1, n)), ctypes.c_void_p(_ptr(pivs[j])),
           ctypes.c_void_p(_ptr(work)), _i(lwork), ctypes.byref(out))
        infos[j] = out.value
    return ld, piv, info


def ldl_solve(ld: np.ndarray, piv: np.ndarray, b: np.ndarray, hermitian: bool):
    """``linalg_ldl_solve``: ``?sytrs``/``?hetrs`` (``uplo='L'``) on a column-major copy of
    ``B``, batches broadcast against the factors'; or None."""
    routine = "hetrs" if hermitian and b.dtype.kind == "c" else "sytrs"
    fn = _fn(routine, b.dtype)
    if fn is None:
        return None
    n = ld.shape[-1]
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    x = column_major(b, batch + b.shape[-2:])
    if x.size == 0:
        return x
    a = column_major(ld, batch + ld.shape[-2:])
    pivs = np.ascontiguousarray(np.broadcast_to(piv, batch + (n,)), np.int32).reshape(-1, n)
    out = _int()
    for j, (pa, px) in enumerate(zip(_matrices(a), _matrices(x))):
        fn(_c("L"), _i(n), _i(x.shape[-1]), ctypes.c_void_p(pa), _i(max(1, n)),
           ctypes.c_void_p(_ptr(pivs[j])), ctypes.c_void_p(px), _i(max(1, n)),
           ctypes.byref(out))
    return x
