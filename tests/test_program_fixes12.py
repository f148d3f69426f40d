"""Fixes found by the twelfth batch of real-style programs (``tests/programs``), each checked
against torch: ``pow(tensor, tensor)`` with one operand broadcast (a per-head decay raised to a
matrix of distances, a 0-dim base or exponent) runs Sleef's vector pow where ATen's
``cpu_kernel_vec`` runs vectors over a stride-0 operand, as it does for same-shape operands;
``torch.func`` transforms of a function that closes over tensors requiring grad (a module's
parameters) keep the graph of what they return, so ordinary autograd reaches through them;
``topk`` replays libstdc++'s selection on tied rows of up to 2^18 elements a call; the float32
Dirichlet reparameterisation gradient (``_dirichlet_grad``) runs ATen's
``dirichlet_grad_one<float, double>``: the small-sample series in float arithmetic, the
digammas as ``digamma_one<float, double>`` computes them; ``linalg.matrix_exp`` follows
ATen's ``mexp``: one matrix by the Taylor degree of its 1-norm, a batch of several all by degree
18 with scaling and squaring, the powers and squarings as batched products, the linear
combinations from zero without fused multiply-adds, ``compute_T8``'s constants in double;
``grid_sample`` returns a contiguous tensor, as ATen allocates it (a channels-last result summed
in another order), and its bicubic mode rounds as the vectorised kernel compiles: the inner
cubic weights by fused multiply-adds, the first of the four products along x fused onto the
second, along y each product after the first fused in."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch


def _same(a, b):
    a, b = np.asarray(a.detach().numpy()), np.asarray(b.detach().numpy())
    assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("shapes", [((4, 1, 1), (1, 16, 16)), ((1,), (40,)), ((40,), (1,)),
                                    ((3, 1), (1, 40)), ((40, 1), (40, 3)), ((), (100,)),
                                    ((100,), ()), ((2, 3, 1, 33), (1, 1, 5, 33))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_tensor_broadcast_runs_vectors(shapes, dtype):
    rng = np.random.default_rng(3)
    base = rng.uniform(0.5, 1.5, shapes[0]).astype(dtype)
    exp = rng.uniform(-20, 20, shapes[1]).astype(dtype)
    _same(ember.tensor(base) ** ember.tensor(exp), torch.tensor(base) ** torch.tensor(exp))


def test_pow_decay_mask_as_retnet():
    got = []
    for L in (torch, ember):
        gammas = 1 - 2.0 ** (-5 - L.arange(4, dtype=L.float))
        idx = L.arange(16, dtype=L.float)
        diff = idx[:, None] - idx[None]
        got.append(gammas[:, None, None] ** diff.clamp(min=0))
    _same(*got)


def _func_cases(L):
    from_func = L.func
    L.manual_seed(0)
    lin = L.nn.Linear(3, 2)
    x = L.randn(4, 3)
    out = {
        "grad": from_func.grad(lambda xi: lin(xi).tanh().sum())(x[0]),
        "jacrev": from_func.vmap(from_func.jacrev(lambda xi: lin(xi).tanh()))(x),
        "vjp": from_func.vjp(lambda xi: lin(xi).tanh(), x[0])[1](L.ones(2))[0],
        "jvp": from_func.jvp(lambda xi: lin(xi).tanh(), (x[0],), (L.ones(3),))[1],
        "hessian": from_func.hessian(lambda xi: lin(xi).tanh().sum())(x[0]),
        "plain": from_func.grad(lambda xi: (xi * xi.detach()).sum())(x[0]),
    }
    grads = {}
    for k, v in out.items():
        if v.requires_grad:
            lin.zero_grad()
            v.sum().backward()
            grads[k] = (lin.weight.grad.clone(), lin.bias.grad.clone())
    return out, grads


def test_func_transforms_keep_the_graph_of_closed_over_parameters():
    (t_out, t_grads), (e_out, e_grads) = _func_cases(torch), _func_cases(ember)
    for k in t_out:
        assert e_out[k].requires_grad == t_out[k].requires_grad, k
        np.testing.assert_allclose(e_out[k].detach().numpy(), t_out[k].detach().numpy(),
                                   rtol=1e-6, atol=1e-7)
    assert sorted(e_grads) == sorted(t_grads) == ["grad", "hessian", "jacrev", "jvp", "vjp"]
    for k in t_grads:
        for a, b in zip(e_grads[k], t_grads[k]):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("k", [10, 100])
@pytest.mark.parametrize("largest", [False, True])
def test_topk_large_tied_rows_as_libstdcxx(k, largest):
    # 50 rows of 2000 small integers (Hamming distances): 100000 elements, every row tied
    a = np.random.default_rng(4).integers(0, 20, (50, 2000))
    t = torch.tensor(a).topk(k, largest=largest)
    e = ember.tensor(a).topk(k, largest=largest)
    _same(e.indices, t.indices)
    _same(e.values, t.values)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bounds", [(0.05, 3.0), (0.01, 0.5), (3.0, 20.0), (0.5, 50.0)])
def test_dirichlet_grad_as_aten(dtype, bounds):
    conc = np.random.default_rng(6).uniform(*bounds, (300, 4)).astype(dtype)
    x = torch._sample_dirichlet(torch.tensor(conc))
    total = torch.tensor(conc).sum(-1, True).expand(300, 4)
    t = torch._dirichlet_grad(x, torch.tensor(conc), total)
    e = ember._dirichlet_grad(ember.tensor(x.numpy()), ember.tensor(conc),
                              ember.tensor(total.numpy()))
    _same(e, t)


def test_dirichlet_rsample_backward_float32():
    conc = np.random.default_rng(7).uniform(0.05, 3.0, (40, 3)).astype("float32")
    w = np.random.default_rng(8).standard_normal((40, 3)).astype("float32")
    got = []
    for L in (torch, ember):
        L.manual_seed(0)
        c = L.tensor(conc, requires_grad=True)
        (L.distributions.Dirichlet(c).rsample() * L.tensor(w)).sum().backward()
        got.append(c.grad)
    _same(got[1], got[0])


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(50, 3, 3), (3, 3), (1, 3, 3), (2, 1, 4, 4), (3, 8, 8)])
@pytest.mark.parametrize("scale", [1e-8, 1e-4, 0.05, 0.5, 3.0, 10.0])
def test_matrix_exp_as_aten(dtype, shape, scale):
    rng = np.random.default_rng(9)
    a = rng.standard_normal(shape) * scale / shape[-1]
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape) * scale / shape[-1]
    a = a.astype(dtype)
    _same(ember.linalg.matrix_exp(ember.tensor(a)), torch.linalg.matrix_exp(torch.tensor(a)))


def test_matrix_exp_mixed_norm_batch_and_backward():
    rng = np.random.default_rng(10)
    scales = np.array([1e-6, 0.01, 0.3, 1.0, 4.0, 20.0, 100.0])[:, None, None]
    a = (rng.standard_normal((7, 3, 3)) * scales / 3).astype("float32")
    got = []
    for L in (torch, ember):
        x = L.tensor(a, requires_grad=True)
        y = L.linalg.matrix_exp(x)
        y.sin().sum().backward()
        got.append((y, x.grad))
    for e, t in zip(got[1], got[0]):
        _same(e, t)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
def test_grid_sample_output_contiguous(mode):
    got = []
    for L in (torch, ember):
        L.manual_seed(0)
        x = L.rand(2, 3, 16, 16)
        g = L.rand(2, 16, 16, 2) * 2.4 - 1.2
        out = L.nn.functional.grid_sample(x, g, mode=mode, padding_mode="reflection",
                                          align_corners=False)
        got.append((out.stride(), out.sum(), out.mean((1, 2))))
    assert got[1][0] == got[0][0]
    _same(got[1][1], got[0][1])
    _same(got[1][2], got[0][2])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample_bicubic_forward_as_aten(dtype, padding, align):
    rng = np.random.default_rng(11)
    x = rng.random((2, 3, 16, 16)).astype(dtype)
    g = (rng.random((2, 16, 16, 2)) * 2.4 - 1.2).astype(dtype)
    got = [L.nn.functional.grid_sample(L.tensor(x), L.tensor(g), mode="bicubic",
                                       padding_mode=padding, align_corners=align)
           for L in (torch, ember)]
    _same(got[1], got[0])
