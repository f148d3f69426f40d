"""Adagrad (torch's ``_single_tensor_adagrad``): state is created for every parameter at once."""

from __future__ import annotations

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
    _k_add,
    _k_addcdiv_,
    _k_addcmul_,
    _k_mul,
    _k_neg,
    _no_grad_step,
    _real,
    _run_closure,
    _sc,
    _step_tensor,
    _to_scalar,
)
from .optimizer import _check_unsupported as _check

__all__ = ["Adagrad"]


def _init_state(state: dict, p: Tensor, initial_accumulator_value: float) -> None:
    state["step"] = _step_tensor()
    init = (complex(initial_accumulator_value, initial_accumulator_value) if p.is_complex()
            else initial_accumulator_value)
    state["sum"] = _F.full_like(p, init)


class Adagrad(Optimizer):
    """Implements the Adagrad algorithm.

    >>> import ember
    >>> w = ember.tensor([1.0], requires_grad=True)
    >>> opt = ember.optim.Adagrad([w], lr=0.1)
    >>> w.grad = ember.tensor([2.0])
    >>> opt.step()
    >>> w
    tensor([0.9000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        _check(foreach, differentiable=differentiable, fused=fused)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                _init_state(self.state[p], p, initial_accumulator_value)

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False, "fused": None}
    _tensor_state = ("step",)

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            lr = _get_value(_to_scalar(group["lr"]))
            weight_decay, lr_decay, eps = group["weight_decay"], group["lr_decay"], group["eps"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    _init_state(state, p, self.defaults["initial_accumulator_value"])
                step_t = state["step"]
                _arr(step_t)[...] += 1
                _bump(step_t)
                step = _get_value(step_t)
                if p.grad.is_sparse:
                    _sparse_step(p, p.grad, state["sum"], group, lr / (1 + (step - 1) * lr_decay))
                    continue
                a, g = _arr(p), _arr(p.grad)
                if group["maximize"]:
                    g = _k_neg(g)
                if weight_decay != 0:
                    g = _k_add(g, a, weight_decay)
                clr = lr / (1 + (step - 1) * lr_decay)
                a, g = _real(a), _real(g)
                s = _real(_arr(state["sum"]))
                _k_addcmul_(s, g, g, 1)
                _bump(state["sum"])
                std = _vml.sqrt(s)
                std += _sc(eps, std)
                if _foreach(group) and a.dtype.char in "eE":
                    # the multi-tensor path scales the gradient first, in place (reading
                    # the number in the type) where it holds a copy already
                    in_place = weight_decay != 0 or group["maximize"]
                    _k_addcdiv_(a, _k_mul(g, -clr, in_place), std)
                else:
                    _k_addcdiv_(a, g, std, -clr)
                _bump(p)
        return loss


def _sparse_step(p: Tensor, grad: Tensor, state_sum: Tensor, group: dict, clr: float) -> None:
    """torch's ``_single_tensor_adagrad`` for a sparse gradient: the coalesced gradient's
    squares added into ``sum``, then ``param -= clr * g / (sqrt(sum) + eps)`` at its indices,
    each through torch's sparse kernels."""
    from ..sparse._sparse import sparse_coo_tensor
    if group["maximize"]:
        grad = -grad
    if group["weight_decay"] != 0:
        raise RuntimeError("weight_decay option is not compatible with sparse gradients")
    grad = grad.coalesce()
    indices, values = grad._indices(), grad._values()
    size = grad.size()
    state_sum.add_(sparse_coo_tensor(indices, values.pow(2), size))
    std_values = state_sum.sparse_mask(grad)._values().sqrt_().add_(group["eps"])
    p.add_(sparse_coo_tensor(indices, values / std_values, size), alpha=-clr)


del annotations  # keep dir() to torch's names
