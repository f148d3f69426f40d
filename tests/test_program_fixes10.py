"""Fixes found by the tenth batch of real-style programs (``tests/programs``), each checked
against torch: the complex product ``mul`` rounds as torch's kernel does (each part from
rounded products in the vector steps, contracted to fused multiply-adds in the compiled
tail of each row), and complex ``mm``/``bmm`` call MKL's ``cgemm``/``zgemm`` (and their
batched forms) as torch does, ``bmm``'s own loop below 400 multiply-adds forming each product
unfused."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _gemm

from .helpers import errors_alike, torch


def _c(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def _bits(t):
    a = np.ascontiguousarray(t.detach().numpy())
    return a.view(a.real.dtype), a.shape


def _same(fn, *arrays):
    got = [_bits(fn(L, *[L.from_numpy(a.copy()) for a in arrays])) for L in (torch, ember)]
    assert np.array_equal(got[0][0], got[1][0]) and got[0][1] == got[1][1]


MUL_CASES = {
    "same_shape": (lambda L, a, b: a * b, (37,), (37,)),
    "broadcast_scalar_tensor": (lambda L, a, b: a * b, (29,), (1,)),
    "scalar_first": (lambda L, a, b: b * a, (23,), (1,)),
    "python_complex": (lambda L, a, b: a * (0.3 - 1.7j), (21,), (1,)),
    "rows_times_column": (lambda L, a, b: a * b, (3, 13), (3, 1)),
    "rows_times_row": (lambda L, a, b: a * b, (3, 11), (11,)),
    "transposed": (lambda L, a, b: a.t() * b.t(), (5, 9), (5, 9)),
    "strided": (lambda L, a, b: a[::2] * b[::2], (30,), (30,)),
    "real_operand": (lambda L, a, b: a * b.real, (15,), (15,)),
    "one_element": (lambda L, a, b: a * b, (1,), (1,)),
    "in_place": (lambda L, a, b: a.mul_(b), (19,), (19,)),
}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("case", sorted(MUL_CASES))
def test_complex_mul_rounds_as_torch(case, dtype):
    fn, sa, sb = MUL_CASES[case]
    _same(fn, _c(sa, dtype, 1), _c(sb, dtype, 2))


def test_complex_mul_gradient_rounds_as_torch():
    a, b = _c((13,), np.complex64, 3), _c((13,), np.complex64, 4)
    grads = []
    for L in (torch, ember):
        x = L.from_numpy(a.copy()).requires_grad_()
        y = L.from_numpy(b.copy())
        (x * y).abs().sum().backward()
        grads.append(_bits(x.grad)[0])
    assert np.array_equal(*grads)


@pytest.mark.skipif(not _gemm.available(np.complex64), reason="MKL's runtime is not installed")
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shapes", [((5, 7), (7, 3)), ((6, 5, 7), (6, 7, 3)),
                                    ((6, 16, 12), (6, 12, 12)), ((1, 16, 12), (1, 12, 9))])
def test_complex_products_are_torchs_bits(shapes, dtype):
    a, b = _c(shapes[0], dtype, 5), _c(shapes[1], dtype, 6)
    _same(lambda L, x, y: x @ y, a, b)
    _same(lambda L, x, y: x.transpose(-1, -2).conj() @ x, a, b)


@pytest.mark.skipif(not _gemm.available(np.complex64), reason="MKL's runtime is not installed")
def test_complex_einsum_of_a_spectral_layer_and_its_gradients():
    """The Fourier Neural Operator's mode mixing, ``einsum("bix,iox->box")``."""
    x, w = _c((4, 12, 6), np.complex64, 7), _c((12, 12, 6), np.complex64, 8)
    got = []
    for L in (torch, ember):
        xt, wt = L.from_numpy(x.copy()).requires_grad_(), L.from_numpy(w.copy()).requires_grad_()
        out = L.einsum("bix,iox->box", xt, wt)
        out.abs().pow(2).sum().backward()
        got.append([_bits(t)[0] for t in (out, xt.grad, wt.grad)])
    for t, e in zip(*got):
        assert np.array_equal(t, e)


# ----------------------------------------------------------------------------- fake quantization

_SPECIALS = [float("nan"), float("inf"), -float("inf"), 2.5, 3.5, -0.05, 7.4, 7.6, -8.6, 1e30]


def _fq_values(dtype):
    rng = np.random.default_rng(9)
    v = np.concatenate([rng.standard_normal(40) * 1.2, _SPECIALS]).astype(np.float32)
    return v.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("qparams", [(0.1, 3), (0.37, 0), (1.0, -8), (0.0, 0)])
def test_fake_quantize_per_tensor_values_and_gradient(dtype, qparams):
    scale, zp = qparams
    got = []
    for L in (torch, ember):
        x = L.from_numpy(_fq_values(np.float32)).to(getattr(L, dtype)).requires_grad_()
        y = L.fake_quantize_per_tensor_affine(x, scale, zp, -8, 7)
        y.sum().backward()
        got.append((y.float().detach().numpy().tobytes(), x.grad.float().numpy().tobytes(),
                    type(y.grad_fn).__name__, str(y.dtype)))
    assert got[0] == got[1]


def test_fake_quantize_per_tensor_with_tensor_qparams():
    got = []
    for L in (torch, ember):
        x = L.from_numpy(_fq_values(np.float32)).requires_grad_()
        y = L.fake_quantize_per_tensor_affine(x, L.tensor(0.2), L.tensor(10, dtype=L.int32),
                                              -8, 7)
        y.sum().backward()
        got.append((y.detach().numpy().tobytes(), x.grad.numpy().tobytes(),
                    type(y.grad_fn).__name__))
    assert got[0] == got[1]


@pytest.mark.parametrize("zp_dtype", ["int32", "float32"])
@pytest.mark.parametrize("axis", [0, 1])
def test_fake_quantize_per_channel_values_and_gradient(zp_dtype, axis):
    v = _fq_values(np.float32)[:50].reshape(5, 10) * 3
    got = []
    for L in (torch, ember):
        x = L.from_numpy(v.copy()).requires_grad_()
        n = v.shape[axis]
        scale = L.linspace(0.05, 0.9, n)
        zp = (L.arange(n) % 5 - 2).to(getattr(L, zp_dtype)) * (1.25 if zp_dtype[0] == "f" else 1)
        y = L.fake_quantize_per_channel_affine(x, scale, zp, axis, -8, 7)
        (y * L.arange(50.0).view(5, 10)).sum().backward()
        got.append((y.detach().numpy().tobytes(), x.grad.numpy().tobytes(),
                    type(y.grad_fn).__name__))
    assert got[0] == got[1]


@pytest.mark.parametrize("call", [
    lambda L, x: L.fake_quantize_per_tensor_affine(x, 0.1, 0, 7, -8),
    lambda L, x: L.fake_quantize_per_tensor_affine(x, 0.1, 9, -8, 7),
    lambda L, x: L.fake_quantize_per_tensor_affine(x.long(), 0.1, 0, -8, 7),
    lambda L, x: L.fake_quantize_per_channel_affine(x, L.tensor([0.1, 0.2], dtype=L.float64),
                                                    L.tensor([0, 0], dtype=L.int32), 0, -8, 7),
    lambda L, x: L.fake_quantize_per_channel_affine(x, L.tensor([0.1, 0.2]), L.tensor([0, 0]),
                                                    0, -8, 7),
    lambda L, x: L.fake_quantize_per_channel_affine(x, L.tensor([[0.1, 0.2]]),
                                                    L.tensor([0, 0], dtype=L.int32), 0, -8, 7),
    lambda L, x: L.fake_quantize_per_channel_affine(x, L.tensor([0.1, 0.2]),
                                                    L.tensor([0, 0, 0], dtype=L.int32), 0, -8,
                                                    7),
    lambda L, x: L.fake_quantize_per_channel_affine(x, L.tensor([0.1, 0.2, 0.3]),
                                                    L.tensor([0, 0, 0], dtype=L.int32), 0, -8,
                                                    7),
    lambda L, x: L.fake_quantize_per_channel_affine(x, L.tensor([0.1, 0.2]),
                                                    L.tensor([0, 9], dtype=L.int32), 0, -8, 7),
    lambda L, x: L.fake_quantize_per_channel_affine(x, L.tensor([0.1] * 3),
                                                    L.tensor([0] * 3, dtype=L.int32), -1, -8, 7),
    lambda L, x: L.fake_quantize_per_channel_affine(x.long(), L.tensor([0.1, 0.2]),
                                                    L.tensor([0, 0], dtype=L.int32), 0, -8, 7),
])
def test_fake_quantize_errors_are_torchs(call):
    errors_alike(lambda L: call(L, L.ones(2, 3)))


# ----------------------------------------------------------------------------- foreach

def _lists(L):
    rng = np.random.default_rng(11)
    mk = [rng.standard_normal(s).astype(np.float32) for s in ((3,), (2, 4), (5,))]
    return ([L.from_numpy(a.copy()).abs() + 0.5 for a in mk],
            [L.from_numpy(a.copy() * 0.3) for a in mk])


FOREACH = {
    "mul_scalar_": lambda L, a, b: L._foreach_mul_(a, 0.37),
    "add_list_alpha_": lambda L, a, b: L._foreach_add_(a, b, alpha=-0.1),
    "add_tensor": lambda L, a, b: L._foreach_add(a, L.tensor(2.5), alpha=3),
    "sub_scalars": lambda L, a, b: L._foreach_sub(a, [0.1, 0.2, 0.3]),
    "div_list": lambda L, a, b: L._foreach_div(a, b),
    "maximum_scalar": lambda L, a, b: L._foreach_maximum(a, 0.9),
    "minimum_list_": lambda L, a, b: L._foreach_minimum_(a, b),
    "clamp_max": lambda L, a, b: L._foreach_clamp_max(a, 1.0),
    "pow_number_base": lambda L, a, b: L._foreach_pow(2.0, b),
    "pow_": lambda L, a, b: L._foreach_pow_(a, 1.5),
    "sqrt_": lambda L, a, b: L._foreach_sqrt_(a),
    "exp": lambda L, a, b: L._foreach_exp(b),
    "lerp_scalar_": lambda L, a, b: L._foreach_lerp_(a, b, 0.1),
    "lerp_list": lambda L, a, b: L._foreach_lerp(a, b, [L.full_like(t, 0.7) for t in a]),
    "addcmul_": lambda L, a, b: L._foreach_addcmul_(a, b, b, value=0.01),
    "addcdiv_scalars": lambda L, a, b: L._foreach_addcdiv(a, b, a, [0.1, -0.2, 0.3]),
    "addcdiv_tensor_": lambda L, a, b: L._foreach_addcdiv_(a, b, a, L.tensor([1.0, 2.0, 3.0])),
    "norm": lambda L, a, b: L._foreach_norm(b),
    "norm_inf": lambda L, a, b: L._foreach_norm(b, float("inf")),
    "max": lambda L, a, b: L._foreach_max(b),
    "zero_": lambda L, a, b: L._foreach_zero_(a),
    "copy_": lambda L, a, b: L._foreach_copy_(a, b),
    "clone": lambda L, a, b: L._foreach_clone(b),
}


@pytest.mark.parametrize("case", sorted(FOREACH))
def test_foreach_ops_match_torch(case):
    got = []
    for L in (torch, ember):
        a, b = _lists(L)
        r = FOREACH[case](L, a, b)
        got.append((type(r).__name__, r is a, [t.numpy().tobytes() for t in r],
                    [t.numpy().tobytes() for t in a], [tuple(t.shape) for t in r]))
    assert got[0] == got[1]


@pytest.mark.parametrize("call", [
    lambda L, a, b: L._foreach_mul_([], 2.0),
    lambda L, a, b: L._foreach_add(a, b[:1]),
    lambda L, a, b: L._foreach_mul(a, [1.0]),
    lambda L, a, b: L._foreach_add(a, [b[1], b[1], b[1]]),
    lambda L, a, b: L._foreach_mul_([t.requires_grad_() for t in a], 2.0),
])
def test_foreach_errors_are_torchs(call):
    errors_alike(lambda L: call(L, *_lists(L)))


def test_foreach_autograd_is_refused_not_silently_different():
    a, _ = _lists(ember)
    with pytest.raises(NotImplementedError, match="_foreach_mul"):
        ember._foreach_mul([a[0].requires_grad_()], 2.0)
    with ember.no_grad():
        assert ember._foreach_mul([a[0]], 2.0)[0].grad_fn is None


def test_every_foreach_name_resolves_to_its_function():
    import ember._foreach as module
    names = [n for n, m in vars(ember)["_LAZY_NAMES"].items() if m == "_foreach"]
    defined = sorted(n for n in vars(module) if n.startswith("_foreach_"))
    assert sorted(names) == defined
    assert all(hasattr(torch, n) for n in names)
