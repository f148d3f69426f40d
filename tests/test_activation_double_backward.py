"""Activations' gradients built with ``create_graph`` (gradient penalties, physics-informed
losses, Hessian-vector products): torch's nodes (``EluBackwardBackward0``,
``GeluBackwardBackward0``, ``SoftplusBackwardBackward0``, ``SigmoidBackwardBackward0`` …) and
torch's bits, first and second order."""

from __future__ import annotations

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

CASES = {
    "celu": lambda F, x: F.celu(x, alpha=0.7), "elu": lambda F, x: F.elu(x, 1.3),
    "selu": lambda F, x: F.selu(x), "gelu": lambda F, x: F.gelu(x),
    "gelu_tanh": lambda F, x: F.gelu(x, approximate="tanh"), "mish": lambda F, x: F.mish(x),
    "silu": lambda F, x: F.silu(x), "softplus": lambda F, x: F.softplus(x, beta=2, threshold=5),
    "hardswish": lambda F, x: F.hardswish(x), "logsigmoid": lambda F, x: F.logsigmoid(x),
    "tanh": lambda F, x: x.tanh(), "sigmoid": lambda F, x: x.sigmoid(),
    "relu": lambda F, x: F.relu(x),
}
# second derivatives of which a few elements differ from torch's by an ulp (mish: its composite
# first derivative, whose gradient torch sums in another order)
SECOND_ORDER_APPROX = {("mish", "float32"), ("mish", "float64")}


def _run(lib, F, name, dtype):
    rng = np.random.default_rng(7)
    x = lib.tensor((rng.standard_normal((4, 5)) * 3).astype(dtype), requires_grad=True)
    c1 = lib.tensor(rng.standard_normal((4, 5)).astype(dtype))
    c2 = lib.tensor(rng.standard_normal((4, 5)).astype(dtype))
    (g,) = lib.autograd.grad(CASES[name](F, x), x, c1, create_graph=True)
    (g2,) = lib.autograd.grad(g, x, c2, create_graph=True)
    return (g.grad_fn.name(), None if g2.grad_fn is None else g2.grad_fn.name(),
            g.detach().numpy(), g2.detach().numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_double_backward_matches_torch(name, dtype):
    want = _run(torch, torch.nn.functional, name, dtype)
    got = _run(ember, ember.nn.functional, name, dtype)
    assert got[:2] == want[:2]
    assert got[2].tobytes() == want[2].tobytes()
    if (name, dtype) in SECOND_ORDER_APPROX:
        np.testing.assert_allclose(got[3], want[3], rtol=1e-5, atol=1e-6)
    else:
        assert got[3].tobytes() == want[3].tobytes()


@pytest.mark.parametrize("name", ["tanh", "sigmoid", "logsigmoid", "elu", "silu", "softplus"])
def test_float16_first_order_matches_torch(name):
    """float16: tanh's and log_sigmoid's backward compute in float32 and round once (log_sigmoid
    from the forward's half buffer), sigmoid's rounds each step, as torch's kernels do."""
    out = []
    for lib in (torch, ember):
        rng = np.random.default_rng(3)
        x = lib.tensor((rng.standard_normal((5, 9)) * 3).astype("float16"), requires_grad=True)
        c = lib.tensor(rng.standard_normal((5, 9)).astype("float16"))
        (g,) = lib.autograd.grad(CASES[name](lib.nn.functional, x), x, c)
        out.append(g.numpy().tobytes())
    assert out[0] == out[1]


def _attention_grads(lib, create_graph):
    rng = np.random.default_rng(11)
    q = lib.tensor(rng.standard_normal((2, 4, 6, 8)).astype("float32"), requires_grad=True)
    k = lib.tensor(rng.standard_normal((2, 4, 6, 8)).astype("float32"), requires_grad=True)
    o = lib.nn.functional.scaled_dot_product_attention(q, k, k)
    gq, gk = lib.autograd.grad(o.pow(2).sum(), (q, k), create_graph=create_graph)
    out = [gq.detach().numpy().tobytes(), gk.detach().numpy().tobytes()]
    if create_graph:
        out.append(gq.grad_fn.name())
        try:
            lib.autograd.grad(gq.sum(), q)
        except RuntimeError as e:
            out.append(str(e))
    return out


@pytest.mark.parametrize("create_graph", [False, True])
def test_attention_gradients_are_the_flash_kernels(create_graph):
    """scaled_dot_product_attention's gradients come from torch's flash backward kernel also
    when a graph is built, behind torch's node that refuses a second derivative."""
    assert _attention_grads(ember, create_graph) == _attention_grads(torch, create_graph)
