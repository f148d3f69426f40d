"""Regression tests for what the ninth batch of real programs found, each against torch 2.13:
a ``@once_differentiable`` backward run with ``create_graph`` returns gradients that require
grad through torch's ``Error`` node, whose backward raises (not gradients without history)."""

from __future__ import annotations

import ember

from .helpers import torch


def _once_differentiable_grads(L):
    class Twice(L.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * 2, y * 3

        @staticmethod
        @L.autograd.function.once_differentiable
        def backward(ctx, g, h):
            return g * 2, None

    x = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = L.tensor([0.5, 0.25, 4.0], requires_grad=True)
    a, b = Twice.apply(x, y)
    gx, gy = L.autograd.grad((a * a).sum() + (b * b).sum(), [x, y], create_graph=True,
                             allow_unused=True)
    node = gx.grad_fn
    out = [gx.tolist(), gx.requires_grad, gx.is_leaf, gy, type(node).__name__, node.name(),
           [type(n).__name__ for n, _ in node.next_functions],
           node.next_functions[0][0].variable.tolist()]
    for fn in (lambda: gx.sum().backward(), lambda: L.autograd.grad(gx.sum(), x)):
        try:
            fn()
        except RuntimeError as e:
            out.append(str(e))
    plain, = L.autograd.grad(Twice.apply(x, y)[0].sum(), x, create_graph=True)
    out.append((plain.requires_grad, plain.grad_fn))
    return out


def test_once_differentiable_outputs_hang_from_an_error_node():
    assert _once_differentiable_grads(ember) == _once_differentiable_grads(torch)
