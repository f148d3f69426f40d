"""Window functions and the short-time Fourier transform, composed as ATen composes them.

The windows (``hann_window`` …) run torch's own sequence of in-place ops on an ``arange``
(``TensorFactories.cpp``), so each value is torch's to the bit: the same roundings in the
same order, through ember's torch-exact ``cos`` and ``i0``. ``stft`` frames the (centre
padded) signal, multiplies by the window and takes a real or complex FFT; ``istft`` inverts
each frame, overlap-adds them (``unfold_backward``) and divides by the summed squared
window. Both are compositions of differentiable ops, so their gradients are torch's.
Loaded on first use (``ember.stft``, ``Tensor.stft`` …).
"""

from __future__ import annotations

import math
import warnings

from .. import _dtype as D
from .. import _errors
from .. import _factories as F
from .._tensor import Tensor
from .nn import constant_pad_nd, pad
from .shape import _unfold_backward
from .util import norm_dim

__all__ = ["hann_window", "hamming_window", "bartlett_window", "blackman_window",
           "kaiser_window", "stft", "istft"]

_warned: set = set()


def _warn_once(key: str, message: str) -> None:
    """torch's ``TORCH_WARN_ONCE``: the first time in the process only."""
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=3)


# ----------------------------------------------------------------------------- windows

def _window_start(name: str, window_length: int, dtype, periodic: bool, requires_grad: bool):
    """torch's ``window_function_checks`` and the short windows; else ``(arange, length)``
    where ``length`` counts the extra point of a periodic window."""
    dtype = dtype or D.get_default_dtype()
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype={dtype.cpp_name}, "
            "device=cpu, layout=Strided (default), requires_grad=false (default), "
            "pinned_memory=false, memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={window_length}")
    if window_length <= 1:
        made = F.ones if window_length else F.empty
        return made(window_length, dtype=dtype, requires_grad=requires_grad), None
    n = window_length + 1 if periodic else window_length
    return F.arange(n, dtype=dtype), n


def _c(value: float, like: Tensor) -> Tensor:
    """A C++ scalar argument of ATen's window code: it is rounded to the window's dtype
    before the arithmetic (which a Python float on a half tensor is not)."""
    return F.scalar_tensor(value, dtype=like.dtype)


def _finish(window: Tensor, n: int, periodic: bool, requires_grad: bool) -> Tensor:
    if periodic:
        window = window.narrow(0, 0, n - 1)
    return window.requires_grad_(requires_grad)


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54,
                   beta: float = 0.46, *, dtype=None, layout=None, device=None,
                   pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """The Hamming window ``alpha - beta * cos(2 pi n / (N - 1))`` (``N`` one longer when
    ``periodic``, the last point dropped).

    >>> ember.hamming_window(4, periodic=False)
    tensor([0.0800, 0.7700, 0.7700, 0.0800])
    """
    return _hamming("hamming_window", window_length, periodic, alpha, beta, dtype,
                    requires_grad)


def _hamming(name, window_length, periodic, alpha, beta, dtype, requires_grad):
    w, n = _window_start(name, window_length, dtype, periodic, requires_grad)
    if n is None:
        return w
    w.mul_(_c(math.pi * 2.0 / (n - 1), w)).cos_().mul_(_c(-beta, w)).add_(_c(alpha, w))
    return _finish(w, n, periodic, requires_grad)


def hann_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None,
                device=None, pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """The Hann window ``0.5 - 0.5 * cos(2 pi n / (N - 1))``.

    >>> ember.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    return _hamming("hann_window", window_length, periodic, 0.5, 0.5, dtype, requires_grad)


def bartlett_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None,
                    device=None, pin_memory: bool = False,
                    requires_grad: bool = False) -> Tensor:
    """The triangular (Bartlett) window, rising from 0 to 1 and back.

    >>> ember.bartlett_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    w, n = _window_start("bartlett_window", window_length, dtype, periodic, requires_grad)
    if n is None:
        return w
    w.mul_(_c(2.0 / (n - 1), w))
    half = ((n - 1) >> 1) + 1
    w.narrow(0, half, n - half).mul_(-1).add_(2)
    return _finish(w, n, periodic, requires_grad)


def blackman_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None,
                    device=None, pin_memory: bool = False,
                    requires_grad: bool = False) -> Tensor:
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``.

    >>> ember.blackman_window(3, periodic=False)
    tensor([-1.4901e-08,  1.0000e+00, -1.4901e-08])
    """
    w, n = _window_start("blackman_window", window_length, dtype, periodic, requires_grad)
    if n is None:
        return w
    w.mul_(_c(math.pi / (n - 1), w))
    w = w.mul(4).cos_().mul_(_c(0.08, w)) - w.mul(2).cos_().mul_(0.5) + _c(0.42, w)
    return _finish(w, n, periodic, requires_grad)


def kaiser_window(window_length: int, periodic: bool | None = None, beta: float | None = None,
                  *, dtype=None, layout=None, device=None, pin_memory: bool = False,
                  requires_grad: bool = False) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - ((n - N/2) / (N/2))^2)) / I0(beta)`` (``beta``
    12 by default; torch's overloads take it only after ``periodic``).

    >>> ember.kaiser_window(3, periodic=False, beta=1.0)
    tensor([0.7898, 1.0000, 0.7898])
    """
    if periodic is None and beta is not None:
        raise TypeError(_KAISER_OVERLOADS)
    # (the parameters kept: a call torch's parser refuses is read back from them)
    is_periodic = True if periodic is None else periodic
    w, n = _window_start("kaiser_window", window_length, dtype, is_periodic, requires_grad)
    if n is None:
        return w
    from . import _cephes
    from ._sleef_ext import fma
    a = w._data
    # ATen's scalar kernel, in the op-math type (float for float32 and the half types);
    # GCC makes pow(x, 2) x * x and contracts 1 - x * x into one fused multiply-add
    T = D.np.float64 if a.dtype == D.np.float64 else D.np.float32
    alpha, b = T((n - 1) / 2.0), T(12.0 if beta is None else beta)
    x = (a.astype(T) - alpha) / alpha
    x = b * D.np.sqrt(D.np.abs(fma(-x, x, D.np.ones_like(x))))
    i0b = _cephes.i0(D.np.array([b]))[0]
    w = Tensor._wrap((_cephes.i0(x) / i0b).astype(a.dtype))
    return _finish(w, n, is_periodic, requires_grad)


_KAISER_OVERLOADS = (
    "kaiser_window() received an invalid combination of arguments - got (int, beta=float), but "
    "expected one of:\n"
    + "".join(f" * (int window_length{extra}, *, torch.dtype dtype = None, torch.layout layout "
              "= None, torch.device device = None, bool pin_memory = False, bool requires_grad "
              "= False)\n" for extra in ("", ", bool periodic", ", bool periodic, float beta")))


# ----------------------------------------------------------------------------- stft / istft

def _opt(value) -> str:
    return "None" if value is None else str(int(value) if isinstance(value, bool) else value)


def _type(t: Tensor) -> str:
    """ATen's ``toString()``: the legacy type name, which complex tensors lack."""
    if t.is_complex():
        return f"CPU{t.dtype.scalar_name}Type"
    return f"torch.{t.dtype._legacy}"


def _desc(t: Tensor) -> str:
    return f"{_type(t)}[{', '.join(map(str, t.shape))}]"


def _window_desc(window) -> str:
    if window is None:
        return "None"
    return f"{_type(window)}{{[{', '.join(map(str, window.shape))}]}}"


def stft(input: Tensor, n_fft: int, hop_length: int | None = None,
         win_length: int | None = None, window: Tensor | None = None, center: bool = True,
         pad_mode: str = "reflect", normalized: bool = False, onesided: bool | None = None,
         return_complex: bool | None = None, align_to_window: bool | None = None) -> Tensor:
    """The short-time Fourier transform of a 1-D signal or a batch of them: one column of
    ``n_fft`` (``n_fft // 2 + 1`` one-sided) frequencies per frame of ``n_fft`` samples,
    frames ``hop_length`` apart, each multiplied by ``window``.

    >>> ember.stft(ember.ones(8), 4, window=ember.ones(4), return_complex=True).shape
    torch.Size([3, 5])
    """
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:
        dims = input.dim()
        half = int(n_fft // 2)
        input = pad(input.view([1] * (3 - dims) + list(input.shape)), [half, half], pad_mode)
        input = input.view(input.shape[-dims:])
    return _stft(input, n_fft, hop_length, win_length, window, normalized, onesided,
                 return_complex, align_to_window)


def _stft(self, n_fft, hop_length, win_length, window, normalized, onesided, return_complex,
          align_to_window):
    """ATen's ``stft`` without centring."""
    from ..fft import _fft_c2c, _fft_r2c
    from .complex_views import view_as_real
    if window is None:
        _warn_once("stft_window", (
            "A window was not provided. A rectangular window will be applied,which is known "
            "to cause spectral leakage. Other windows such as torch.hann_window or "
            "torch.hamming_window are recommended to reduce spectral leakage.To suppress this "
            "warning and use a rectangular window, explicitly set "
            "`window=torch.ones(n_fft, device=<device>)`. (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:835.)"))
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length

    def repr_(msg):
        return (f"stft({_desc(self)}, n_fft={n_fft}, hop_length={hop}, win_length={win}, "
                f"window={_window_desc(window)}, normalized={int(normalized)}, "
                f"onesided={_opt(onesided)}, return_complex={_opt(return_complex)}, "
                f"align_to_window={_opt(align_to_window)}) : {msg}")

    complex_out = return_complex if return_complex is not None else (
        self.is_complex() or (window is not None and window.is_complex()))
    if not complex_out:
        if return_complex is None:
            raise RuntimeError(
                "stft requires the return_complex parameter be given for real inputs, and will "
                "further require that return_complex=True in a future PyTorch release.")
        _warn_once("stft_real", _errors.internal(
            "stft with return_complex=False is deprecated. In a future pytorch release, stft "
            "will return complex tensors for all inputs, and return_complex=False will raise "
            "an error.\nNote: you can still call torch.view_as_real on the complex output to "
            "recover the old return format.", "aten/src/ATen/native/SpectralOps.cpp:874"))
    if not (self.dtype.is_floating_point or self.is_complex()):
        raise RuntimeError(repr_("expected a tensor of floating point or complex values"))
    if self.dim() not in (1, 2):
        raise RuntimeError(repr_("expected a 1D or 2D tensor"))
    x = self.unsqueeze(0) if self.dim() == 1 else self
    length = x.shape[1]
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(repr_(f"expected 0 < n_fft < {length}, but got n_fft={win}"))
    if hop <= 0:
        raise RuntimeError(repr_(f"expected hop_length > 0, but got hop_length={hop}"))
    if win <= 0 or win > n_fft:
        raise RuntimeError(repr_(f"expected 0 < win_length <= n_fft, but got win_length={win}"))
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(repr_(
            f"expected a 1D window tensor of size equal to win_length={win}, but got window "
            f"with size [{', '.join(map(str, window.shape))}]"))
    w = window
    left = (n_fft - win) // 2
    if win < n_fft:
        if w is None:
            w = F.zeros(n_fft, dtype=self.dtype)
            w[left:left + win] = 1
        else:
            w = constant_pad_nd(w, (left, n_fft - win - left), 0)
    if align_to_window:         # frames start where the (unpadded) window does
        n_frames = 1 + (length - win) // hop
        x = pad(x, [left, left], "constant")
    else:
        n_frames = 1 + (length - n_fft) // hop
    frames = x.unfold(1, n_fft, hop).narrow(1, 0, n_frames)
    if w is not None:
        frames = frames.mul(w)
    one = frames.is_complex()
    sided = not one if onesided is None else onesided
    norm = "ortho" if normalized else "backward"
    if one:
        if sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = _fft_c2c(frames, (n_fft,), (2,), norm, False)
    else:
        out = _fft_r2c(frames, (n_fft,), (2,), norm, sided)
    out.transpose_(1, 2)
    if self.dim() == 1:
        out.squeeze_(0)
    return out if complex_out else view_as_real(out)


def istft(input: Tensor, n_fft: int, hop_length: int | None = None,
          win_length: int | None = None, window: Tensor | None = None, center: bool = True,
          normalized: bool = False, onesided: bool | None = None, length: int | None = None,
          return_complex: bool = False) -> Tensor:
    """The inverse of :func:`stft`: each frame inverse-transformed, windowed and overlap-added,
    divided by the summed squared window (the least-squares estimate of the signal).

    >>> x = ember.arange(8.)
    >>> w = ember.hann_window(4)
    >>> s = ember.stft(x, 4, 1, window=w, return_complex=True)
    >>> ember.istft(s, 4, 1, window=w)
    tensor([0.0000, 1.0000, 2.0000, 3.0000, 4.0000, 5.0000, 6.0000, 7.0000])
    """
    from ..fft import _fft_c2c, _fft_c2r
    self = input
    if window is None:
        _warn_once("istft_window", (
            "A window was not provided. A rectangular window will be applied.Please provide "
            "the same window used by stft to make the inversion lossless.To suppress this "
            "warning and use a rectangular window, explicitly set "
            "`window=torch.ones(n_fft, device=<device>)`. (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:1035.)"))
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length

    def repr_(msg):
        return (f"istft({_desc(self)}, n_fft={n_fft}, hop_length={hop}, win_length={win}, "
                f"window={_window_desc(window)}, center={int(center)}, "
                f"normalized={int(normalized)}, onesided={_opt(onesided)}, "
                f"length={_opt(length)}, return_complex={int(return_complex)}) {msg}")

    if not self.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                        "from stft with return_complex=True.")
    ndim = self.dim() + 1                         # as ATen counts: of view_as_real(input)
    n_frames, fft_size = self.shape[-1], self.shape[norm_dim(-3, ndim)]
    expected = n_fft + hop * (n_frames - 1)
    if self.numel() == 0:
        raise RuntimeError(repr_(": input tensor cannot be empty."))
    if ndim not in (3, 4):
        raise RuntimeError(repr_(f": expected a tensor with 3 or 4 dimensions, but got {ndim}"))
    sided = fft_size != n_fft if onesided is None else onesided
    if sided and n_fft // 2 + 1 != fft_size:
        raise RuntimeError(repr_(
            ": expected the frequency dimension (3rd to the last) of the input tensor to match "
            f"n_fft / 2 + 1 when onesided=True, but got {fft_size}"))
    if not sided and n_fft != fft_size:
        raise RuntimeError(repr_(
            ": expected the frequency dimension (3rd to the last) of the input tensor to match "
            f"n_fft when onesided=False, but got {fft_size}"))
    if not 0 < hop <= win:
        raise RuntimeError(repr_(": expected 0 < hop_length <= win_length"))
    if not 0 < win <= n_fft:
        raise RuntimeError(repr_(": expected 0 < win_length <= n_fft"))
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(repr_(
            ": Invalid window shape. window has to be 1D and length of `win_length`"))
    real = D.float64 if self.dtype is D.complex128 else D.float32
    w = window if window is not None else F.ones(win, dtype=real)
    if win != n_fft:
        left = (n_fft - win) // 2
        w = constant_pad_nd(w, (left, n_fft - win - left), 0)
    x = self.unsqueeze(0) if ndim == 3 else self
    x = x.transpose(1, 2)                                 # (channel, n_frames, fft_size)
    norm = "ortho" if normalized else "backward"
    if return_complex:
        if sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        x = _fft_c2c(x, (n_fft,), (2,), norm, True)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not sided:
            x = x[..., :n_fft // 2 + 1]
        x = _fft_c2r(x, (n_fft,), (2,), norm)
    y = _unfold_backward(x * w.view(1, 1, n_fft), (x.shape[0], expected), 1, n_fft, hop)
    envelope = _unfold_backward(w.pow(2).expand(1, n_frames, n_fft), (1, expected), 1, n_fft,
                                hop)
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else (-(n_fft // 2) if center else expected)
    y, envelope = y[:, start:end], envelope[:, start:end]
    if bool(envelope.abs().min().lt(1e-11)):
        raise RuntimeError(repr_("window overlap add min: 1\n[ CPUBoolType{} ]"))
    y = y / envelope
    if ndim == 3:
        y = y.squeeze(0)
    if end > expected:
        _warn_once("istft_length", (
            "The length of signal is shorter than the length parameter. Result is being "
            "padded with zeros in the tail. Please check your center and hop_length "
            "settings."))
        y = constant_pad_nd(y, (0, end - expected), 0)
    return y

