"""The windows of ``torch.signal.windows``, computed as torch's Python computes them: a
``linspace`` of the window's arguments, then the window's formula in ember ops (so values,
dtypes and, with ``requires_grad=True``, the graph are torch's).

``sym=True`` gives the symmetric window (filter design); ``sym=False`` the periodic one
(spectral analysis), one point longer with the last dropped.
"""

from __future__ import annotations

import math as _math
from collections.abc import Iterable

from ... import _dtype as _D
from ... import _factories as _F
from ... import _ops
from ..._layout import strided as _strided
from ..._tensor import Tensor

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _checks(name: str, M: int, dtype, layout) -> None:
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not _strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (_D.float32, _D.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")


def _short(M: int, dtype, requires_grad: bool, one: bool = True):
    """The empty window, and (with ``one``) the single point 1, else None."""
    if M == 0:
        return _F.empty((0,), dtype=dtype, requires_grad=requires_grad)
    if M == 1 and one:
        return _F.ones((1,), dtype=dtype, requires_grad=requires_grad)
    return None


def _points(start, end, M, dtype, requires_grad):
    return _F.linspace(start, end, M, dtype=dtype, requires_grad=requires_grad)


def exponential(M: int, *, center: float | None = None, tau: float = 1.0, sym: bool = True,
                dtype=None, layout=_strided, device=None, requires_grad: bool = False) -> Tensor:
    """The exponential (Poisson) window ``exp(-|n - center| / tau)``.

    >>> ember.signal.windows.exponential(3)
    tensor([0.3679, 1.0000, 0.3679])
    """
    dtype = dtype or _D.get_default_dtype()
    _checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    short = _short(M, dtype, requires_grad, one=False)
    if short is not None:
        return short
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / tau
    k = _points(-center * constant, (-center + (M - 1)) * constant, M, dtype, requires_grad)
    return _ops.exp(-_ops.abs(k))


def cosine(M: int, *, sym: bool = True, dtype=None, layout=_strided, device=None,
           requires_grad: bool = False) -> Tensor:
    """The cosine (sine) window ``sin(pi (n + 0.5) / M)``.

    >>> ember.signal.windows.cosine(3)
    tensor([0.5000, 1.0000, 0.5000])
    """
    dtype = dtype or _D.get_default_dtype()
    _checks("cosine", M, dtype, layout)
    short = _short(M, dtype, requires_grad, one=False)
    if short is not None:
        return short
    start = 0.5
    constant = _math.pi / (M + 1 if not sym and M > 1 else M)
    k = _points(start * constant, (start + (M - 1)) * constant, M, dtype, requires_grad)
    return _ops.sin(k)


def gaussian(M: int, *, std: float = 1.0, sym: bool = True, dtype=None, layout=_strided,
             device=None, requires_grad: bool = False) -> Tensor:
    """The Gaussian window ``exp(-(n - (M - 1) / 2)^2 / (2 std^2))``.

    >>> ember.signal.windows.gaussian(3)
    tensor([0.6065, 1.0000, 0.6065])
    """
    dtype = dtype or _D.get_default_dtype()
    _checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    short = _short(M, dtype, requires_grad, one=False)
    if short is not None:
        return short
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / (std * _math.sqrt(2))
    k = _points(start * constant, (start + (M - 1)) * constant, M, dtype, requires_grad)
    return _ops.exp(-(k ** 2))


def kaiser(M: int, *, beta: float = 12.0, sym: bool = True, dtype=None, layout=_strided,
           device=None, requires_grad: bool = False) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - (2n / (M - 1) - 1)^2)) / I0(beta)``.

    >>> ember.signal.windows.kaiser(3, beta=1.0)
    tensor([0.7898, 1.0000, 0.7898])
    """
    dtype = dtype or _D.get_default_dtype()
    _checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    short = _short(M, dtype, requires_grad)
    if short is not None:
        return short
    beta = _F.tensor(beta, dtype=dtype)     # (in the window's dtype: no NaN at the ends)
    start = -beta
    constant = 2.0 * beta / (M if not sym else M - 1)
    end = _ops.minimum(beta, start + (M - 1) * constant)
    k = _points(start, end, M, dtype, requires_grad)
    i0 = _ops.i0
    return i0(_ops.sqrt(beta * beta - _ops.pow(k, 2))) / i0(beta)


def hamming(M: int, *, sym: bool = True, dtype=None, layout=_strided, device=None,
            requires_grad: bool = False) -> Tensor:
    """The Hamming window: :func:`general_hamming` with ``alpha = 0.54``.

    >>> ember.signal.windows.hamming(3)
    tensor([0.0800, 1.0000, 0.0800])
    """
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def hann(M: int, *, sym: bool = True, dtype=None, layout=_strided, device=None,
         requires_grad: bool = False) -> Tensor:
    """The Hann window: :func:`general_hamming` with ``alpha = 0.5``.

    >>> ember.signal.windows.hann(3)
    tensor([0., 1., 0.])
    """
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M: int, *, sym: bool = True, dtype=None, layout=_strided, device=None,
             requires_grad: bool = False) -> Tensor:
    """The Blackman window: :func:`general_cosine` with ``a = [0.42, 0.5, 0.08]``.

    >>> ember.signal.windows.blackman(3)
    tensor([-1.4901e-08,  1.0000e+00, -1.4901e-08])
    """
    dtype = dtype or _D.get_default_dtype()
    _checks("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def bartlett(M: int, *, sym: bool = True, dtype=None, layout=_strided, device=None,
             requires_grad: bool = False) -> Tensor:
    """The triangular (Bartlett) window ``1 - |2n / (M - 1) - 1|``.

    >>> ember.signal.windows.bartlett(5)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    dtype = dtype or _D.get_default_dtype()
    _checks("bartlett", M, dtype, layout)
    short = _short(M, dtype, requires_grad)
    if short is not None:
        return short
    start = -1
    constant = 2 / (M if not sym else M - 1)
    k = _points(start, start + (M - 1) * constant, M, dtype, requires_grad)
    return 1 - _ops.abs(k)


def general_cosine(M, *, a: Iterable, sym: bool = True, dtype=None, layout=_strided,
                   device=None, requires_grad: bool = False) -> Tensor:
    """The sum of cosines ``sum_i (-1)^i a[i] cos(2 pi i n / (M - 1))``.

    >>> ember.signal.windows.general_cosine(3, a=[0.5, 0.5])
    tensor([0., 1., 0.])
    """
    dtype = dtype or _D.get_default_dtype()
    _checks("general_cosine", M, dtype, layout)
    short = _short(M, dtype, requires_grad)
    if short is not None:
        return short
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    constant = 2 * _math.pi / (M if not sym else M - 1)
    k = _points(0, (M - 1) * constant, M, dtype, requires_grad)
    a_i = _F.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype,
                    requires_grad=requires_grad)
    i = _F.arange(a_i.shape[0], dtype=a_i.dtype, requires_grad=a_i.requires_grad)
    return (a_i.unsqueeze(-1) * _ops.cos(i.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha: float = 0.54, sym: bool = True, dtype=None, layout=_strided,
                    device=None, requires_grad: bool = False) -> Tensor:
    """The generalized Hamming window ``alpha - (1 - alpha) cos(2 pi n / (M - 1))``.

    >>> ember.signal.windows.general_hamming(3, alpha=0.5)
    tensor([0., 1., 0.])
    """
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def nuttall(M: int, *, sym: bool = True, dtype=None, layout=_strided, device=None,
            requires_grad: bool = False) -> Tensor:
    """The minimum 4-term Blackman-Harris window of Nuttall.

    >>> ember.signal.windows.nuttall(3)
    tensor([3.6280e-04, 1.0000e+00, 3.6280e-04])
    """
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


del annotations
