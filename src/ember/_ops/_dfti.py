"""torch's Fourier transforms on MKL's DFTI, with NumPy's ``numpy.fft`` signatures.

torch's CPU build computes ``torch.fft`` with MKL's DFTI (``aten/src/ATen/native/mkl/
SpectralOps.cpp``): the batch dims permuted first (in stride order) and collapsed, one
descriptor per call (sizes, strides, distances, ``DFTI_COMPLEX_COMPLEX`` storage for a real
side, the scale of the ``norm`` mode on the transform's direction), a multi-dim
complex-to-real transform as complex-to-complex transforms and one complex-to-real. Where
MKL's runtime is installed (``ember[mkl]``), Ember builds the same descriptors through
ctypes and gets torch's bits, and torch's result strides; elsewhere each function is
NumPy's pocketfft (a few ulps apart). A descriptor is made per shape and cached.
"""

from __future__ import annotations

import ctypes
import math

import numpy as np

from . import _exact, _vml

_NUMBER_OF_TRANSFORMS, _CONJUGATE_EVEN_STORAGE, _PLACEMENT = 7, 10, 11
_INPUT_STRIDES, _OUTPUT_STRIDES, _INPUT_DISTANCE, _OUTPUT_DISTANCE = 12, 13, 14, 15
_FORWARD_SCALE, _BACKWARD_SCALE = 4, 5
_COMPLEX, _REAL, _SINGLE, _DOUBLE, _COMPLEX_COMPLEX, _NOT_INPLACE = 32, 33, 35, 36, 39, 44
_PREC = {np.dtype(np.float32): _SINGLE, np.dtype(np.float64): _DOUBLE,
         np.dtype(np.complex64): _SINGLE, np.dtype(np.complex128): _DOUBLE}
_TO_COMPLEX = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}
_TO_REAL = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}
_PLANS: dict = {}
_Long = ctypes.c_long


def _mode(norm, forward: bool) -> int:
    """ATen's ``norm_from_string``: 0 none, 1 by root n, 2 by n."""
    if norm == "ortho":
        return 1
    if norm in (None, "backward"):
        return 0 if forward else 2
    return 2 if forward else 0


def _plan(key):
    """``_plan_mkl_fft``: a committed descriptor for ``key``, made once. (torch commits one
    per call: the commit picks its kernels by MKL's thread count then, which the key holds.)"""
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    lib = _vml.library()
    prec, domain, sizes, istr, ostr, batch, idist, odist, cce, mode, forward, _ = key
    handle = ctypes.c_void_p()
    nd = len(sizes)
    # mkl_dfti.h's DftiCreateDescriptor macro, as torch's C++ expands it: a one-dim signal
    # gets the _1d constructor (the variadic DftiCreateDescriptor makes an _md descriptor,
    # whose committed kernels round differently on one thread)
    tag = "s" if prec == _SINGLE else "d"
    if nd == 1:
        ok = getattr(lib, f"DftiCreateDescriptor_{tag}_1d")(
            ctypes.byref(handle), ctypes.c_int(domain), _Long(sizes[0])) == 0
    else:
        ok = getattr(lib, f"DftiCreateDescriptor_{tag}_md")(
            ctypes.byref(handle), ctypes.c_int(domain), _Long(nd), (_Long * nd)(*sizes)) == 0
    put = lib.DftiSetValue
    ok = ok and put(handle, ctypes.c_int(_PLACEMENT), ctypes.c_int(_NOT_INPLACE)) == 0
    ok = ok and put(handle, ctypes.c_int(_NUMBER_OF_TRANSFORMS), _Long(batch)) == 0
    ok = ok and put(handle, ctypes.c_int(_INPUT_DISTANCE), _Long(idist)) == 0
    ok = ok and put(handle, ctypes.c_int(_OUTPUT_DISTANCE), _Long(odist)) == 0
    ok = ok and put(handle, ctypes.c_int(_INPUT_STRIDES), (_Long * (nd + 1))(0, *istr)) == 0
    ok = ok and put(handle, ctypes.c_int(_OUTPUT_STRIDES), (_Long * (nd + 1))(0, *ostr)) == 0
    if ok and cce:
        ok = put(handle, ctypes.c_int(_CONJUGATE_EVEN_STORAGE),
                 ctypes.c_int(_COMPLEX_COMPLEX)) == 0
    if ok and mode:
        n = math.prod(sizes)
        scale = 1.0 / math.sqrt(n) if mode == 1 else 1.0 / n
        ok = put(handle, ctypes.c_int(_FORWARD_SCALE if forward else _BACKWARD_SCALE),
                 ctypes.c_double(scale)) == 0
    ok = ok and lib.DftiCommitDescriptor(handle) == 0
    if not ok:
        raise RuntimeError("MKL FFT error")
    _PLANS[key] = handle
    return handle


def _exec(a: np.ndarray, out_sizes, dims, mode: int, forward: bool, out_dtype):
    """ATen's ``_exec_fft``: the transform of ``a`` over ``dims`` into a result of
    ``out_sizes``, with torch's result strides."""
    ndim = a.ndim
    batch = [d for d in range(ndim) if d not in dims]
    batch.sort(key=lambda d: -a.strides[d])
    perm = batch + list(dims)
    x = a.transpose(perm)
    nb = len(batch)
    x = x.reshape((-1,) + x.shape[nb:])
    signal = [max(x.shape[i + 1], out_sizes[d]) for i, d in enumerate(dims)]
    out = np.empty((x.shape[0],) + tuple(out_sizes[d] for d in dims), out_dtype)
    if out.size and x.size:
        isz, osz = x.itemsize, out.itemsize
        key = (_PREC[a.dtype], _COMPLEX if (a.dtype.kind == "c" and out.dtype.kind == "c")
               else _REAL, tuple(signal), tuple(s // isz for s in x.strides[1:]),
               tuple(s // osz for s in out.strides[1:]), x.shape[0], x.strides[0] // isz,
               out.strides[0] // osz, a.dtype.kind != "c" or out.dtype.kind != "c", mode,
               forward, _exact.get_num_threads())
        plan = _plan(key)
        lib = _vml.library()
        run = lib.DftiComputeForward if forward else lib.DftiComputeBackward
        if run(plan, ctypes.c_void_p(x.ctypes.data), ctypes.c_void_p(out.ctypes.data)) != 0:
            raise RuntimeError("MKL FFT error")
    strides = [0] * ndim
    step = 1
    for i in range(nb - 1, -1, -1):
        strides[perm[i]] = step * out.strides[0]
        step *= out_sizes[perm[i]]
    for i in range(nb, ndim):
        strides[perm[i]] = out.strides[1 + i - nb]
    return np.lib.stride_tricks.as_strided(out, tuple(out_sizes), tuple(strides))


def _sorted(a, dims, exclude_last=False):
    """ATen's ``_sort_dims``: the transform dims by the input's strides, largest first."""
    head = list(dims[:-1]) if exclude_last else list(dims)
    head.sort(key=lambda d: -a.strides[d])
    return head + ([dims[-1]] if exclude_last else [])


def c2c(a, dims, mode, forward):
    """``_fft_c2c_mkl``."""
    if not dims:
        return a.copy()
    return _exec(a, a.shape, _sorted(a, dims), mode, forward, a.dtype)


def r2c(a, dims, mode, onesided=True):
    """``_fft_r2c_mkl``: the one-sided transform; the full one (``onesided=False``) has MKL
    write the one-sided half into the full-size result, the rest filled by symmetry."""
    out_sizes = list(a.shape)
    last = dims[-1]
    half = a.shape[last] // 2 + 1
    if onesided:
        out_sizes[last] = half
    out = _exec(a, out_sizes, _sorted(a, dims, exclude_last=True), mode, True,
                _TO_COMPLEX[a.dtype])
    n = a.shape[last]
    if not onesided and n > half:
        # _fft_fill_with_conjugate_symmetry_: X[k] = conj(X[-k]) over every transformed dim
        idx = [slice(None)] * a.ndim
        idx[last] = slice(0, half)
        src = np.conj(out[tuple(idx)])
        for d in dims[:-1]:
            src = np.take(src, -np.arange(a.shape[d]) % a.shape[d], axis=d)
        idx[last] = slice(half, n)
        out[tuple(idx)] = np.take(src, n - np.arange(half, n), axis=last)
    return out


def c2r(a, dims, mode, last_size):
    """``_fft_c2r_mkl``: complex-to-complex over all but the last dim, then one c2r."""
    if len(dims) > 1:
        a = c2c(a, dims[:-1], mode, False)
        dims = dims[-1:]
    out_sizes = list(a.shape)
    out_sizes[dims[-1]] = last_size
    return _exec(a, out_sizes, list(dims), mode, False, _TO_REAL[a.dtype])


# ----------------------------------------------------------------------------- numpy.fft's API
# Each function takes NumPy's arguments and gives torch's result (``torch.fft``'s resizing,
# its real-input and Hermitian cases), from MKL where installed, else from ``numpy.fft``.

def _usable(a) -> bool:
    return a.dtype in _PREC and _vml.library() is not None


def _axes(a, s, axes):
    if axes is None:
        axes = range(a.ndim) if s is None else range(a.ndim - len(s), a.ndim)
    return [d % a.ndim for d in axes]


def _resize(a, axes, sizes):
    """torch's ``resize_fft_input``: each axis trimmed, or zero-padded at its end."""
    for d, n in zip(axes, sizes):
        have = a.shape[d]
        if n < have:
            a = a[(slice(None),) * d + (slice(0, n),)]
        elif n > have:
            pad = [(0, 0)] * a.ndim
            pad[d] = (0, n - have)
            a = np.pad(a, pad)
    return a


def _c2c_any(a, s, axes, norm, forward, numpy_fn, one_dim=False):
    if not _usable(a):
        return numpy_fn(a, s=s, axes=axes, norm=norm)
    dims = _axes(a, s, axes)
    if s is not None:
        a = _resize(a, dims, s)
    mode = _mode(norm, forward)
    if a.dtype.kind != "c":
        if one_dim:                         # torch's fft/ifft: a real transform, filled
            out = r2c(a, dims, mode, onesided=False)
            return out if forward else np.conj(out)
        a = a.astype(_TO_COMPLEX[a.dtype])  # fftn/ifftn: the input made complex first
    return c2c(a, dims, mode, forward)


def fftn(a, s=None, axes=None, norm=None):
    return _c2c_any(a, s, axes, norm, True, np.fft.fftn)


def ifftn(a, s=None, axes=None, norm=None):
    return _c2c_any(a, s, axes, norm, False, np.fft.ifftn)


def rfftn(a, s=None, axes=None, norm=None, onesided=True):
    """The real-to-complex transform: one-sided, or (``onesided=False``, as torch's ``fft``
    of a real input and ``stft``'s two-sided one) the full spectrum."""
    if not _usable(a) or a.dtype.kind == "c":
        return (np.fft.rfftn if onesided else np.fft.fftn)(a, s=s, axes=axes, norm=norm)
    dims = _axes(a, s, axes)
    if s is not None:
        a = _resize(a, dims, s)
    return r2c(a, dims, _mode(norm, True), onesided)


def irfftn(a, s=None, axes=None, norm=None):
    if not _usable(a):
        return np.fft.irfftn(a, s=s, axes=axes, norm=norm)
    dims = _axes(a, s, axes)
    last = 2 * (a.shape[dims[-1]] - 1) if s is None else s[-1]
    sizes = [a.shape[d] for d in dims[:-1]] if s is None else list(s[:-1])
    a = _resize(a, dims, sizes + [last // 2 + 1])
    if a.dtype.kind != "c":
        a = a.astype(_TO_COMPLEX[a.dtype])
    return c2r(a, dims, _mode(norm, False), last)


def fft(a, n=None, axis=-1, norm=None):
    return _c2c_any(a, None if n is None else (n,), (axis,), norm, True, _np_fft(np.fft.fft),
                    True)


def ifft(a, n=None, axis=-1, norm=None):
    return _c2c_any(a, None if n is None else (n,), (axis,), norm, False,
                    _np_fft(np.fft.ifft), True)


def _np_fft(fn):
    """A one-dim ``numpy.fft`` function called with the n-dim arguments."""
    return lambda a, s, axes, norm: fn(a, n=None if s is None else s[0], axis=axes[0],
                                       norm=norm)


def rfft(a, n=None, axis=-1, norm=None):
    return rfftn(a, None if n is None else (n,), (axis,), norm)


def irfft(a, n=None, axis=-1, norm=None):
    return irfftn(a, None if n is None else (n,), (axis,), norm)


def hfft(a, n=None, axis=-1, norm=None):
    """torch's ``hfft``: the complex-to-real inverse transform of the conjugate, scaled as
    a forward transform."""
    if not _usable(a):
        return np.fft.hfft(a, n=n, axis=axis, norm=norm)
    d = axis % a.ndim
    last = 2 * (a.shape[d] - 1) if n is None else n
    a = _resize(a, [d], [last // 2 + 1])
    if a.dtype.kind != "c":
        a = a.astype(_TO_COMPLEX[a.dtype])
    return c2r(np.conj(a), [d], _mode(norm, True), last)


def ihfft(a, n=None, axis=-1, norm=None):
    """torch's ``ihfft``: the conjugate of the one-sided transform, scaled as an inverse."""
    if not _usable(a) or a.dtype.kind == "c":
        return np.fft.ihfft(a, n=n, axis=axis, norm=norm)
    d = axis % a.ndim
    if n is not None:
        a = _resize(a, [d], [n])
    return np.conj(r2c(a, [d], _mode(norm, False)))
