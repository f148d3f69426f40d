"""``stft`` and ``istft``, forward and backward, are torch's bit for bit.

Both are ATen's composites (centre padding, frames as a strided view, the window product,
``_fft_r2c``/``_fft_c2c``/``_fft_c2r``; overlap-add through ``unfold_backward`` and the
window envelope), differentiated piece by piece. Their bits therefore depend on two things:
the composition, and MKL's DFT kernels. The mkl wheel's DFT kernels are torch's on torch's
default thread count, except float64 transforms of some small sizes that are not powers of
two (compared within round-off below), and torch's statically linked MKL takes other
small-size kernels on one thread (see docs/differences.md), so the
composition is checked on its own too: with Ember's DFTI calls routed to the DFTI
functions that torch's library exports, every stage (the transforms' gradients, the frames'
overlapping accumulation, the reflection pad's backward) must give torch's bits.
"""

from __future__ import annotations

import ctypes
import os

import numpy as np
import pytest

import ember
from ember._ops import _dfti, _vml

from .helpers import torch

pytestmark = pytest.mark.skipif(_vml.library() is None, reason="MKL's runtime is not installed")

# (n_fft, keyword arguments of stft); window names a window of win_length (n_fft if unset)
STFT = [
    (64, {"hop_length": 16, "window": "hann"}),
    (32, {"hop_length": 8, "window": "hann"}),
    (32, {"window": "hamming", "normalized": True}),
    (16, {"hop_length": 3, "window": "hann", "pad_mode": "constant"}),
    (24, {"hop_length": 5, "win_length": 17, "window": "hann", "pad_mode": "replicate"}),
    (30, {"hop_length": 7, "win_length": 20, "pad_mode": "circular"}),
    (32, {"hop_length": 8, "window": "hann", "center": False}),
    (20, {"hop_length": 4, "window": "blackman", "onesided": False}),
    (32, {"hop_length": 8, "window": "hann", "return_complex": False}),
    (33, {"hop_length": 11, "window": "hann", "normalized": True, "onesided": False,
          "return_complex": False}),
    (16, {"hop_length": 4, "window": "complex"}),
    (128, {"hop_length": 32, "window": "hann"}),
]

# (n_fft, keyword arguments of istft)
ISTFT = [
    (32, {"hop_length": 8, "window": "hann"}),
    (64, {"hop_length": 16, "window": "hann", "length": 290}),
    (32, {"hop_length": 8, "window": "hamming", "normalized": True, "center": False}),
    (24, {"hop_length": 6, "win_length": 18, "window": "hamming"}),
    (16, {"hop_length": 4, "window": "hann", "onesided": False}),
    (16, {"hop_length": 4, "window": "hann", "onesided": False, "return_complex": True}),
    (40, {"hop_length": 10}),
]

DTYPES = ["float32", "float64"]


def _window(lib, name, length, dtype):
    if name == "complex":
        w = lib.hann_window(length, dtype=dtype)
        return lib.complex(w, lib.cos(lib.arange(length, dtype=dtype)))
    return getattr(lib, f"{name}_window")(length, dtype=dtype)


def _signal(dtype, complex_input=False):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 300)).astype(dtype)
    return x + 1j * rng.standard_normal((3, 300)).astype(dtype) if complex_input else x


def _cosine(shape, dtype):
    return np.cos(np.arange(int(np.prod(shape)), dtype=dtype)).reshape(shape)


def _stft(lib, n_fft, kw, dtype):
    """The output of ``stft`` and the gradients of its input and window under a fixed
    cosine gradient of the output's real view."""
    kw = dict(kw)
    dt = getattr(lib, dtype)
    name = kw.pop("window", None)
    window = None
    if name is not None:
        window = _window(lib, name, kw.get("win_length", n_fft), dt).requires_grad_()
    x = lib.from_numpy(_signal(dtype)).requires_grad_()
    kw.setdefault("return_complex", True)
    out = lib.stft(x, n_fft, window=window, **kw)
    real = lib.view_as_real(out) if out.is_complex() else out
    real.backward(lib.from_numpy(_cosine(tuple(real.shape), dtype)))
    got = [real.detach().numpy(), x.grad.numpy()]
    if window is not None:
        got.append(window.grad.resolve_conj().numpy())
    return got


def _istft(lib, n_fft, kw, dtype):
    """The output of ``istft`` of a signal's spectrum and that spectrum's gradient."""
    kw = dict(kw)
    dt = getattr(lib, dtype)
    name = kw.pop("window", None)
    window = None if name is None else _window(lib, name, kw.get("win_length", n_fft), dt)
    sided = kw.get("onesided", True)
    spec = lib.stft(lib.from_numpy(_signal(dtype)), n_fft, kw["hop_length"],
                    kw.get("win_length"), window, center=kw.get("center", True),
                    normalized=kw.get("normalized", False), onesided=sided,
                    return_complex=True).detach().requires_grad_()
    out = lib.istft(spec, n_fft, window=window, **kw)
    real = lib.view_as_real(out) if out.is_complex() else out
    real.backward(lib.from_numpy(_cosine(tuple(real.shape), dtype)))
    return [real.detach().numpy(), lib.view_as_real(spec.grad).numpy()]


def _same(run, n_fft, kw, dtype, exact=True):
    ours, theirs = run(ember, n_fft, kw, dtype), run(torch, n_fft, kw, dtype)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a.shape == b.shape
        if exact:
            assert np.array_equal(a, b), (i, int((a != b).sum()), a.size)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def _wheel_exact(n_fft, dtype) -> bool:
    """Whether the wheel's kernel for this size is torch's (not: float64, not a power of 2)."""
    return dtype != "float64" or n_fft & (n_fft - 1) == 0


def _torch_dfti():
    """torch's library as a stand-in for MKL's runtime: its exported DFTI functions, the
    generic ``DftiCreateDescriptor`` made of its per-precision ones (as mkl_dfti.h's macro
    does); None where torch's build does not export them."""
    lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))
    if not hasattr(lib, "DftiCreateDescriptor_s_1d"):
        return None

    class Library:
        def __getattr__(self, name):
            return getattr(lib, name)

        def DftiCreateDescriptor(self, handle, prec, domain, ndim, sizes):  # noqa: N802
            p = "s" if prec.value == _dfti._SINGLE else "d"
            if ndim.value == 1:
                return getattr(lib, f"DftiCreateDescriptor_{p}_1d")(handle, domain, sizes)
            return getattr(lib, f"DftiCreateDescriptor_{p}_md")(handle, domain, ndim, sizes)

    return Library()


@pytest.fixture
def torchs_kernels(monkeypatch):
    library = _torch_dfti()
    if library is None:
        pytest.skip("torch's library does not export MKL's DFTI functions")

    class Runtime:
        @staticmethod
        def library():
            return library

    monkeypatch.setattr(_dfti, "_vml", Runtime)
    monkeypatch.setattr(_dfti, "_PLANS", {})


def _kernels_agree() -> bool:
    """Whether the mkl wheel's DFT kernels give torch's bits on this CPU (small sizes)."""
    x = np.cos(np.arange(4 * 32, dtype=np.float32) * 0.7).reshape(4, 32)
    return all(np.array_equal(ember.view_as_real(ember.fft.rfft(ember.from_numpy(a))).numpy(),
                              torch.view_as_real(torch.fft.rfft(torch.from_numpy(a))).numpy())
               for a in (x, x.astype(np.float64)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", range(len(STFT)))
def test_stft_composition_is_torchs(case, dtype, torchs_kernels):
    _same(_stft, *STFT[case], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", range(len(ISTFT)))
def test_istft_composition_is_torchs(case, dtype, torchs_kernels):
    _same(_istft, *ISTFT[case], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", range(len(STFT)))
def test_stft_is_torchs(case, dtype):
    if not _kernels_agree():
        pytest.skip("the mkl wheel's DFT kernels differ from torch's on this CPU")
    _same(_stft, *STFT[case], dtype, _wheel_exact(STFT[case][0], dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", range(len(ISTFT)))
def test_istft_is_torchs(case, dtype):
    if not _kernels_agree():
        pytest.skip("the mkl wheel's DFT kernels differ from torch's on this CPU")
    _same(_istft, *ISTFT[case], dtype, _wheel_exact(ISTFT[case][0], dtype))
