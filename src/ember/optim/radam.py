"""RAdam, rectified Adam (torch's ``_single_tensor_radam``)."""

from __future__ import annotations

import numpy as _np

from .. import _factories as _F
from .._ops import _vml
from .._tensor import Tensor
from .adam import _check_betas
from .optimizer import (
    Optimizer,
    ParamsT,
    _arr,
    _bump,
    _get_value,
    _k_addcmul_,
    _k_div,
    _k_grad,
    _k_lerp_,
    _k_mul,
    _k_mul_,
    _k_rdiv,
    _no_grad_step,
    _real,
    _run_closure,
    _sc,
    _step_tensor,
    _to_scalar,
)
from .optimizer import _check_unsupported as _check

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """Implements the RAdam algorithm.

    >>> import ember
    >>> w = ember.tensor([1.0], requires_grad=True)
    >>> opt = ember.optim.RAdam([w], lr=0.1)
    >>> w.grad = ember.tensor([1.0])
    >>> opt.step()
    >>> w
    tensor([0.9000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False) -> None:
        _check_betas(lr, eps, betas, weight_decay)
        _check(capturable=capturable, differentiable=differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    _group_defaults = {
        "foreach": None, "maximize": False, "differentiable": False,
        "decoupled_weight_decay": False, "capturable": False}
    _tensor_state = ("step",)

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr = _get_value(_to_scalar(group["lr"]))
            eps = group["eps"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.is_sparse:
                    raise RuntimeError("RAdam does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_tensor()
                    state["exp_avg"] = _F.zeros_like(p)
                    state["exp_avg_sq"] = _F.zeros_like(p)
                a, g = _arr(p), _arr(p.grad)
                step_t = state["step"]
                _arr(step_t)[...] += 1
                _bump(step_t)
                step = _get_value(step_t)
                g = _k_grad(a, g, group, lr)
                a, g = _real(a), _real(g)
                m, v = _real(_arr(state["exp_avg"])), _real(_arr(state["exp_avg_sq"]))
                _k_lerp_(m, g, 1 - beta1)
                _k_mul_(v, beta2)
                _k_addcmul_(v, g, g, 1 - beta2)
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                corrected = _k_div(m, bias_correction1)
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                if rho_t > 5.0:
                    sq = _vml.sqrt(v)
                    sq += _sc(eps, sq)
                    adaptive = _k_rdiv(bias_correction2 ** 0.5, sq)
                    rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                            / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                    update = _k_mul(_k_mul(corrected, lr) * adaptive, rect)
                else:
                    update = _k_mul(corrected, lr)
                _np.subtract(a, update, out=a)
                _bump(state["exp_avg"])
                _bump(state["exp_avg_sq"])
                _bump(p)
        return loss


del annotations  # keep dir() to torch's names
