"""``ember.fft``: discrete Fourier transforms (NumPy's pocketfft, in the input's precision),
with torch's signatures, result dtypes (float32 in, complex64 out) and ``norm`` modes.

The transforms are not differentiable yet (ember has no complex autograd): with an input
that requires grad they raise ``NotImplementedError`` rather than drop the gradient.
``fftshift``/``ifftshift`` are rolls and differentiate as rolls.
"""

from __future__ import annotations

import numpy as _np

from . import _dtype as _D
from ._factories import arange as _arange
from ._ops.complex_views import _no_grad_support
from ._tensor import Tensor

__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_NORMS = (None, "backward", "ortho", "forward")
_COMPLEX = {_np.dtype(_np.float32): _np.complex64, _np.dtype(_np.float64): _np.complex128,
            _np.dtype(_np.complex64): _np.complex64, _np.dtype(_np.complex128): _np.complex128}
_REAL = {_np.dtype(_np.complex64): _np.float32, _np.dtype(_np.complex128): _np.float64}


def _input(x: Tensor, name: str):
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


def _c2c(fn, x, n, dim, norm, name):
    a = _input(x, name)
    out = fn(a, n=n, axis=dim, norm=_norm(norm))
    return Tensor._wrap(out.astype(_COMPLEX[a.dtype], copy=False))


def _c2c_n(fn, x, s, dim, norm, name):
    a = _input(x, name)
    out = fn(a, s=s, axes=dim, norm=_norm(norm))
    return Tensor._wrap(out.astype(_COMPLEX[a.dtype], copy=False))


def _c2r(fn, x, n, dim, norm, name, nd=False):
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
    return _c2c(_np.fft.fft, input, n, dim, norm, "fft")


def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out=None) -> Tensor:
    """The inverse of :func:`fft`."""
    return _c2c(_np.fft.ifft, input, n, dim, norm, "ifft")


def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out=None) -> Tensor:
    """The transform of a real signal: the ``n // 2 + 1`` non-negative frequencies."""
    if input.dtype.is_complex:
        raise RuntimeError("rfft expects a real input tensor, but got "
                           f"{input.dtype.scalar_name}")
    return _c2c(_np.fft.rfft, input, n, dim, norm, "rfft")


def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out=None) -> Tensor:
    """The inverse of :func:`rfft`: a real signal of length ``n`` (``2 * (m - 1)``)."""
    return _c2r(_np.fft.irfft, input, n, dim, norm, "irfft")


def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out=None) -> Tensor:
    """The transform of a Hermitian-symmetric signal given by its first half: real."""
    return _c2r(_np.fft.hfft, input, n, dim, norm, "hfft")


def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out=None) -> Tensor:
    """The inverse of :func:`hfft`."""
    return _c2c(_np.fft.ihfft, input, n, dim, norm, "ihfft")


def fftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The N-dimensional transform over ``dim`` (all dimensions by default)."""
    return _c2c_n(_np.fft.fftn, input, s, dim, norm, "fftn")


def ifftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The inverse of :func:`fftn`."""
    return _c2c_n(_np.fft.ifftn, input, s, dim, norm, "ifftn")


def rfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The N-dimensional transform of a real signal (the last dimension halved)."""
    return _c2c_n(_np.fft.rfftn, input, s, dim, norm, "rfftn")


def irfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The inverse of :func:`rfftn`."""
    return _c2r(_np.fft.irfftn, input, s, dim, norm, "irfftn", nd=True)


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
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
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
