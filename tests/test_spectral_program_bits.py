"""The Fourier transforms of the spectral programs (``audio_spectrogram``,
``fourier_neural_operator``, ``mfcc_features``) and their neighbours are torch's bit for bit
with MKL's runtime installed, forward and backward, on 1 and 2 threads: the STFT of a batch
and of one signal with its gradient, ``istft``, the 1-d and 2-d real transforms of the
spectral convolutions with ``n=``/``s=`` and their gradients (``FftR2CBackward0`` is a
zero-padded complex inverse transform, ``FftC2RBackward0`` a one-sided forward one), and a
sweep of lengths, batches, norms and precisions. One-dim transforms on one thread, and
single signals on any, are where a descriptor made n-dim (not ``_1d``, as torch's) takes
other kernels."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _vml

from .helpers import torch

pytestmark = pytest.mark.skipif(_vml.library() is None, reason="MKL's runtime is not installed")


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.shape, a.dtype.str, a.view(np.uint8).tobytes()


def _same(got, want):
    assert _bits(got) == _bits(want), \
        f"{(got != want).sum()} of {want.size} differ, most by {np.abs(got - want).max()}"


def _both(fn, *arrays, grad=False):
    """``fn(L, *tensors)`` (a tensor or a tuple) with ember and torch; with ``grad`` the
    gradients of the sum of squared magnitudes too. Returns [(outputs, grads)] per library."""
    out = []
    for L in (ember, torch):
        ts = [L.tensor(a, requires_grad=grad) for a in arrays]
        res = fn(L, *ts)
        res = res if isinstance(res, tuple) else (res,)
        grads = []
        if grad:
            loss = sum((r.abs() ** 2).sum() for r in res)
            grads = [g.resolve_conj().numpy() for g in L.autograd.grad(loss, ts)]
        out.append(([r.detach().resolve_conj().numpy() for r in res], grads))
    return out


def _check(fn, *arrays, grad=False):
    (eo, eg), (to, tg) = _both(fn, *arrays, grad=grad)
    for got, want in zip(eo + eg, to + tg):
        _same(got, want)


def _hann_stft(L, x, n_fft, hop):
    return L.stft(x, n_fft=n_fft, hop_length=hop, window=L.hann_window(n_fft, dtype=x.dtype),
                  return_complex=True)


def test_audio_spectrogram_stft_and_istft(threads):
    """40 signals of 800 samples, a 64-point Hann STFT every 16, its log magnitude, and the
    ``istft`` back (audio_spectrogram)."""
    x = np.random.default_rng(0).standard_normal((40, 800)).astype(np.float32)
    _check(lambda L, t: _hann_stft(L, t, 64, 16), x)
    _check(lambda L, t: L.log1p(_hann_stft(L, t, 64, 16).abs()), x)
    _check(lambda L, t: L.istft(_hann_stft(L, t, 64, 16), n_fft=64, hop_length=16,
                                window=L.hann_window(64), length=800), x)


@pytest.mark.parametrize("n_fft,hop,n", [(32, 8, 200), (64, 16, 800), (16, 4, 100),
                                         (30, 10, 150), (256, 128, 2048)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_stft_of_one_signal_and_its_gradient(n_fft, hop, n, dtype, threads):
    """One signal: one frame batch of a single transform per frame column, and the power
    spectrum's gradient through ``stft`` (audio_spectrogram's ``w.grad``)."""
    x = np.random.default_rng(n).standard_normal(n).astype(dtype)
    _check(lambda L, t: _hann_stft(L, t, n_fft, hop), x, grad=True)


@pytest.mark.parametrize("batch,width,n,modes", [(16, 12, 30, 6), (8, 12, 30, 6),
                                                  (4, 12, 60, 6), (16, 12, 32, 8),
                                                  (1, 3, 64, 5)])
def test_spectral_conv1d_and_its_gradients(batch, width, n, modes, threads):
    """The neural operator's SpectralConv1d: ``rfft``, complex weights on the lowest modes,
    ``irfft(n=)``; the gradients of the input and the complex weights (the zero imaginary
    parts of the zero mode's with torch's signs)."""
    rng = np.random.default_rng(n + batch)
    x = rng.standard_normal((batch, width, n)).astype(np.float32)
    w = ((rng.random((width, width, modes)) + 1j * rng.random((width, width, modes)))
         / (width * width)).astype(np.complex64)

    def conv(L, t, wt):
        x_ft = L.fft.rfft(t)
        out = L.zeros(t.shape[0], width, n // 2 + 1, dtype=L.cfloat)
        out[:, :, :modes] = L.einsum("bix,iox->box", x_ft[:, :, :modes], wt)
        return L.fft.irfft(out, n=n)

    _check(conv, x, w, grad=True)


@pytest.mark.parametrize("shape,s", [((2, 3, 12, 12), (12, 12)), ((2, 3, 12, 12), (12, 14)),
                                     ((1, 2, 16, 16), None), ((3, 9, 10), (9, 10))])
def test_rfft2_irfft2_and_gradients(shape, s, threads):
    x = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
    _check(lambda L, t: L.fft.irfft2(L.fft.rfft2(t), s=s), x, grad=True)
    _check(lambda L, t: L.fft.rfft2(t), x, grad=True)


def test_heat_solution_in_fourier_space(threads):
    """``irfft(rfft(u0) * decay, n=)`` in float32 (fourier_neural_operator's data)."""
    u = np.random.default_rng(3).standard_normal((48, 30)).astype(np.float32)

    def heat(L, t):
        k = L.fft.rfftfreq(30, d=1.0 / 30)
        decay = L.exp(-(2 * np.pi * k) ** 2 * 0.02)
        return L.fft.irfft(L.fft.rfft(t) * decay, n=30)

    _check(heat, u, grad=True)


LENGTHS = list(range(1, 41)) + [48, 60, 64, 100, 128, 200, 256, 1000]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("batch", [1, 5, 26])
def test_one_dim_transforms_every_length(dtype, batch, threads):
    """rfft, irfft, fft (real and complex input) and ifft of every length to 40 and some
    longer, every norm: one transform and a batch."""
    rng = np.random.default_rng(batch)
    for n in LENGTHS:
        x = rng.standard_normal((batch, n)).astype(dtype)
        z = (x + 1j * rng.standard_normal((batch, n))).astype(np.result_type(dtype, 1j))
        for norm in ("backward", "ortho", "forward"):
            _check(lambda L, t, c, norm=norm: (L.fft.rfft(t, norm=norm), L.fft.fft(t, norm=norm),
                                               L.fft.fft(c, norm=norm),
                                               L.fft.ifft(c, norm=norm)), x, z)
            if n > 1:
                _check(lambda L, c, norm=norm: L.fft.irfft(c, norm=norm), z)


@pytest.mark.parametrize("n", [8, 16, 30, 32, 64])
def test_one_dim_gradients(n, threads):
    """``FftR2CBackward0``, ``FftC2RBackward0`` and ``FftC2CBackward0`` of one signal and a
    batch."""
    rng = np.random.default_rng(n)
    for batch in ((), (7,)):
        x = rng.standard_normal(batch + (n,)).astype(np.float32)
        z = (x + 1j * rng.standard_normal(batch + (n,))).astype(np.complex64)
        _check(lambda L, t: L.fft.rfft(t), x, grad=True)
        _check(lambda L, c: L.fft.irfft(c, n=n), z, grad=True)
        _check(lambda L, c: L.fft.ifft(L.fft.fft(c)), z, grad=True)
