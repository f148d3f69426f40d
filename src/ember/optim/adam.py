"""Adam (AdamW, decoupled weight decay, is in :mod:`.adamw`), with the AMSGrad variant.

The update is torch's ``_single_tensor_adam`` (non-capturable branch)::

    m.lerp_(g, 1 - beta1);  v.mul_(beta2).addcmul_(g, g, value=1 - beta2)
    denom = (v.sqrt() / sqrt(1 - beta2**t)).add_(eps)
    p.addcdiv_(m, denom, value=-lr / (1 - beta1**t))
"""

from __future__ import annotations

from functools import partial as _partial

import numpy as _np

from .. import _factories as _F
from .._ops import _vml
from .._tensor import Tensor
from .optimizer import (
    Optimizer,
    ParamsT,
    _arr,
    _Batch,
    _bump,
    _foreach,
    _get_value,
    _in_pieces,
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

__all__ = ["Adam"]


def _check_betas(lr, eps, betas, weight_decay) -> None:
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Adam(Optimizer):
    """Implements the Adam algorithm (``decoupled_weight_decay=True`` makes it AdamW).

    >>> import ember
    >>> w = ember.tensor([1.0, 2.0], requires_grad=True)
    >>> opt = ember.optim.Adam([w], lr=0.1)
    >>> w.grad = ember.tensor([1.0, -1.0])
    >>> opt.step()
    >>> w
    tensor([0.9000, 2.1000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False) -> None:
        _check_betas(lr, eps, betas, weight_decay)
        _check(foreach, capturable=capturable, differentiable=differentiable, fused=fused)
        betas = tuple(map(_to_scalar, betas))
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    _group_defaults = {
        "amsgrad": False, "maximize": False, "foreach": None, "capturable": False,
        "differentiable": False, "decoupled_weight_decay": False, "fused": None}
    _tensor_state = ("step",)

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            beta1, beta2 = (_get_value(b) for b in group["betas"])
            lr = _get_value(_to_scalar(group["lr"]))
            amsgrad = group["amsgrad"]
            update = _partial(_update, group, beta1, beta2, lr)
            batch = _Batch(update, 4 if amsgrad else 3)
            params = []
            for p in group["params"]:       # (torch's _init_group: all checks come first)
                grad = p.grad
                if grad is None:
                    continue
                if grad.is_sparse:
                    raise RuntimeError("Adam does not support sparse gradients, please consider "
                                       "SparseAdam instead")
                params.append((p, grad))
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_tensor()
                    state["exp_avg"] = _F.zeros_like(p)
                    state["exp_avg_sq"] = _F.zeros_like(p)
                    if amsgrad:
                        state["max_exp_avg_sq"] = _F.zeros_like(p)
            for p, grad in params:
                state = self.state[p]
                step_t = state["step"]
                _arr(step_t)[...] += 1
                _bump(step_t)
                step = _get_value(step_t)
                written = [_arr(p), _arr(state["exp_avg"]), _arr(state["exp_avg_sq"])]
                if amsgrad:
                    written.append(_arr(state["max_exp_avg_sq"]))
                    _bump(state["max_exp_avg_sq"])
                if not batch.add(step, written, _arr(grad)):
                    _in_pieces(update, step, written, _arr(grad))
                _bump(state["exp_avg"])
                _bump(state["exp_avg_sq"])
                _bump(p)
            batch.run()
        return loss


def _update(group, beta1, beta2, lr, step, a, m, v, *rest) -> None:
    """One Adam update of the arrays ``a`` (the parameter), ``m``, ``v`` and, with AMSGrad,
    the maximum ``rest[0]``, in place from the gradient ``rest[-1]``; ``step`` the step
    count."""
    vmax, g = (rest[0] if len(rest) == 2 else None), rest[-1]
    g = _k_grad(a, g, group, lr)
    a, g, m, v = _real(a), _real(g), _real(m), _real(v)
    _k_lerp_(m, g, 1 - beta1)
    _k_mul_(v, beta2, _foreach(group))
    _k_addcmul_(v, g, g, 1 - beta2)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    step_size = lr / bias_correction1
    bias_correction2_sqrt = bias_correction2 ** 0.5
    if vmax is not None:
        vmax = _real(vmax)
        _np.maximum(vmax, v, out=vmax)
        v = vmax
    denom = _k_div(_vml.sqrt(v), bias_correction2_sqrt)
    denom += _sc(group["eps"], denom)
    _k_addcdiv_(a, m, denom, -step_size)


del annotations  # keep dir() to torch's names
