"""RMSprop, optionally centered and with momentum (torch's ``_single_tensor_rmsprop``)."""

from __future__ import annotations

from functools import partial as _partial

from .. import _factories as _F
from .._ops import _vml
from .._tensor import Tensor
from .optimizer import (
    Optimizer,
    ParamsT,
    _arr,
    _bump,
    _foreach,
    _get_value,
    _in_pieces,
    _k_add,
    _k_add_,
    _k_addcdiv_,
    _k_addcmul,
    _k_addcmul_,
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

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """Implements the RMSprop algorithm.

    >>> import ember
    >>> w = ember.tensor([1.0], requires_grad=True)
    >>> opt = ember.optim.RMSprop([w], lr=0.01)
    >>> w.grad = ember.tensor([1.0])
    >>> opt.step()
    >>> w
    tensor([0.9000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        _check(capturable=capturable, differentiable=differentiable)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay,
                    "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    _group_defaults = {
        "momentum": 0, "centered": False, "foreach": None, "maximize": False,
        "differentiable": False, "capturable": False}
    _tensor_state = ("step",)

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            lr = _get_value(_to_scalar(group["lr"]))
            momentum, centered = group["momentum"], group["centered"]
            update = _partial(_update, lr, group["alpha"], group["eps"], group["weight_decay"],
                              momentum, centered, group["maximize"], _foreach(group))
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.is_sparse:
                    raise RuntimeError("RMSprop does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_tensor()
                    state["square_avg"] = _F.zeros_like(p)
                    if momentum > 0:
                        state["momentum_buffer"] = _F.zeros_like(p)
                    if centered:
                        state["grad_avg"] = _F.zeros_like(p)
                _arr(state["step"])[...] += 1
                _bump(state["step"])
                written = [_arr(p), _arr(state["square_avg"])]
                if momentum > 0:
                    written.append(_arr(state["momentum_buffer"]))
                    _bump(state["momentum_buffer"])
                if centered:
                    written.append(_arr(state["grad_avg"]))
                    _bump(state["grad_avg"])
                _in_pieces(update, None, written, _arr(p.grad))
                _bump(state["square_avg"])
                _bump(p)
        return loss


def _update(lr, alpha, eps, weight_decay, momentum, centered, maximize, foreach, _key, a, sq,
            *rest) -> None:
    """One RMSprop update of the parameter ``a`` and the running average ``sq`` (then, as
    the options ask, the momentum buffer and the gradient average), in place, from the
    gradient ``rest[-1]``."""
    g = rest[-1]
    buf = rest[0] if momentum > 0 else None
    ga = rest[-2] if centered else None
    if maximize:
        g = _k_neg(g)
    if weight_decay != 0:
        g = _k_add(g, a, weight_decay)
    a, g, sq = _real(a), _real(g), _real(sq)
    _k_mul_(sq, alpha, foreach)
    _k_addcmul_(sq, g, g, 1 - alpha)
    if centered:
        ga = _real(ga)
        _k_lerp_(ga, g, 1 - alpha)
        avg = _vml.sqrt(_k_addcmul(sq, ga, ga, -1))
    else:
        avg = _vml.sqrt(sq)
    avg += _sc(eps, avg)
    if momentum > 0:
        buf = _real(buf)
        _k_mul_(buf, momentum, foreach)
        _k_addcdiv_(buf, g, avg)
        _k_add_(a, buf, -lr)
    else:
        _k_addcdiv_(a, g, avg, -lr)


del annotations  # keep dir() to torch's names
