"""``torch.fft`` on MKL's DFTI: with MKL's runtime installed the transforms are torch's bit for
bit, with torch's result strides (the batch dims permuted first, then restored by
``as_strided``): real and complex, one- and n-dimensional, resized, every norm, the
Hermitian ones and ``stft``, and their gradients, on 1 and 2 threads (a one-dim transform's
descriptor made as ``mkl_dfti.h``'s ``DftiCreateDescriptor`` macro makes torch's: the
``_1d`` constructor, whose kernels differ from an n-dim descriptor's on one thread)."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _vml

from .helpers import torch

pytestmark = pytest.mark.skipif(_vml.library() is None, reason="MKL's runtime is not installed")


def _kernels_agree() -> bool:
    """Whether MKL's runtime takes torch's DFT kernels on this CPU: on AMD it does (both run
    the generic paths); on an AVX512 Intel CPU the runtime's own AVX512 kernels differ from
    those of the MKL built into torch in some sizes' last bits (docs/differences.md)."""
    x = np.random.default_rng(1).standard_normal((3, 128))
    return np.array_equal(ember.fft.rfft(ember.tensor(x)).numpy(),
                          torch.fft.rfft(torch.tensor(x)).numpy())


def _assert_torchs(got, want, dtype):
    """Bit for bit where the kernels agree; elsewhere within a few ulps of the type, and
    the case is reported as the known difference."""
    if np.array_equal(got, want):
        return
    if _AGREE[0] is None:
        _AGREE[0] = _kernels_agree()
    assert not _AGREE[0], "MKL's DFT kernels agree with torch's here: expected its bits"
    tol = 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-13
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max()))
    pytest.xfail("MKL's runtime DFT kernels differ from torch's on this CPU")


_AGREE: list = [None]

CALLS = {
    "fft": lambda L, a, c: L.fft.fft(c),
    "fft_real": lambda L, a, c: L.fft.fft(a),
    "fft_n": lambda L, a, c: L.fft.fft(c, n=16, dim=1),
    "ifft": lambda L, a, c: L.fft.ifft(c),
    "ifft_real": lambda L, a, c: L.fft.ifft(a),
    "rfft": lambda L, a, c: L.fft.rfft(a),
    "rfft_ortho": lambda L, a, c: L.fft.rfft(a, norm="ortho"),
    "rfft_forward": lambda L, a, c: L.fft.rfft(a, norm="forward"),
    "irfft": lambda L, a, c: L.fft.irfft(c),
    "irfft_n": lambda L, a, c: L.fft.irfft(c, n=11),
    "fft2": lambda L, a, c: L.fft.fft2(c),
    "fft2_real": lambda L, a, c: L.fft.fft2(a),
    "ifft2": lambda L, a, c: L.fft.ifft2(c),
    "rfft2": lambda L, a, c: L.fft.rfft2(a),
    "irfft2": lambda L, a, c: L.fft.irfft2(c),
    "fftn": lambda L, a, c: L.fft.fftn(c),
    "rfftn_s": lambda L, a, c: L.fft.rfftn(a, s=(5, 8)),
    "irfftn_dims": lambda L, a, c: L.fft.irfftn(c, dim=(0, 2)),
    "hfft": lambda L, a, c: L.fft.hfft(c),
    "ihfft": lambda L, a, c: L.fft.ihfft(a),
    "hfftn": lambda L, a, c: L.fft.hfftn(c),
    "ihfftn": lambda L, a, c: L.fft.ihfftn(a),
    "fft_dim0": lambda L, a, c: L.fft.fft(c, dim=0),
    "rfft_transposed": lambda L, a, c: L.fft.rfft(a.transpose(0, 2)),
    "stft": lambda L, a, c: L.stft(a[0].reshape(-1), 16, return_complex=True,
                                   window=L.hann_window(16, dtype=a.dtype)),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_float32_transforms_are_torchs(name):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 12, 9))
    xc = x + 1j * rng.standard_normal((4, 12, 9))
    got = []
    for L in (ember, torch):
        out = CALLS[name](L, L.tensor(x, dtype=L.float32), L.tensor(xc, dtype=L.complex64))
        got.append((out.resolve_conj().numpy(), out.stride(), str(out.dtype)))
    assert got[0][1:] == got[1][1:]
    _assert_torchs(got[0][0], got[1][0], got[1][0].dtype)


@pytest.mark.parametrize("n", [8, 16, 100, 128, 1000])
def test_float64_transforms_are_torchs(n):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, n))
    got = []
    for L in (ember, torch):
        a = L.tensor(x, dtype=L.float64)
        got.append([L.fft.rfft(a).numpy(), L.fft.fft(a.to(L.complex128)).numpy(),
                    L.fft.irfft(L.fft.rfft(a), n=n).numpy()])
    for p, q in zip(*got):
        _assert_torchs(p, q, q.dtype)


def test_gradients_are_torchs():
    x = np.random.default_rng(2).standard_normal((3, 20))
    got = []
    for L in (ember, torch):
        a = L.tensor(x, dtype=L.float32, requires_grad=True)
        spec = L.fft.rfft(a, norm="ortho")
        (spec.abs() ** 2).sum().backward()
        got.append(a.grad.numpy())
    assert np.array_equal(got[0], got[1])
