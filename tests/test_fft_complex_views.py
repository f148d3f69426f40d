"""ember.fft, view_as_real/view_as_complex, polar and linalg.eig against torch."""

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

rng = np.random.default_rng(3)
X32 = rng.standard_normal((4, 6)).astype(np.float32)
X64 = rng.standard_normal((3, 5))
C64 = (rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))).astype(np.complex64)

CALLS = {
    "fft": lambda F, x: F.fft(x), "fft_n_dim": lambda F, x: F.fft(x, n=7, dim=0),
    "fft_ortho": lambda F, x: F.fft(x, norm="ortho"), "ifft": lambda F, x: F.ifft(x),
    "ifft_forward": lambda F, x: F.ifft(x, norm="forward"),
    "fft2": lambda F, x: F.fft2(x), "ifft2": lambda F, x: F.ifft2(x),
    "fftn": lambda F, x: F.fftn(x), "fftn_s": lambda F, x: F.fftn(x, s=(3, 4)),
    "ifftn": lambda F, x: F.ifftn(x, dim=(0,)),
    "fftshift": lambda F, x: F.fftshift(x), "ifftshift": lambda F, x: F.ifftshift(x, dim=1),
}
REAL_CALLS = {
    "rfft": lambda F, x: F.rfft(x), "rfft_n": lambda F, x: F.rfft(x, n=9),
    "irfft": lambda F, x: F.irfft(F.rfft(x)), "irfft_n": lambda F, x: F.irfft(x, n=8),
    "rfftn": lambda F, x: F.rfftn(x), "irfftn": lambda F, x: F.irfftn(F.rfftn(x)),
    "rfft2": lambda F, x: F.rfft2(x), "irfft2": lambda F, x: F.irfft2(F.rfft2(x)),
    "hfft": lambda F, x: F.hfft(x), "ihfft": lambda F, x: F.ihfft(x),
}


def _same(fn, arr):
    t = fn(torch.fft, torch.from_numpy(arr)).resolve_conj()
    e = fn(ember.fft, ember.from_numpy(arr))
    assert str(e.dtype) == str(t.dtype) and tuple(e.shape) == tuple(t.shape)
    tol = 1e-5 if arr.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("arr", [X32, X64, C64], ids=["f32", "f64", "c64"])
def test_transforms_as_torchs(name, arr):
    _same(CALLS[name], arr)


@pytest.mark.parametrize("name", REAL_CALLS)
@pytest.mark.parametrize("arr", [X32, X64], ids=["f32", "f64"])
def test_real_transforms_as_torchs(name, arr):
    _same(REAL_CALLS[name], arr)


def test_frequencies_are_torchs_bits():
    for n, d in ((5, 1.0), (8, 0.1), (1, 2.0), (7, 0.3)):
        for name in ("fftfreq", "rfftfreq"):
            t, e = getattr(torch.fft, name)(n, d), getattr(ember.fft, name)(n, d)
            assert str(e.dtype) == str(t.dtype)
            assert np.array_equal(e.numpy(), t.numpy())
    assert str(ember.fft.fftfreq(4, dtype=ember.float64).dtype) == "torch.float64"


def test_errors_and_gradients():
    for lib in (torch, ember):
        with pytest.raises(RuntimeError, match='Invalid normalization mode: "bogus"'):
            lib.fft.fft(lib.ones(4), norm="bogus")
    grads = []
    for lib in (torch, ember):
        x = lib.arange(4.0, requires_grad=True)
        lib.fft.fft(x).abs().sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-6)
    a = ember.arange(6.0, requires_grad=True)
    ember.fft.fftshift(a).sum().backward()
    assert a.grad.tolist() == [1.0] * 6


def _views(lib):
    r = lib.from_numpy(X32[:, :2].copy()).requires_grad_()
    c = lib.view_as_complex(r)
    back = lib.view_as_real(c)
    (back * lib.arange(2.0)).sum().backward()
    z = lib.from_numpy(C64.copy())
    v = lib.view_as_real(z)
    v[0, 0, 1] = 9.0
    p = lib.polar(lib.tensor([1.0, 2.0]), lib.tensor([0.5, -1.0]))
    return [c.detach(), back.detach(), r.grad, z, v.stride(), type(c.grad_fn).__name__,
            type(back.grad_fn).__name__, c._base is r, p]


def test_complex_views_as_torchs():
    for t, e in zip(_views(torch), _views(ember)):
        if isinstance(t, torch.Tensor):
            assert str(e.dtype) == str(t.dtype)
            np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-6)
        else:
            assert e == t


@pytest.mark.parametrize("make", [lambda L: L.view_as_real(L.ones(2)),
                                  lambda L: L.view_as_complex(L.ones(3, 3)),
                                  lambda L: L.view_as_complex(L.ones(2, 3).t()),
                                  lambda L: L.view_as_complex(L.ones(3, 2, dtype=L.long))])
def test_complex_view_errors_as_torchs(make):
    msgs = []
    for lib in (torch, ember):
        with pytest.raises(RuntimeError) as e:
            make(lib)
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]


def test_eig_eigenvalues_as_torchs_and_a_valid_decomposition():
    for shape, dt in (((3, 3), np.float32), ((2, 4, 4), np.float64)):
        a = rng.standard_normal(shape).astype(dt)
        t = torch.linalg.eig(torch.from_numpy(a))
        e = ember.linalg.eig(ember.from_numpy(a))
        assert str(e.eigenvalues.dtype) == str(t.eigenvalues.dtype)
        np.testing.assert_allclose(e.eigenvalues.numpy(), t.eigenvalues.numpy(), atol=1e-5)
        np.testing.assert_allclose(ember.linalg.eigvals(ember.from_numpy(a)).numpy(),
                                   torch.linalg.eigvals(torch.from_numpy(a)).numpy(), atol=1e-5)
        L, V = e.eigenvalues.numpy(), e.eigenvectors.numpy()
        np.testing.assert_allclose(a @ V, V * L[..., None, :], atol=1e-4)
        np.testing.assert_allclose(np.linalg.norm(V, axis=-2), 1, atol=1e-5)
