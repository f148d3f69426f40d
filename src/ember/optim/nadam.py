"""NAdam, Adam with Nesterov momentum (torch's ``_single_tensor_nadam``).

``state['mu_product']`` is a 0-d tensor of the scalar dtype, multiplied in place each step.
"""

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
    _k_addcdiv_,
    _k_addcmul_,
    _k_div,
    _k_grad,
    _k_lerp_,
    _k_mul_,
    _no_grad_step,
    _real,
    _run_closure,
    _sc,
    _step_tensor,
    _to_scalar,
)
from .optimizer import _check_unsupported as _check

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """Implements the NAdam algorithm.

    >>> import ember
    >>> w = ember.tensor([1.0], requires_grad=True)
    >>> opt = ember.optim.NAdam([w], lr=0.1)
    >>> w.grad = ember.tensor([1.0])
    >>> opt.step()
    >>> w
    tensor([0.8944], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_betas(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        _check(capturable=capturable, differentiable=differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay,
                    "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    _group_defaults = {
        "maximize": False, "foreach": None, "capturable": False, "differentiable": False,
        "decoupled_weight_decay": False}
    _tensor_state = ("step", "mu_product")

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr = _get_value(_to_scalar(group["lr"]))
            eps = group["eps"]
            momentum_decay = group["momentum_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.is_sparse:
                    raise RuntimeError("NAdam does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_tensor()
                    state["mu_product"] = _step_tensor(1.0)
                    state["exp_avg"] = _F.zeros_like(p)
                    state["exp_avg_sq"] = _F.zeros_like(p)
                a, g = _arr(p), _arr(p.grad)
                step_t, mu_t = state["step"], state["mu_product"]
                _arr(step_t)[...] += 1
                _bump(step_t)
                step = _get_value(step_t)
                bias_correction2 = 1 - beta2 ** step
                g = _k_grad(a, g, group, lr)
                a, g = _real(a), _real(g)
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                mp = _arr(mu_t)
                _np.multiply(mp, _sc(mu, mp), out=mp)
                _bump(mu_t)
                m, v = _real(_arr(state["exp_avg"])), _real(_arr(state["exp_avg_sq"]))
                _k_lerp_(m, g, 1 - beta1)
                _k_mul_(v, beta2)
                _k_addcmul_(v, g, g, 1 - beta2)
                denom = _vml.sqrt(_k_div(v, bias_correction2))
                mu_product = _get_value(mu_t)
                mu_product_next = mu_product * mu_next
                denom += _sc(eps, denom)
                _k_addcdiv_(a, g, denom, -lr * (1.0 - mu) / (1.0 - mu_product))
                _k_addcdiv_(a, m, denom, (-lr * mu_next) / (1.0 - mu_product_next))
                _bump(state["exp_avg"])
                _bump(state["exp_avg_sq"])
                _bump(p)
        return loss


del annotations  # keep dir() to torch's names
