"""``ember.fft``: discrete Fourier transforms (torch's MKL DFTI calls where MKL is installed,
``_ops/_dfti.py``; NumPy's pocketfft elsewhere), with torch's signatures, result dtypes
(float32 in, complex64 out) and ``norm`` modes.

The complex-to-complex, real-to-complex and complex-to-real transforms differentiate as
torch's (``FftC2CBackward0``, ``FftR2CBackward0``, ``FftC2RBackward0``); the Hermitian ones
(``hfft``, ``ihfft``, ``hfftn`` …) are composed of them and a conjugation, as ATen composes
them, and differentiate through them. ``fftshift``/``ifftshift`` are rolls
and differentiate as rolls.
"""

from __future__ import annotations

import numpy as _np

from . import _dtype as _D
from ._factories import arange as _arange
from ._ops import _dfti as _F
from ._ops.complex_views import _no_grad_support
from ._ops.registry import NONE as _NONE
from ._ops.registry import op as _op
from ._tensor import Tensor

__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]

_NORMS = (None, "backward", "ortho", "forward")
_COMPLEX = {_np.dtype(_np.float32): _np.complex64, _np.dtype(_np.float64): _np.complex128,
            _np.dtype(_np.complex64): _np.complex64, _np.dtype(_np.complex128): _np.complex128}
_REAL = {_np.dtype(_np.complex64): _np.float32, _np.dtype(_np.complex128): _np.float64}


def _input(x: Tensor, name: str, grad: bool = False):
    if not grad:
        _no_grad_support(f"fft.{name}", x)
    a = x._data
    if a.dtype.kind in "biu":
        a = a.astype(_D.get_default_dtype().np)
    elif a.dtype == _np.float16 or a.dtype not in _COMPLEX:
        raise RuntimeError(f"Unsupported dtype {x.dtype.scalar_name}")
    return a


def _norm(norm):
    if norm not in _NORMS:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    return norm


# ----------------------------------------------------------------------------- autograd
# Each transform is linear: its gradient is the adjoint, written as torch's formulas
# (FunctionsManual.cpp: the transform the other way under the forward's scaling), a resize
# back to the input's sizes on ``dims``.

def _resize(g, shape, dims):
    """``g`` trimmed or zero-padded on ``dims`` to ``shape``'s sizes there."""
    from ._factories import zeros
    from ._ops.shape import cat
    for d in dims:
        have, want = g.shape[d], shape[d]
        if have > want:
            g = g.narrow(d, 0, want)
        elif have < want:
            pad = list(g.shape)
            pad[d] = want - have
            g = cat([g, zeros(pad, dtype=g.dtype)], d)
    return g


def _sizes(g, dims):
    return tuple(g.shape[d] for d in dims)


_SWAP = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


@_op("FftC2CBackward0", name="fft_c2c", method=False, function=False, promote=_NONE,
    holomorphic=False, tensors=("self",),
    self=lambda grad, self_shape, dims, norm, inverse: _resize(
        _fft_c2c(grad, _sizes(grad, dims), dims, _SWAP[norm], not inverse), self_shape, dims))
def _fft_c2c(self, s, dims, norm, inverse):
    a = self.astype(_COMPLEX[self.dtype], copy=False) if self.dtype.kind != "c" else self
    out = (_F.ifftn if inverse else _F.fftn)(a, s=s, axes=dims, norm=norm)
    return out.astype(_COMPLEX[self.dtype], copy=False)


def _r2c_grad(grad, self_shape, s, dims, norm):
    """torch's fft_r2c_backward: the gradient zero-filled to the full last size, its
    inverse transform under the forward's scaling, the real part."""
    full = list(grad.shape)
    full[dims[-1]] = s[-1]
    g = _resize(grad, full, dims[-1:])
    return _resize(_fft_c2c(g, tuple(full[d] for d in dims), dims, _SWAP[norm], True).real,
                   self_shape, dims)


@_op("FftR2CBackward0", name="fft_r2c", method=False, function=False, promote=_NONE,
    holomorphic=False, tensors=("self",), self=_r2c_grad)
def _fft_r2c(self, s, dims, norm, onesided=True):
    out = _F.rfftn(self, s=s, axes=dims, norm=norm, onesided=onesided)
    return out.astype(_COMPLEX[self.dtype], copy=False)


def _c2r_grad(grad, self_shape, s, dims, norm):
    """torch's fft_c2r_backward: the one-sided transform of the gradient, the entries that
    stand for two (conjugate) frequencies doubled."""
    gi = _fft_r2c(grad, _sizes(grad, dims), dims, _SWAP[norm])
    double = grad.shape[dims[-1]] - gi.shape[dims[-1]]
    if double > 0:
        from ._factories import ones
        w = ones(gi.shape[dims[-1]], dtype=gi.real.dtype)
        w[1:1 + double] = 2.0
        shape = [1] * gi.ndim
        shape[dims[-1]] = -1
        gi = gi * w.reshape(shape)
    return _resize(gi, self_shape, dims)


@_op("FftC2RBackward0", name="fft_c2r", method=False, function=False, promote=_NONE,
    holomorphic=False, tensors=("self",), self=_c2r_grad)
def _fft_c2r(self, s, dims, norm):
    out = _F.irfftn(self, s=s, axes=dims, norm=norm)
    return out.astype(_REAL.get(self.dtype, self.dtype.type), copy=False)


def _dims_sizes(x, s, dim, one):
    """Normalized dims and sizes (torch's defaults) for a transform of ``x``."""
    nd = x.ndim
    if one:
        dims = ((dim if dim >= 0 else dim + nd),)
        if not 0 <= dims[0] < nd:
            return None
        sizes = None if s is None else (s,)
    else:
        if dim is None:
            dims = tuple(range(nd)) if s is None else tuple(range(nd - len(s), nd))
        else:
            dims = tuple(d if d >= 0 else d + nd for d in ((dim,) if isinstance(dim, int)
                                                             else dim))
        sizes = None if s is None else tuple(s)
    return dims, sizes


def _wants_grad(x) -> bool:
    from .autograd import grad_mode
    return grad_mode._state.enabled and isinstance(x, Tensor) and x.requires_grad


def _diff(kind, x, s, dim, norm, one, inverse=False):
    """The differentiable transform, or None where the plain path should answer (and
    raise torch's errors)."""
    if not _wants_grad(x) or x.dtype.name not in ("float32", "float64", "complex64",
                                                  "complex128"):
        return None
    ds = _dims_sizes(x, s, dim, one)
    if ds is None:
        return None
    dims, sizes = ds
    _norm(norm)
    if kind == "c2c":
        if sizes is None:
            sizes = tuple(x.shape[d] for d in dims)
        if one and not x.is_complex():      # ATen's fft_r2c with onesided=False
            if not inverse:
                return _fft_r2c(x, sizes, dims, norm, False)
            return _fft_r2c(x, sizes, dims, _SWAP[norm], False).conj()
        return _fft_c2c(x, sizes, dims, norm, inverse)
    if kind == "r2c":
        if sizes is None:
            sizes = tuple(x.shape[d] for d in dims)
        return _fft_r2c(x, sizes, dims, norm)
    if sizes is None:
        sizes = tuple(x.shape[d] for d in dims[:-1]) + (2 * (x.shape[dims[-1]] - 1),)
    return _fft_c2r(x, sizes, dims, norm)


def _points(n) -> None:
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _one_dim(x: Tensor, n, dim: int, c2r: bool = False) -> int:
    """ATen's checks of a one-dimensional transform's ``dim`` (wrapped; a 0-d input has
    none) and signal length ``n`` (default the input's size, ``2 * (size - 1)`` for a
    complex-to-real transform); the wrapped dim."""
    from ._ops.util import norm_dim
    dim = norm_dim(dim, x.ndim, scalar=False)
    if n is None:
        n = 2 * (x.shape[dim] - 1) if c2r else x.shape[dim]
    _points(n)
    return dim


def _c2c(fn, x, n, dim, norm, name):
    dim = _one_dim(x, n, dim)
    d = _diff("r2c" if fn is _F.rfft else "c2c", x, n, dim, norm, True,
              fn is _F.ifft) if fn is not _F.ihfft else None
    if d is not None:
        return d
    a = _input(x, name)
    out = fn(a, n=n, axis=dim, norm=_norm(norm))
    return Tensor._wrap(out.astype(_COMPLEX[a.dtype], copy=False))


def _c2c_n(fn, x, s, dim, norm, name):
    dims, sizes = _shape_and_dims(x, s, dim)
    s, dim = (None if s is None else sizes), dims
    d = _diff("r2c" if fn is _F.rfftn else "c2c", x, s, dim, norm, False,
              fn is _F.ifftn)
    if d is not None:
        return d
    a = _input(x, name)
    out = fn(a, s=s, axes=dim, norm=_norm(norm))
    return Tensor._wrap(out.astype(_COMPLEX[a.dtype], copy=False))


def _c2r(fn, x, n, dim, norm, name, nd=False):
    if nd:
        dims, sizes = _shape_and_dims(x, n, dim)
        if n is None:
            _points(2 * (x.shape[dims[-1]] - 1) if dims else 1)
        n, dim = (None if n is None else sizes), dims
    else:
        dim = _one_dim(x, n, dim, c2r=True)
    if fn in (_F.irfft, _F.irfftn):
        d = _diff("c2r", x, n, dim, norm, not nd)
        if d is not None:
            return d
    a = _input(x, name)
    out = fn(a, s=n, axes=dim, norm=_norm(norm)) if nd else fn(a, n=n, axis=dim,
                                                                 norm=_norm(norm))
    real = _REAL.get(a.dtype, a.dtype.type)
    return Tensor._wrap(out.astype(real, copy=False))


def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
        out=None) -> Tensor:
    """The one-dimensional discrete Fourier transform of ``input`` along ``dim``.

    >>> ember.fft.fft(ember.tensor([1., 0., 0., 0.]))
    tensor([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    return _c2c(_F.fft, input, n, dim, norm, "fft")


def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out=None) -> Tensor:
    """The inverse of :func:`fft`."""
    return _c2c(_F.ifft, input, n, dim, norm, "ifft")


def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out=None) -> Tensor:
    """The transform of a real signal: the ``n // 2 + 1`` non-negative frequencies."""
    if input.dtype.is_complex:
        raise RuntimeError("rfft expects a real input tensor, but got "
                           f"{input.dtype.scalar_name}")
    return _c2c(_F.rfft, input, n, dim, norm, "rfft")


def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out=None) -> Tensor:
    """The inverse of :func:`rfft`: a real signal of length ``n`` (``2 * (m - 1)``)."""
    return _c2r(_F.irfft, input, n, dim, norm, "irfft")


def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out=None) -> Tensor:
    """The transform of a Hermitian-symmetric signal given by its first half: real."""
    if _wants_grad(input):
        return _hfftn(input, None if n is None else (n,), (dim,), norm, "hfft")
    return _c2r(_F.hfft, input, n, dim, norm, "hfft")


def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out=None) -> Tensor:
    """The inverse of :func:`hfft`."""
    if _wants_grad(input):
        return _ihfftn(input, None if n is None else (n,), (dim,), norm, "ihfft")
    return _c2c(_F.ihfft, input, n, dim, norm, "ihfft")


def _shape_and_dims(x: Tensor, s, dim):
    """ATen's ``canonicalize_fft_shape_and_dim_args``: the transformed dims (wrapped, unique)
    and their signal sizes (``-1`` in ``s`` meaning the input's size)."""
    from ._ops.util import norm_dim
    nd = x.ndim
    if dim is not None:
        dims = [norm_dim(d, nd) for d in ((dim,) if isinstance(dim, int) else dim)]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        s = (s,) if isinstance(s, int) else tuple(s)
        if dim is not None and len(dims) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > nd:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {nd} "
                               "dimensions.")
        if dim is None:
            dims = list(range(nd - len(s), nd))
        sizes = [x.shape[d] if n == -1 else int(n) for d, n in zip(dims, s)]
    else:
        if dim is None:
            dims = list(range(nd))
        sizes = [x.shape[d] for d in dims]
    for n in sizes:
        if n <= 0:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


def _promoted(x: Tensor, complex_: bool) -> Tensor:
    """ATen's ``promote_tensor_fft``: integers to the default float type, half types refused,
    and (``complex_``) real to complex."""
    dt = x.dtype
    if dt.is_complex:
        return x
    if not dt.is_floating_point:
        dt = _D.get_default_dtype()
    if dt not in (_D.float32, _D.float64):
        raise RuntimeError(f"Unsupported dtype {dt.scalar_name}")
    if complex_:
        dt = _D.complex64 if dt is _D.float32 else _D.complex128
    return x if dt is x.dtype else x.to(dt)


def _hfftn(x: Tensor, s, dim, norm, name: str) -> Tensor:
    """torch's ``fft_hfftn_impl``: a forward transform over all but the last dim, then the
    conjugate's complex-to-real transform over the last."""
    dims, sizes = _shape_and_dims(x, s, dim)
    if not dims:
        raise RuntimeError(f"{name} must transform at least one axis")
    s = None if s is None else ((s,) if isinstance(s, int) else tuple(s))
    last = 2 * (x.shape[dims[-1]] - 1) if s is None or s[-1] == -1 else sizes[-1]
    if last < 1:
        raise RuntimeError(f"Invalid number of data points ({last}) specified")
    a = _promoted(x, True)
    _norm(norm)
    if len(dims) > 1:
        a = _fft_c2c(a, tuple(sizes[:-1]), tuple(dims[:-1]), norm, False)
    return _fft_c2r(a.conj(), (last,), (dims[-1],), _SWAP[norm])


def _ihfftn(x: Tensor, s, dim, norm, name: str) -> Tensor:
    """torch's ``fft_ihfftn_impl``: the one-sided inverse transform of a real signal, as
    the conjugate of its forward transform over the last dim, then an inverse transform
    over the others."""
    dims, sizes = _shape_and_dims(x, s, dim)
    if not dims:
        raise RuntimeError(f"{name} must transform at least one axis")
    a = _promoted(x, False)
    _norm(norm)
    if a.dtype.is_complex:
        raise RuntimeError(f"Only supports floating-point dtypes, but found: "
                           f"{a.dtype.scalar_name}")
    t = _fft_r2c(a, (sizes[-1],), (dims[-1],), _SWAP[norm])
    if len(dims) == 1:
        return t.conj()
    return _fft_c2c(t.conj_physical(), tuple(sizes[:-1]), tuple(dims[:-1]), norm, True)


def hfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The N-dimensional transform of a signal Hermitian-symmetric in its last transformed
    dimension, given by that dimension's first half: real, ``2 * (m - 1)`` long there.

    >>> ember.fft.hfftn(ember.ones(2, 2, dtype=ember.complex64))
    tensor([[4., 0.],
            [0., 0.]])
    """
    return _hfftn(input, s, dim, norm, "hfftn")


def ihfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The inverse of :func:`hfftn`: the one-sided N-dimensional inverse transform of a real
    signal."""
    return _ihfftn(input, s, dim, norm, "ihfftn")


def hfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None, *,
          out=None) -> Tensor:
    """:func:`hfftn` over the last two dimensions."""
    return _hfftn(input, s, dim, norm, "hfftn")


def ihfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None, *,
           out=None) -> Tensor:
    """The inverse of :func:`hfft2`."""
    return _ihfftn(input, s, dim, norm, "ihfftn")


def fftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The N-dimensional transform over ``dim`` (all dimensions by default)."""
    return _c2c_n(_F.fftn, input, s, dim, norm, "fftn")


def ifftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The inverse of :func:`fftn`."""
    return _c2c_n(_F.ifftn, input, s, dim, norm, "ifftn")


def rfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The N-dimensional transform of a real signal (the last dimension halved)."""
    return _c2c_n(_F.rfftn, input, s, dim, norm, "rfftn")


def irfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The inverse of :func:`rfftn`."""
    return _c2r(_F.irfftn, input, s, dim, norm, "irfftn", nd=True)


def fft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None, *, out=None) -> Tensor:
    """The transform over the last two dimensions."""
    return fftn(input, s, dim, norm)


def ifft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None, *, out=None) -> Tensor:
    """The inverse of :func:`fft2`."""
    return ifftn(input, s, dim, norm)


def rfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None, *, out=None) -> Tensor:
    """:func:`rfftn` over the last two dimensions."""
    return rfftn(input, s, dim, norm)


def irfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None, *,
           out=None) -> Tensor:
    """The inverse of :func:`rfft2`."""
    return irfftn(input, s, dim, norm)


def fftfreq(n: int, d: float = 1.0, *, out=None, dtype=None, layout=None, device=None,
            requires_grad: bool = False) -> Tensor:
    """The sample frequencies of an ``n``-point transform with spacing ``d`` (torch's
    arithmetic: integers, then one multiplication by ``1 / (n * d)``)."""
    result = _arange(n, dtype=dtype or _D.get_default_dtype())
    result[(n + 1) // 2:] = _arange(-(n // 2), 0, dtype=result.dtype)
    return result.mul_(1.0 / (n * d)).requires_grad_(requires_grad)


def rfftfreq(n: int, d: float = 1.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """The non-negative sample frequencies of an ``n``-point real transform."""
    result = _arange(n // 2 + 1, dtype=dtype or _D.get_default_dtype())
    return result.mul_(1.0 / (n * d)).requires_grad_(requires_grad)


def _shift_dims(input, dim):
    if dim is None:
        return tuple(range(input.ndim)), [s // 2 for s in input.shape]
    from ._ops.util import norm_dim
    dims = tuple(norm_dim(d, input.ndim) for d in ((dim,) if isinstance(dim, int) else dim))
    return dims, [input.shape[d] // 2 for d in dims]


def fftshift(input: Tensor, dim=None) -> Tensor:
    """Move the zero frequency to the centre (a roll by half of each dimension)."""
    dims, shifts = _shift_dims(input, dim)
    return input.roll(shifts, dims)


def ifftshift(input: Tensor, dim=None) -> Tensor:
    """The inverse of :func:`fftshift`."""
    dims, shifts = _shift_dims(input, dim)
    return input.roll([-s for s in shifts], dims)


del annotations  # keep dir() to torch's names


from ._names import name_namespace as _name_namespace  # noqa: E402

_name_namespace(globals(), __name__)      # torch's __name__: ``fft_fft`` …
del _name_namespace

from ._ops.registry import require_namespace as _require  # noqa: E402

_require(list(globals().values()))      # torch's error for a missing argument
del _require
