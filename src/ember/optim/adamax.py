"""Adamax, Adam's infinity-norm variant (torch's ``_single_tensor_adamax``)."""

from __future__ import annotations

import numpy as _np

from .. import _factories as _F
from .._tensor import Tensor
from .adam import _check_betas
from .optimizer import (
    Optimizer,
    ParamsT,
    _arr,
    _bump,
    _get_value,
    _k_add,
    _k_addcdiv_,
    _k_lerp_,
    _k_mul_,
    _k_neg,
    _no_grad_step,
    _real,
    _run_closure,
    _sc,
    _step_tensor,
    _to_scalar,
)
from .optimizer import _check_unsupported as _check

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Implements the Adamax algorithm (a variant of Adam based on the infinity norm).

    >>> import ember
    >>> w = ember.tensor([1.0], requires_grad=True)
    >>> opt = ember.optim.Adamax([w], lr=0.1)
    >>> w.grad = ember.tensor([1.0])
    >>> opt.step()
    >>> w
    tensor([0.9000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        _check_betas(lr, eps, betas, weight_decay)
        _check(capturable=capturable, differentiable=differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    _group_defaults = {
        "foreach": None, "maximize": False, "differentiable": False, "capturable": False}
    _tensor_state = ("step",)

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            eps, weight_decay = group["eps"], group["weight_decay"]
            lr = _get_value(_to_scalar(group["lr"]))
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.is_sparse:
                    raise RuntimeError("Adamax does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_tensor()
                    state["exp_avg"] = _F.zeros_like(p)
                    state["exp_inf"] = _F.zeros_like(p)
                a, g = _arr(p), _arr(p.grad)
                if group["maximize"]:
                    g = _k_neg(g)
                step_t = state["step"]
                _arr(step_t)[...] += 1
                _bump(step_t)
                if weight_decay != 0:
                    g = _k_add(g, a, weight_decay)
                a, g = _real(a), _real(g)
                m, u = _real(_arr(state["exp_avg"])), _real(_arr(state["exp_inf"]))
                _k_lerp_(m, g, 1 - beta1)
                _k_mul_(u, beta2)
                gabs = _np.abs(g)
                gabs += _sc(eps, gabs)
                _np.maximum(u, gabs, out=u)
                bias_correction = 1 - beta1 ** _get_value(step_t)
                clr = lr / bias_correction
                _k_addcdiv_(a, m, u, -clr)
                _bump(state["exp_avg"])
                _bump(state["exp_inf"])
                _bump(p)
        return loss


del annotations  # keep dir() to torch's names
