"""Adadelta (torch's ``_single_tensor_adadelta``)."""

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
    _k_addcmul_,
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

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Implements the Adadelta algorithm.

    >>> import ember
    >>> w = ember.tensor([1.0], requires_grad=True)
    >>> opt = ember.optim.Adadelta([w])
    >>> w.grad = ember.tensor([1.0])
    >>> opt.step()
    >>> w
    tensor([0.9968], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _check(capturable=capturable, differentiable=differentiable)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "capturable": capturable, "foreach": foreach,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    _group_defaults = {
        "foreach": None, "maximize": False, "differentiable": False, "capturable": False}
    _tensor_state = ("step",)

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            lr = _get_value(_to_scalar(group["lr"]))
            update = _partial(_update, lr, group["rho"], group["eps"], group["weight_decay"],
                              group["maximize"], _foreach(group))
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.is_sparse:
                    raise RuntimeError("Adadelta does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_tensor()
                    state["square_avg"] = _F.zeros_like(p)
                    state["acc_delta"] = _F.zeros_like(p)
                _arr(state["step"])[...] += 1
                _bump(state["step"])
                _in_pieces(update, None, [_arr(p), _arr(state["square_avg"]),
                                          _arr(state["acc_delta"])], _arr(p.grad))
                _bump(state["square_avg"])
                _bump(state["acc_delta"])
                _bump(p)
        return loss


def _update(lr, rho, eps, weight_decay, maximize, foreach, _key, a, sq, acc, g) -> None:
    """One Adadelta update of the parameter ``a`` and the running averages ``sq`` and
    ``acc``, in place, from the gradient ``g``."""
    if maximize:
        g = _k_neg(g)
    if weight_decay != 0:
        g = _k_add(g, a, weight_decay)
    cplx = a.dtype.kind == "c"
    sq, acc, g = _real(sq), _real(acc), _real(g)
    _k_mul_(sq, rho, foreach)
    _k_addcmul_(sq, g, g, 1 - rho)
    std = _vml.sqrt(sq + _sc(eps, sq))
    delta = _vml.sqrt(acc + _sc(eps, acc))
    delta /= std
    delta *= g
    _k_mul_(acc, rho, foreach)
    _k_addcmul_(acc, delta, delta, 1 - rho)
    if cplx:
        delta = delta.view(a.dtype).reshape(a.shape)
    _k_add_(a, delta, -lr)


del annotations  # keep dir() to torch's names
