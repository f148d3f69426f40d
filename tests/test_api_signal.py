"""Signal processing and numerics against torch 2.13: the window functions (bit for bit),
``torch.signal.windows``, ``stft``/``istft``, the Hermitian n-d FFTs, ``gradient``,
``unravel_index``, ``histogramdd`` and ``quasirandom.SobolEngine`` (bit for bit)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ember
from tests.helpers import NC, Raw, arr, check, errors_alike, run_both, torch

rng = np.random.default_rng(7)


def _bits(t, e):
    assert str(t.dtype) == str(e.dtype) and tuple(t.shape) == tuple(e.shape)
    assert t.requires_grad == e.requires_grad
    a, b = t.detach(), e.detach()
    if str(t.dtype) == "torch.bfloat16":
        a, b = a.float(), b.float()
    assert np.array_equal(a.numpy().view(np.uint8), b.numpy().view(np.uint8))


# ----------------------------------------------------------------------------- windows

WINDOWS = {"hann_window": {}, "hamming_window": {"alpha": 0.6, "beta": 0.38},
           "bartlett_window": {}, "blackman_window": {}, "kaiser_window": {"beta": 5.5}}


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_windows_are_torchs_bits(name, dtype):
    for n in (0, 1, 2, 3, 7, 8, 16, 31, 100, 257, 1024):
        for periodic in (True, False):
            for kw in ({}, WINDOWS[name]):
                t = getattr(torch, name)(n, periodic, dtype=getattr(torch, dtype), **kw)
                e = getattr(ember, name)(n, periodic, dtype=getattr(ember, dtype), **kw)
                _bits(t, e)


@pytest.mark.parametrize("name", WINDOWS)
def test_window_defaults_grad_and_errors(name):
    for n in (0, 1, 5):
        _bits(getattr(torch, name)(n, requires_grad=True),
              getattr(ember, name)(n, requires_grad=True))
    _bits(getattr(torch, name)(6, dtype=torch.float64), getattr(ember, name)(6,
                                                                               dtype=ember.float64))
    for make in (lambda L: getattr(L, name)(-2), lambda L: getattr(L, name)(4, dtype=L.long),
                 lambda L: getattr(L, name)(4, dtype=L.bool),
                 lambda L: getattr(L, name)(4, dtype=L.complex64)):
        errors_alike(make)
    for n in (0, 1):
        t, e = (getattr(L, name)(n, dtype=L.complex64) for L in (torch, ember))
        assert str(t.dtype) == str(e.dtype) and t.tolist() == e.tolist()


SIGNAL_WINDOWS = {"hann": [{}], "hamming": [{}], "bartlett": [{}], "blackman": [{}],
                  "cosine": [{}], "nuttall": [{}],
                  "exponential": [{}, {"tau": 2.5}], "gaussian": [{}, {"std": 3.3}],
                  "kaiser": [{}, {"beta": 4.2}], "general_hamming": [{}, {"alpha": 0.6}],
                  "general_cosine": [{"a": [0.5, 0.3, 0.2]}, {"a": (0.4,)}]}


@pytest.mark.parametrize("name", SIGNAL_WINDOWS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_signal_windows_are_torchs_bits(name, dtype):
    for n in (0, 1, 2, 3, 8, 31, 100, 256):
        for sym in (True, False):
            for kw in SIGNAL_WINDOWS[name]:
                for grad in (False, True):
                    t = getattr(torch.signal.windows, name)(
                        n, sym=sym, dtype=getattr(torch, dtype), requires_grad=grad, **kw)
                    e = getattr(ember.signal.windows, name)(
                        n, sym=sym, dtype=getattr(ember, dtype), requires_grad=grad, **kw)
                    _bits(t, e)
                    tn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
                    en = type(e.grad_fn).__name__ if e.grad_fn is not None else None
                    assert tn == en


def test_signal_window_centre_default_dtype_and_errors():
    W = "signal.windows"
    _bits(torch.signal.windows.exponential(7, center=1.5, sym=False),
          ember.signal.windows.exponential(7, center=1.5, sym=False))
    _bits(torch.signal.windows.hann(5), ember.signal.windows.hann(5))
    for make in (lambda L: L.signal.windows.hann(-1),
                 lambda L: L.signal.windows.gaussian(4, dtype=L.float16),
                 lambda L: L.signal.windows.cosine(4, layout=L.sparse_coo),
                 lambda L: L.signal.windows.exponential(4, tau=0),
                 lambda L: L.signal.windows.exponential(4, center=1.0),
                 lambda L: L.signal.windows.gaussian(4, std=-1.0),
                 lambda L: L.signal.windows.kaiser(4, beta=-1.0),
                 lambda L: L.signal.windows.general_cosine(4, a=3),
                 lambda L: L.signal.windows.general_cosine(4, a=[])):
        errors_alike(make)
    assert W and sorted(ember.signal.windows.__all__) == sorted(torch.signal.windows.__all__)


# ----------------------------------------------------------------------------- stft / istft

X32 = arr((37,), seed=1)
X64 = arr((3, 40), "float64", seed=2)
HANN = np.hanning(8).astype(np.float32)

STFT = {
    "default": lambda L, x: L.stft(x, 8, return_complex=True),
    "window": lambda L, x, w: L.stft(x, 8, window=w, return_complex=True),
    "hop_uncentred": lambda L, x, w: L.stft(x, 8, 3, window=w, center=False,
                                            return_complex=True),
    "constant_normalized": lambda L, x, w: L.stft(x, 8, 3, window=w, pad_mode="constant",
                                                  normalized=True, return_complex=True),
    "twosided": lambda L, x, w: L.stft(x, 8, window=w, onesided=False, return_complex=True),
    "short_window": lambda L, x, w: L.stft(x, 8, win_length=6, window=w[:6],
                                           return_complex=True),
    "no_window_short": lambda L, x: L.stft(x, 8, win_length=5, return_complex=True),
    "real_out": lambda L, x: L.stft(x, 8, return_complex=False),
    "method": lambda L, x: x.stft(6, 2, window=L.hann_window(6, dtype=x.dtype),
                                  return_complex=True),
    "complex_in": lambda L, x: L.stft(x.to(L.complex64), 8, 5, return_complex=True),
    "aligned": lambda L, x: L.stft(x, 16, 5, win_length=9, center=False, align_to_window=True,
                                   return_complex=True),
}


@pytest.mark.parametrize("name", STFT)
def test_stft_as_torchs(name):
    n_args = STFT[name].__code__.co_argcount - 1

    def fn(L, *args):           # (complex outputs compared as real pairs, to a tolerance)
        out = STFT[name](L, *args)
        return L.view_as_real(out) if out.is_complex() else out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # (no window, return_complex=False: as torch warns)
        for x in (X32, X64):
            check(fn, *([x, HANN.astype(x.dtype)][:n_args]), rtol=1e-4, atol=1e-5)
        check(fn, *([NC(arr((40, 2), seed=3)), HANN][:n_args]), rtol=1e-4, atol=1e-5)


def _roundtrip(**kw):
    def fn(L, x, w):
        wl = kw.get("win_length", 8)
        s = L.stft(x, 8, kw.get("hop_length"), wl, w[:wl], center=kw.get("center", True),
                   normalized=kw.get("normalized", False), onesided=kw.get("onesided"),
                   return_complex=True)
        rest = {k: v for k, v in kw.items() if k not in ("hop_length", "win_length")}
        return L.istft(s, 8, kw.get("hop_length"), wl, w[:wl], **rest)
    return fn


ISTFT = {"default": {}, "hop": {"hop_length": 2}, "normalized": {"normalized": True},
         "short_window": {"win_length": 6, "hop_length": 2}, "length": {"length": 30},
         "padded_length": {"length": 45}, "twosided": {"onesided": False},
         "complex_out": {"onesided": False, "return_complex": True}}


def _real(fn):
    def real(L, *args):
        out = fn(L, *args)
        return L.view_as_real(out.resolve_conj()) if out.is_complex() else out
    return real


@pytest.mark.parametrize("name", ISTFT)
def test_istft_as_torchs(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for x in (X32, X64):
            check(_real(_roundtrip(**ISTFT[name])), x, HANN.astype(x.dtype), rtol=1e-4,
                  atol=1e-5)


def test_stft_istft_grad_fn_names():
    for fn in (lambda L, x: L.stft(x, 8, window=L.hann_window(8), return_complex=True),
               lambda L, x: L.stft(x[None], 8, return_complex=True),
               lambda L, x: L.istft(L.stft(x, 8, return_complex=True), 8),
               lambda L, x: L.istft(L.stft(x, 8, return_complex=True), 8, length=40),
               lambda L, x: L.fft.ihfft(x), lambda L, x: L.fft.ihfftn(x.view(1, -1))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t, e = (fn(L, L.from_numpy(X32.copy()).requires_grad_()) for L in (torch, ember))
        assert type(t.grad_fn).__name__ == type(e.grad_fn).__name__


def test_istft_inverts_stft():
    x = ember.from_numpy(X64.copy())
    w = ember.hann_window(8, dtype=ember.float64)
    y = ember.istft(ember.stft(x, 8, 2, window=w, return_complex=True), 8, 2, window=w,
                    length=40)
    np.testing.assert_allclose(y.numpy(), X64, atol=1e-12)


STFT_ERRORS = [
    lambda L: L.stft(L.ones(20), 8),
    lambda L: L.stft(L.ones(20, dtype=L.long), 8, return_complex=True),
    lambda L: L.stft(L.ones(2, 2, 20), 8, return_complex=True),
    lambda L: L.stft(L.ones(20), 30, center=False, return_complex=True),
    lambda L: L.stft(L.ones(20), 8, 0, return_complex=True),
    lambda L: L.stft(L.ones(20), 8, 2, 9, return_complex=True),
    lambda L: L.stft(L.ones(20), 8, window=L.ones(7), return_complex=True),
    lambda L: L.stft(L.ones(20), 8, window=L.ones(8), align_to_window=True,
                     return_complex=True),
    lambda L: L.stft(L.ones(20, dtype=L.complex64), 8, onesided=True, return_complex=True),
    lambda L: L.stft(L.ones(3), 8, return_complex=True),
    lambda L: L.istft(L.ones(5, 3), 8),
    lambda L: L.istft(L.ones(5, 3, dtype=L.complex64), 6),
    lambda L: L.istft(L.ones(5, 3, dtype=L.complex64), 8, 9),
    lambda L: L.istft(L.ones(5, 3, dtype=L.complex64), 8, 2, 9),
    lambda L: L.istft(L.ones(5, 3, dtype=L.complex64), 8, window=L.ones(7)),
    lambda L: L.istft(L.ones(5, 0, dtype=L.complex64), 8),
    lambda L: L.istft(L.ones(5, dtype=L.complex64), 8),
    lambda L: L.istft(L.ones(5, 3, dtype=L.complex64), 8, window=L.zeros(8)),
    lambda L: L.istft(L.ones(5, 3, dtype=L.complex64), 8, onesided=True, return_complex=True),
    lambda L: L.istft(L.ones(8, 3, dtype=L.complex64), 8, window=L.ones(8,
                                                                          dtype=L.complex64)),
]


@pytest.mark.parametrize("k", range(len(STFT_ERRORS)))
def test_stft_errors_as_torchs(k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        errors_alike(STFT_ERRORS[k])


# ----------------------------------------------------------------------------- Hermitian FFTs

C = (rng.standard_normal((3, 4, 5)) + 1j * rng.standard_normal((3, 4, 5))).astype(np.complex64)
R = rng.standard_normal((3, 4, 5))

HFFT = {
    "hfftn": lambda L, x: L.fft.hfftn(x), "hfft2": lambda L, x: L.fft.hfft2(x),
    "hfftn_s": lambda L, x: L.fft.hfftn(x, s=(3, -1)),
    "hfftn_s_dim": lambda L, x: L.fft.hfftn(x, s=(4, 7), dim=(0, 2), norm="forward"),
    "hfftn_one": lambda L, x: L.fft.hfftn(x, dim=(0,), norm="ortho"),
    "hfft": lambda L, x: L.fft.hfft(x, n=6, dim=1),
    "ihfftn": lambda L, x: L.fft.ihfftn(x.real), "ihfft2": lambda L, x: L.fft.ihfft2(x.real),
    "ihfftn_s": lambda L, x: L.fft.ihfftn(x.real, s=(2, 3, 6), norm="ortho"),
    "ihfftn_one": lambda L, x: L.fft.ihfftn(x.real, dim=1, norm="forward"),
    "ihfft": lambda L, x: L.fft.ihfft(x.real, dim=0),
}


@pytest.mark.parametrize("name", HFFT)
def test_hermitian_ffts_as_torchs(name):
    fn = HFFT[name]
    out = run_both(lambda L, x: fn(L, x).resolve_conj(), [torch.from_numpy(C.copy())],
                   [ember.from_numpy(C.copy())])
    assert str(out[0].dtype) == str(out[1].dtype) and out[0].shape == out[1].shape
    np.testing.assert_allclose(out[1].numpy(), out[0].numpy(), rtol=1e-4, atol=1e-5)
    # gradients, through the composed transforms
    check(_real(lambda L, x: fn(L, L.complex(x, 2 * x))), R, rtol=1e-9, atol=1e-10)


HFFT_ERRORS = [lambda L, x: L.fft.hfftn(x, dim=()), lambda L, x: L.fft.ihfftn(x.real, dim=()),
               lambda L, x: L.fft.hfftn(x.real.half()), lambda L, x: L.fft.ihfftn(x),
               lambda L, x: L.fft.hfftn(x, s=(2, 2), dim=(0,)),
               lambda L, x: L.fft.hfftn(x, norm="bad"), lambda L, x: L.fft.hfftn(x, s=(0,)),
               lambda L, x: L.fft.hfftn(x, s=(1,)), lambda L, x: L.fft.ihfft2(x.real, norm="x"),
               lambda L, x: L.fft.hfftn(x, dim=(0, 5)), lambda L, x: L.fft.hfftn(x, dim=(1, 1)),
               lambda L, x: L.fft.hfftn(x, s=(1, 2, 3, 4))]


@pytest.mark.parametrize("k", range(len(HFFT_ERRORS)))
def test_hermitian_fft_errors_as_torchs(k):
    run_both(HFFT_ERRORS[k], [torch.from_numpy(C.copy())], [ember.from_numpy(C.copy())])


def test_hermitian_fft_integers_and_grad_fn():
    for L in (torch, ember):
        assert str(L.fft.hfftn(L.ones(2, 3, dtype=L.long)).dtype) == "torch.float32"
        assert str(L.fft.ihfftn(L.ones(2, 3, dtype=L.long)).dtype) == "torch.complex64"
    check(_real(lambda L, x: L.fft.ihfft2(x)), arr((4, 6), "float64"))
    check(lambda L, x: L.fft.hfft2(L.complex(x, x.flip(0))), arr((4, 6), "float64"))


# ----------------------------------------------------------------------------- gradient

G = np.array([[1., 2, 4, 8], [10, 20, 40, 80], [3, 5, 6, 1]], dtype=np.float32)
COORD = np.array([0., 1., 1.5, 3.5])

GRADIENT = {
    "default": lambda L, x: L.gradient(x), "scalar": lambda L, x: L.gradient(x, spacing=2.),
    "dim": lambda L, x: L.gradient(x, dim=1), "list": lambda L, x: L.gradient(x,
                                                                              spacing=[2., 3.]),
    "list_dims": lambda L, x: L.gradient(x, spacing=[2, 3], dim=(1, 0)),
    "edge2": lambda L, x: L.gradient(x, dim=[1], edge_order=2),
    "coords": lambda L, x, c: L.gradient(x, spacing=(c,), dim=1),
    "coords_edge2": lambda L, x, c: L.gradient(x, spacing=[c], dim=1, edge_order=2),
    "ints": lambda L, x: L.gradient(x.long(), spacing=2, edge_order=2),
    "int_coords": lambda L, x, c: L.gradient(x.int(), spacing=(c,), dim=-1),
    "scalar_input": lambda L, x: L.gradient(x.sum()),
}


@pytest.mark.parametrize("name", GRADIENT)
def test_gradient_as_torchs(name):
    fn = GRADIENT[name]
    extra = [COORD] if fn.__code__.co_argcount == 3 else []
    check(fn, G, *extra)
    check(fn, NC(arr((4, 6), "float64").T), *extra)


def test_gradient_three_dims_coordinates_and_their_gradient():
    c = [np.array([0., .5, 2., 2.5]), np.array([1., 2., 4., 5., 7.])]
    check(lambda L, x, a, b: L.gradient(x, spacing=(a, b), dim=(0, 2), edge_order=2),
          arr((4, 3, 5), "float64"), *c)
    check(lambda L, x: L.gradient(x, spacing=(0.5, 2, 3.), dim=(0, -1, 1), edge_order=2),
          arr((4, 3, 5), "float32"))


GRADIENT_ERRORS = [
    lambda L, x: L.gradient(x, edge_order=3), lambda L, x: L.gradient(x.byte()),
    lambda L, x: L.gradient(x, spacing=[1., 2., 3.]),
    lambda L, x: L.gradient(x, spacing=[1.], dim=[0, 1]),
    lambda L, x: L.gradient(x[:2], edge_order=2), lambda L, x: L.gradient(x, dim=(0, 0)),
    lambda L, x: L.gradient(x, dim=5), lambda L, x: L.gradient(x.bool()),
    lambda L, x: L.gradient(x, spacing=(L.ones(1, 4),), dim=1),
    lambda L, x: L.gradient(x, spacing=L.ones(4), dim=1),
]


@pytest.mark.parametrize("k", range(len(GRADIENT_ERRORS)))
def test_gradient_errors_as_torchs(k):
    run_both(GRADIENT_ERRORS[k], [torch.from_numpy(G.copy())], [ember.from_numpy(G.copy())])


# ----------------------------------------------------------------------------- unravel_index

@pytest.mark.parametrize("make", [
    lambda L: L.unravel_index(L.tensor(4), (3, 2)),
    lambda L: L.unravel_index(L.tensor([[1234], [5678]]), (10, 10, 10, 10)),
    lambda L: L.unravel_index(L.tensor([5, 7], dtype=L.int32), L.Size([3, 4])),
    lambda L: L.unravel_index(L.tensor([5, 7]), 6),
    lambda L: L.unravel_index(L.tensor([-1, 7]), [2, 3]),
    lambda L: L.unravel_index(L.tensor([3]), ()),
    lambda L: L.unravel_index(L.tensor([1.]), 6),
    lambda L: L.unravel_index(L.tensor([True]), (2, 3)),
    lambda L: L.unravel_index(L.tensor([1]), (2, -3)),
    lambda L: L.unravel_index(L.tensor([1]), (2, 3.)),
    lambda L: L.unravel_index(L.tensor([1]), 2.5),
])
def test_unravel_index_as_torchs(make):
    check(lambda L: make(L))


# ----------------------------------------------------------------------------- histogramdd

P = np.array([[0., 1.], [1., 0.], [2., 0.], [2., 2.], [0.5, 0.7]], dtype=np.float32)
PW = np.array([1., 2., 4., 8., 3.], dtype=np.float32)
P3 = arr((60, 3), seed=5)


def _hist(make):
    res = run_both(make)
    if res is None:
        return
    t, e = res
    assert type(e).__name__ == "histogramdd" and isinstance(e.bin_edges, tuple)
    assert str(t.hist.dtype) == str(e.hist.dtype)
    np.testing.assert_array_equal(e.hist.numpy(), t.hist.numpy())
    assert len(t.bin_edges) == len(e.bin_edges)
    for a, b in zip(t.bin_edges, e.bin_edges):
        np.testing.assert_array_equal(b.numpy(), a.numpy())


@pytest.mark.parametrize("make", [
    lambda L: L.histogramdd(L.from_numpy(P), bins=[3, 3], weight=L.from_numpy(PW)),
    lambda L: L.histogramdd(L.from_numpy(P), bins=2),
    lambda L: L.histogramdd(L.from_numpy(P), bins=[2, 3], range=[0., 1., 0., 1.]),
    lambda L: L.histogramdd(L.from_numpy(P), bins=[L.tensor([0., 1., 2.]),
                                                   L.tensor([0., 0.5, 2.5])], density=True),
    lambda L: L.histogramdd(L.from_numpy(P), bins=2, density=True),
    lambda L: L.histogramdd(L.from_numpy(P).reshape(5, 1, 2), bins=2),
    lambda L: L.histogramdd(L.zeros(0, 2), bins=2),
    lambda L: L.histogramdd(L.from_numpy(P3), bins=[4, 5, 6], weight=L.from_numpy(P3[:, 0])),
    lambda L: L.histogramdd(L.from_numpy(P3).double(), bins=7, density=True),
    lambda L: L.histogramdd(L.from_numpy(P3), bins=[L.linspace(-1, 1, 5),
                                                    L.tensor([-3., 0., 0.5, 3.]),
                                                    L.tensor([-0.5, 0.5])]),
])
def test_histogramdd_as_torchs(make):
    _hist(make)


@pytest.mark.parametrize("make", [
    lambda L, x, w: L.histogramdd(x, bins=[2, 3, 4]),
    lambda L, x, w: L.histogramdd(x.long(), bins=2),
    lambda L, x, w: L.histogramdd(x, bins=[2, 0]),
    lambda L, x, w: L.histogramdd(x, bins=2, range=[0., 1.]),
    lambda L, x, w: L.histogramdd(x, bins=2, range=[1., 0., 0., 1.]),
    lambda L, x, w: L.histogramdd(x, bins=2, range=[0, float("inf"), 0, 1]),
    lambda L, x, w: L.histogramdd(x, bins=2, weight=w[:3]),
    lambda L, x, w: L.histogramdd(x[:, 0], bins=2),
    lambda L, x, w: L.histogramdd(x.double(), bins=[2, 2], weight=w),
    lambda L, x, w: L.histogramdd(x, bins=[L.tensor([0., 1.]), L.tensor([[0., 1.]])]),
    lambda L, x, w: L.histogramdd(x, bins=[L.tensor([0.]), L.tensor([0., 1.])]),
    lambda L, x, w: L.histogramdd(x, bins=[L.tensor([0., 1.])]),
    lambda L, x, w: L.histogramdd(x, bins=[L.tensor([0., 1.]), L.tensor([0., 1.]).double()]),
])
def test_histogramdd_errors_as_torchs(make):
    run_both(make, [torch.from_numpy(P.copy()), torch.from_numpy(PW.copy())],
             [ember.from_numpy(P.copy()), ember.from_numpy(PW.copy())])


# ----------------------------------------------------------------------------- SobolEngine

def test_sobol_direction_numbers_are_torchs():
    import ember.quasirandom as q
    dim = q.SobolEngine.MAXDIM
    t = torch.zeros(dim, 30, dtype=torch.long)
    torch._sobol_engine_initialize_state_(t, dim)
    assert np.array_equal(q._directions(dim), t.numpy())


def _sobol_session(L, dim, scramble, seed, dtype):
    eng = L.quasirandom.SobolEngine(dim, scramble=scramble, seed=seed)
    dt = getattr(L, dtype)
    out = [eng.draw(1, dtype=dt), eng.draw(5, dtype=dt), eng.draw(3, dtype=dt)]
    eng.fast_forward(7)
    out.append(eng.draw(4, dtype=dt))
    eng.reset()
    out.append(eng.draw(6, dtype=dt))
    eng.reset().fast_forward(3)
    out.append(eng.draw(2, dtype=dt))
    eng.reset()
    out += [eng.draw_base2(3, dtype=dt), eng.draw_base2(3, dtype=dt), eng.draw()]
    buf = L.empty(0, dtype=dt)
    out.append(eng.draw(2, out=buf, dtype=dt))
    return out + [buf, eng.sobolstate, eng.shift, eng.quasi, repr(eng), eng.num_generated]


@pytest.mark.parametrize("dim", [1, 2, 7, 300])
@pytest.mark.parametrize("scramble,seed", [(False, None), (True, 0), (True, 12345)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sobol_sequences_are_torchs_bits(dim, scramble, seed, dtype):
    t = _sobol_session(torch, dim, scramble, seed, dtype)
    e = _sobol_session(ember, dim, scramble, seed, dtype)
    for a, b in zip(t, e):
        if isinstance(a, torch.Tensor):
            _bits(a, b)
        else:
            assert a == b


def test_sobol_unseeded_scrambling_draws_the_global_generator():
    outs = []
    for L in (torch, ember):
        L.manual_seed(3)
        eng = L.quasirandom.SobolEngine(4, scramble=True)
        outs.append((eng.draw(9), L.rand(3)))
    for a, b in zip(*outs):
        _bits(a, b)


@pytest.mark.parametrize("make", [
    lambda L: L.quasirandom.SobolEngine(0),
    lambda L: L.quasirandom.SobolEngine(21202),
    lambda L: L.quasirandom.SobolEngine(3).draw(3).add(0) and
    L.quasirandom.SobolEngine(3).draw_base2(1).add(0) and
    L.quasirandom.SobolEngine(3).fast_forward(1).draw_base2(1),
    lambda L: L.quasirandom.SobolEngine(3).draw(4, dtype=L.float16),
])
def test_sobol_errors_as_torchs(make):
    errors_alike(make)


# ----------------------------------------------------------------------------- loading

def test_new_modules_load_on_first_use():
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    code = ("import json, sys, ember\n"
            "mods = ['ember._ops.spectral', 'ember._ops.numerics', 'ember.quasirandom',\n"
            "        'ember.signal']\n"
            "before = [m in sys.modules for m in mods]\n"
            "ember.hann_window(4); ember.gradient(ember.ones(3)); ember.signal.windows.hann(3)\n"
            "ember.quasirandom.SobolEngine(2); ember.ones(8).stft(4, return_complex=True,\n"
            "                                                     window=ember.ones(4))\n"
            "print(json.dumps([before, [m in sys.modules for m in mods],\n"
            "                  'signal' in dir(ember), 'stft' in dir(ember)]))")
    env = dict(os.environ, PYTHONPATH=src)
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.splitlines()[-1]) == [[False] * 4, [True] * 4, True, True]


def test_raw_helper_kept():
    # (Raw is the helpers' way to pass plain values; windows take plain lengths)
    check(lambda L, n: L.hann_window(n, dtype=L.float64), Raw(9))


def test_kaiser_beta_only_after_periodic():
    """torch's overloads take ``beta`` only with ``periodic``: ``kaiser_window(6, beta=8.0)``
    is a TypeError, with or without the default window."""
    errors_alike(lambda lib: lib.kaiser_window(6, beta=8.0))
    check(lambda lib: lib.kaiser_window(6, periodic=False, beta=8.0), grad=False)
    check(lambda lib: lib.kaiser_window(7), grad=False)
