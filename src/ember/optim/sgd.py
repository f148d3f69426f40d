"""Stochastic gradient descent, optionally with momentum, dampening, Nesterov and weight decay.

The update is torch's ``_single_tensor_sgd``: the momentum buffer starts as a clone of the first
gradient, then ``buf = momentum * buf + (1 - dampening) * g`` and ``p -= lr * g'``.
"""

from __future__ import annotations

from .._tensor import Tensor
from .optimizer import (
    Optimizer,
    ParamsT,
    _foreach,
    _k_add,
    _k_add_,
    _k_grad,
    _k_mul_,
    _no_grad_step,
    _run_closure,
    _to_scalar,
)
from .optimizer import _check_unsupported as _check

__all__ = ["SGD"]


class SGD(Optimizer):
    """Implements stochastic gradient descent (optionally with momentum).

    >>> import ember
    >>> w = ember.tensor([1.0, 2.0], requires_grad=True)
    >>> opt = ember.optim.SGD([w], lr=0.5, momentum=0.9)
    >>> w.grad = ember.tensor([1.0, -1.0])
    >>> opt.step()
    >>> w
    tensor([0.5000, 2.5000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float | Tensor = 0, nesterov: bool = False,
                 *, maximize: bool = False, foreach: bool | None = None,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        _check(foreach, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    _group_defaults = {
        "nesterov": False, "maximize": False, "foreach": None, "differentiable": False,
        "fused": False}

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            momentum = group["momentum"]
            lr = _to_scalar(group["lr"])
            params = [(p, p.grad) for p in group["params"]]
            if momentum != 0:       # (read for all parameters first, as torch's _init_group)
                bufs = [self.state[p].get("momentum_buffer") if g is not None else None
                        for p, g in params]
            # the group's settings, read once: without maximize or weight decay the update
            # takes each gradient as it is
            as_is = not group["maximize"] and group["weight_decay"] == 0
            keep, nesterov, foreach = 1 - group["dampening"], group["nesterov"], _foreach(group)
            for i, (p, grad) in enumerate(params):
                if grad is None:
                    continue
                if grad.is_sparse:
                    _sparse_step(self.state[p], p, grad, group,
                                 bufs[i] if momentum != 0 else None, lr)
                    continue
                a = p._data
                g = grad._data if as_is else _k_grad(a, grad._data, group)
                if momentum != 0:
                    buf = bufs[i]
                    if buf is None:
                        buf = Tensor._wrap(g.copy())
                        self.state[p]["momentum_buffer"] = buf
                    else:
                        b = buf._data
                        _k_mul_(b, momentum, foreach)
                        _k_add_(b, g, keep)
                        buf._vc.value += 1      # (_bump, inline)
                    g = _k_add(g, buf._data, momentum) if nesterov else buf._data
                _k_add_(a, g, -lr)
                p._vc.value += 1
        return loss


def _sparse_step(state: dict, p: Tensor, grad: Tensor, group: dict, buf, lr: float) -> None:
    """torch's ``_single_tensor_sgd`` for a sparse gradient, on the sparse kernels: weight
    decay fails as ``grad.add(param)`` does; the momentum buffer is a sparse tensor (a clone
    of the first gradient, then ``buf.mul_(momentum).add_(grad, alpha=1 - dampening)``)."""
    if group["maximize"]:
        grad = -grad
    if group["weight_decay"] != 0:
        grad = grad.add(p, alpha=group["weight_decay"])
    momentum = group["momentum"]
    if momentum != 0:
        if buf is None:
            buf = state["momentum_buffer"] = grad.detach().clone()
        else:
            buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
        grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
    p.add_(grad, alpha=-lr)


del annotations  # keep dir() to torch's names
