"""elu, selu, celu, softplus, mish and gelu: torch's CPU kernels bit for bit, values and
gradients."""

import numpy as np
import pytest
import torch

import ember

CASES = [("elu", {}), ("elu", {"alpha": 0.3}), ("selu", {}), ("celu", {}),
         ("celu", {"alpha": 0.7}), ("softplus", {}), ("softplus", {"beta": 2, "threshold": 3}),
         ("mish", {}), ("gelu", {"approximate": "tanh"})]
SHAPES = [(), (1,), (5, 7), (3, 17), (33,), (64, 40)]
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 30.0, -30.0, 1e-40, 88.0, -104.0]


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def _run(lib, name, kw, x, g, layout):
    t = layout(lib.tensor(x)).requires_grad_(True)
    y = getattr(lib.nn.functional, name)(t, **kw)
    y.backward(layout(lib.tensor(g)))
    return y.detach().numpy(), t.grad.numpy(), type(y.grad_fn).__name__


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, kw", CASES)
def test_values_and_gradients_are_torchs(name, kw, dtype):
    rng = np.random.default_rng(11)
    for shape in SHAPES:
        x = (rng.standard_normal(shape) * 4).astype(dtype)
        if x.size >= len(SPECIAL):
            with np.errstate(over="ignore"):
                x.flat[:len(SPECIAL)] = np.array(SPECIAL).astype(dtype)
        g = rng.standard_normal(shape).astype(dtype)
        layouts = [lambda t: t] + ([lambda t: t.t()] if len(shape) == 2 else [])
        for layout in layouts:
            got = _run(ember, name, kw, x, g, layout)
            want = _run(torch, name, kw, x, g, layout)
            assert got[2] == want[2]
            assert _same(got[0], want[0]), (shape, "value")
            assert _same(got[1], want[1]), (shape, "grad")


@pytest.mark.parametrize("name, kw", CASES)
def test_double_backward_and_other_dtypes(name, kw):
    x = np.linspace(-3, 3, 13)
    grads = []
    for lib in (ember, torch):
        t = lib.tensor(x, requires_grad=True)
        (gx,) = lib.autograd.grad(getattr(lib.nn.functional, name)(t, **kw).sum(), t,
                                  create_graph=True)
        gx.sum().backward()
        grads.append(t.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-12)
    h = getattr(ember.nn.functional, name)(ember.tensor(x, dtype=ember.bfloat16), **kw)
    ref = getattr(torch.nn.functional, name)(torch.tensor(x, dtype=torch.bfloat16), **kw)
    np.testing.assert_allclose(h.float().numpy(), ref.float().numpy(), rtol=2e-2, atol=2e-2)


def test_inplace_elu_keeps_its_node():
    for lib in (ember, torch):
        t = lib.tensor([-1.0, 2.0], requires_grad=True).clone()
        y = lib.nn.functional.elu(t, inplace=True)
        assert type(y.grad_fn).__name__ == "EluBackward1"


def test_gelu_erf_values_and_float64_gradients():
    """gelu's erf form: values and gradients (vectors, one element, strided views) are
    torch's bits in float32 and float64; float32's gradient of a C-contiguous input runs
    oneDNN's kernel, of any other ATen's."""
    rng = np.random.default_rng(12)
    for shape in SHAPES:
        for dtype in (np.float32, np.float64):
            x = (rng.standard_normal(shape) * 4).astype(dtype)
            if x.size >= len(SPECIAL):
                with np.errstate(over="ignore"):
                    x.flat[:len(SPECIAL)] = np.array(SPECIAL).astype(dtype)
            layouts = [lambda t: t] + ([lambda t: t.t(), lambda t: t[:, ::2]]
                                       if len(shape) == 2 else [])
            for layout in layouts:
                te, tt = (layout(lib.tensor(x)).requires_grad_(True) for lib in (ember, torch))
                ye, yt = ember.nn.functional.gelu(te), torch.nn.functional.gelu(tt)
                assert _same(ye.detach().numpy(), yt.detach().numpy()), (shape, dtype)
                ge = rng.standard_normal(tuple(yt.shape)).astype(dtype)
                ye.backward(ember.tensor(ge))
                yt.backward(torch.tensor(ge))
                assert _same(te.grad.numpy(), tt.grad.numpy()), (shape, dtype, "grad")


def _bits_equal(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return (a.view(np.int32) == b.view(np.int32)) | (np.isnan(a) & np.isnan(b))


def test_gelu_erf_float32_contiguous_gradient_is_onednns_bits():
    """float32 GeluBackward on a C-contiguous input (oneDNN's gelu_erf kernel in torch):
    torch's exact bits on random normal, wide-range and special inputs, times random
    normal, wide-range and special gradients (subnormal products included)."""
    rng = np.random.default_rng(13)
    n = 200_000
    fi = np.finfo(np.float32)
    special = np.array([0.0, -0.0, fi.smallest_subnormal, -fi.smallest_subnormal, fi.tiny,
                        -fi.tiny, np.inf, -np.inf, np.nan, fi.max, -fi.max, 1.0, -1.0, 13.2,
                        -13.2, 14.0, -14.0, 1e-20, -1e-20, 87.33, -87.33], np.float32)
    with np.errstate(over="ignore"):
        xs = [rng.standard_normal(n) * 3, rng.uniform(-16, 16, n),
              np.sign(rng.standard_normal(n)) * 10.0 ** rng.uniform(-45, 38, n)]
        gs = [np.ones(n), rng.standard_normal(n),
              np.sign(rng.standard_normal(n)) * 10.0 ** rng.uniform(-45, 38, n)]
        xs = [v.astype(np.float32) for v in xs]
        gs = [v.astype(np.float32) for v in gs]
    sx, sg = np.meshgrid(special, np.concatenate([special, [0.3, -2.5]]).astype(np.float32))
    pairs = [(x, g) for x in xs for g in gs] + [(sx.ravel(), sg.ravel())]
    for x, g in pairs:
        x, g = np.ascontiguousarray(x), np.ascontiguousarray(g)
        te, tt = ember.tensor(x).requires_grad_(True), torch.tensor(x).requires_grad_(True)
        ember.nn.functional.gelu(te).backward(ember.tensor(g))
        torch.nn.functional.gelu(tt).backward(torch.tensor(g))
        same = _bits_equal(te.grad.numpy(), tt.grad.numpy())
        assert same.all(), (x[~same][:5], g[~same][:5])
