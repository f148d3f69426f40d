"""Complex autograd against torch: values, gradients of a real loss and grad_fn names, and
finite differences on complex128 (torch's convention: the gradient of a real loss ``L`` is
``dL/dRe + i dL/dIm``)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import ember

R = np.random.default_rng(7)


def _c(shape, dtype, shift=0.0):
    return (R.standard_normal(shape) + 1j * R.standard_normal(shape) + shift).astype(dtype)


CASES = {
    "mul": ([(3,), (3,)], lambda m, x, y: x * y),
    "div": ([(3,), (3,)], lambda m, x, y: x / y),
    "exp": ([(3,)], lambda m, x: x.exp()),
    "log": ([(3,)], lambda m, x: (x + 3).log()),
    "sqrt": ([(3,)], lambda m, x: (x + 3).sqrt()),
    "sin": ([(3,)], lambda m, x: x.sin()),
    "cos": ([(3,)], lambda m, x: x.cos()),
    "tanh": ([(3,)], lambda m, x: x.tanh()),
    "reciprocal": ([(3,)], lambda m, x: x.reciprocal()),
    "pow": ([(3,)], lambda m, x: x ** 2),
    "pow_tensor": ([(3,), (3,)], lambda m, x, y: (x + 3) ** y),
    "abs": ([(3,)], lambda m, x: x.abs() * 2),
    "angle": ([(3,)], lambda m, x: x.angle()),
    "sgn": ([(3,)], lambda m, x: x.sgn() * x),
    "conj": ([(3,)], lambda m, x: x * x.conj()),
    "conj_physical": ([(3,)], lambda m, x: x.conj_physical().exp()),
    "real_imag": ([(3,)], lambda m, x: x.real * 2 + x.imag * x.real),
    "sum_mean_prod": ([(2, 3)], lambda m, x: x.sum(0) * x.mean(0) + x.prod(0)),
    "matmul": ([(2, 3), (3, 2)], lambda m, x, y: x @ y),
    "bmm": ([(2, 2, 3), (2, 3, 2)], lambda m, x, y: m.bmm(x, y)),
    "vdot": ([(3,), (3,)], lambda m, x, y: m.vdot(x, y)),
    "reshape_index": ([(2, 3)], lambda m, x: x.reshape(6)[1:4].exp() * x.t()[0, 1]),
    "cat_stack": ([(2,), (2,)], lambda m, x, y: m.cat([x, m.stack([y, x]).sum(0)]).sin()),
    "where": ([(3,), (3,)], lambda m, x, y: m.where(m.tensor([True, False, True]), x, y) * x),
    "mixed_real": ([(3,)], lambda m, x: x * m.tensor([1.0, -2.0, 0.5], dtype=x.real.dtype)),
    "fft": ([(4,)], lambda m, x: m.fft.fft(x, n=6)),
    "ifft_ortho": ([(4,)], lambda m, x: m.fft.ifft(x, norm="ortho")),
    "rfft": ([(5,)], lambda m, x: m.fft.rfft(x.real * x.imag)),
    "irfft": ([(3,)], lambda m, x: m.fft.irfft(x) * 1j),
    "fft2": ([(2, 4)], lambda m, x: m.fft.fft2(x)),
    "det_inv": ([(3, 3)], lambda m, x: m.linalg.det(x) * m.linalg.inv(x)),
    "solve": ([(3, 3), (3,)], lambda m, x, y: m.linalg.solve(x, y)),
    "norm": ([(3,)], lambda m, x: m.linalg.norm(x) * x),
    "view_as_real": ([(3,)], lambda m, x: m.view_as_complex(m.view_as_real(x) * 2) * x),
    "polar": ([(3,)], lambda m, x: m.polar(x.abs(), x.angle() * 2)),
    "complex": ([(3,)], lambda m, x: m.complex(x.real * x.imag, x.imag).exp()),
    "sigmoid": ([(3,)], lambda m, x: x.sigmoid()),
    "real_write": ([(3,)], lambda m, x: _write_parts(x)),
    "cross": ([(3,), (3,)], lambda m, x, y: m.linalg.cross(x, y)),
    "solve_triangular": ([(3, 3), (3, 2)], lambda m, x, y: m.linalg.solve_triangular(
        x.triu() + 3 * m.eye(3), y, upper=True)),
    "mean_std_all": ([(2, 3)], lambda m, x: x.mean() * x + x.std()),
    "cholesky": ([(3, 3)], lambda m, x: m.linalg.cholesky(x @ x.mH + 3 * m.eye(3))),
    "cholesky_upper": ([(3, 3)], lambda m, x: m.linalg.cholesky(x @ x.mH + 3 * m.eye(3),
                                                                upper=True)),
    "normalize": ([(2, 3)], lambda m, x: m.nn.functional.normalize(x, dim=1)),
    "shape_ops": ([(2, 3)], lambda m, x: m.cat([x.permute(1, 0).reshape(-1), *x.unbind(0),
                                                x.diagonal(), x.take(m.tensor([0, 5]))]).exp()),
    "svdvals": ([(3, 2)], lambda m, x: m.linalg.svdvals(x) * 1j),
    "svd": ([(3, 4)], lambda m, x: _svd_invariant(m, x)),
    "qr": ([(4, 3)], lambda m, x: m.linalg.qr(x)[0] * 2 + m.linalg.qr(x)[1][0]),
    "qr_wide": ([(2, 3)], lambda m, x: m.linalg.qr(x)[1] * 1j),
    "eigh": ([(3, 3)], lambda m, x: _eigh_invariant(m, x)),
    "pinv": ([(3, 2)], lambda m, x: m.linalg.pinv(x)),
    "pinv_hermitian": ([(3, 3)], lambda m, x: m.linalg.pinv(x + x.mH, hermitian=True)),
    "lstsq": ([(3, 2), (3, 1)], lambda m, x, y: m.linalg.lstsq(x, y).solution),
    "holomorphic_mix": ([(2,)], lambda m, x: x * x.exp() + x.sin()),
}


def _write_parts(x):
    y = x.clone()
    y.real.mul_(2)
    y.imag[0] = 1.0
    return y * x


def _svd_invariant(m, x):
    """Functions of the SVD that do not depend on the singular vectors' phases."""
    U, S, Vh = m.linalg.svd(x, full_matrices=False)
    return (U.abs() ** 2).sum(0) * S + (U * S.unsqueeze(-2)) @ Vh[:, :1]


def _eigh_invariant(m, x):
    L, V = m.linalg.eigh(x + x.mH)
    return (V.abs() ** 2).sum(0) * L + m.linalg.eigvalsh(x @ x.mH)


def _loss(m, y):
    c = m.tensor(np.array(0.7 - 1.3j, dtype=np.complex128 if y.dtype in (
        m.complex128, m.float64) else np.complex64))
    return (y * c).real.sum() + y.abs().sum()


def _run(m, fn, arrays):
    xs = [m.tensor(a, requires_grad=True) for a in arrays]
    y = fn(m, *xs)
    _loss(m, y).backward()
    return (y.detach().resolve_conj().numpy(), [x.grad.resolve_conj().numpy() for x in xs],
            type(y.grad_fn).__name__)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=["c64", "c128"])
@pytest.mark.parametrize("name", list(CASES))
def test_as_torch(name, dtype):
    shapes, fn = CASES[name]
    arrays = [_c(s, dtype) for s in shapes]
    tv, tg, tn = _run(torch, fn, arrays)
    ev, eg, en = _run(ember, fn, arrays)
    tol = 1e-4 if dtype == np.complex64 else 1e-10
    assert ev.dtype == tv.dtype
    np.testing.assert_allclose(ev, tv, rtol=tol, atol=tol)
    for e, t in zip(eg, tg):
        assert e.dtype == t.dtype
        np.testing.assert_allclose(e, t, rtol=tol, atol=tol)
    assert en == tn


@pytest.mark.parametrize("name", list(CASES))
def test_finite_differences(name):
    """The gradient of the real loss is dL/dRe + i dL/dIm (complex128)."""
    shapes, fn = CASES[name]
    arrays = [_c(s, np.complex128) for s in shapes]
    _, grads, _ = _run(ember, fn, arrays)

    def loss(arrs):
        with ember.no_grad():
            return float(_loss(ember, fn(ember, *[ember.tensor(a) for a in arrs])))

    eps = 1e-6
    for i, a in enumerate(arrays):
        num = np.zeros_like(a)
        for k in range(a.size):
            for unit in (1.0, 1j):
                plus = [b.copy() for b in arrays]
                minus = [b.copy() for b in arrays]
                plus[i].flat[k] += eps * unit
                minus[i].flat[k] -= eps * unit
                num.flat[k] += unit * (loss(plus) - loss(minus)) / (2 * eps)
        np.testing.assert_allclose(grads[i], num, rtol=1e-5, atol=1e-6)


def test_conj_methods():
    x = ember.tensor([1 + 2j, 3 - 1j])
    assert x.conj().tolist() == [1 - 2j, 3 + 1j]
    assert ember.conj_physical(x).tolist() == [1 - 2j, 3 + 1j]
    r = ember.tensor([1.0, 2.0])
    assert r.conj() is r and r.resolve_conj() is r and not r.is_conj()
    assert x.abs().dtype == ember.float32


def test_real_dtype_untouched():
    """Real tensors keep their formulas as written (no conjugation anywhere)."""
    for m in (torch, ember):
        x = m.tensor([0.5, -1.5], requires_grad=True)
        (x * x.exp()).sin().sum().backward()
        if m is torch:
            want = x.grad.numpy()
        else:
            np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-6)


ERRORS = {
    "max": lambda m, x: m.max(x),
    "min": lambda m, x: x.min(),
    "clamp": lambda m, x: m.clamp(x, 0, 1),
    "relu": lambda m, x: m.relu(x),
    "sort": lambda m, x: m.sort(x),
    "softmax": lambda m, x: m.softmax(x, 0),
    "atan2": lambda m, x: m.atan2(x, x),
    "mse_loss": lambda m, x: m.nn.functional.mse_loss(x, x),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    """Ops torch refuses on complex inputs: the same class and message."""
    got = []
    for m in (torch, ember):
        x = m.tensor(_c((3,), np.complex64))
        with pytest.raises(Exception) as info:
            ERRORS[name](m, x)
        got.append((info.type.__name__, str(info.value).split("\n")[0]))
    assert got[1] == got[0]


REARRANGING = {
    "slice": lambda m, x: x[:, 1:3],
    "select": lambda m, x: x[1],
    "index": lambda m, x: x[[0, 2]],
    "bool_index": lambda m, x: x[x.real > 0],
    "diagonal": lambda m, x: x.diagonal(),
    "narrow": lambda m, x: x.narrow(1, 2, 2),
    "unfold": lambda m, x: x.unfold(1, 2, 3),
    "take": lambda m, x: x.take(m.tensor([0, 5, 7])),
    "gather": lambda m, x: x.gather(1, m.tensor([[0], [1], [2], [3]])),
    "index_select": lambda m, x: x.index_select(1, m.tensor([0, 4])),
    "masked_select": lambda m, x: x.masked_select(x.real > 0),
    "expand": lambda m, x: x[:, :1].expand(4, 3),
    "tril": lambda m, x: x.tril(),
    "where": lambda m, x: m.where(x.real > 0, x, m.zeros_like(x)),
    "masked_fill": lambda m, x: x.masked_fill(x.real > 0, 0),
    "mul_real": lambda m, x: x * 2,
    "mean": lambda m, x: x.mean(1),
    "as_strided": lambda m, x: x.as_strided((2, 2), (1, 6)),
    "repeat": lambda m, x: x[:2].repeat(2, 1),
    "matmul": lambda m, x: x @ x.T,
    "bmm": lambda m, x: x.reshape(2, 2, 6).bmm(x.reshape(2, 6, 2)),
    "einsum": lambda m, x: m.einsum("ij,ik->jk", x, x),
}


@pytest.mark.parametrize("name", sorted(REARRANGING))
def test_rearranging_gradients_keep_torchs_zero_signs(name):
    """A gradient that a real-linear formula moves, sums or fills with zeros has torch's
    bits, the signs of its zeros included (its fresh zeros and cancellations are +0, not
    the -0 a conjugate of a conjugate would leave); so do the complex products' (torch's
    formulas with the other factor conjugated)."""
    x = (R.standard_normal((4, 6)) + 1j * R.standard_normal((4, 6))).astype(np.complex64)
    got = []
    for m in (ember, torch):
        for g_of in (lambda n: np.full(n, 1 - 1j), lambda n: np.where(np.arange(n) % 2, 1, -1)):
            t = m.tensor(x, requires_grad=True)
            y = REARRANGING[name](m, t)
            y.backward(m.tensor(g_of(y.numel()).astype(np.complex64)).reshape(tuple(y.shape)))
            got.append(t.grad.resolve_conj().numpy())
    half = len(got) // 2
    for e, t in zip(got[:half], got[half:]):
        assert e.view(np.uint32).tobytes() == t.view(np.uint32).tobytes()
