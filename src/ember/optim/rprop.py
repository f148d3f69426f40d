"""Rprop, resilient backpropagation (torch's ``_single_tensor_rprop``).

Each element keeps its own step size, grown by ``etaplus`` while the gradient keeps its sign
and shrunk by ``etaminus`` when it flips (that element then skips the update)::

    sign = (g * prev).sign() -> etaplus / etaminus / 1
    step_size = (step_size * sign).clamp(min, max);  g[sign == etaminus] = 0
    p.addcmul_(g.sign(), step_size, value=-1);  prev = g
"""

from __future__ import annotations

import numpy as _np

from .. import _factories as _F
from .._tensor import Tensor
from .optimizer import (
    Optimizer,
    ParamsT,
    _arr,
    _bump,
    _capturable_error,
    _get_value,
    _k_addcmul_,
    _k_neg,
    _no_grad_step,
    _real,
    _run_closure,
    _step_tensor,
    _to_scalar,
)
from .optimizer import _check_unsupported as _check

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Implements the resilient backpropagation algorithm.

    >>> import ember
    >>> w = ember.tensor([1.0, 2.0], requires_grad=True)
    >>> opt = ember.optim.Rprop([w], lr=0.1)
    >>> w.grad = ember.tensor([1.0, -1.0])
    >>> opt.step()
    >>> w
    tensor([0.9000, 2.1000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2,
                 etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        _check(differentiable=differentiable)
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    _group_defaults = {
        "foreach": None, "maximize": False, "differentiable": False, "capturable": False}
    _tensor_state = ("step",)

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            lr = _get_value(_to_scalar(group["lr"]))
            params = [p for p in group["params"] if p.grad is not None]
            for p in params:
                if p.grad.is_sparse:
                    raise RuntimeError("Rprop does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_tensor()
                    state["prev"] = _F.zeros_like(p)
                    state["step_size"] = _F.full_like(
                        p.grad, complex(lr, lr) if p.is_complex() else lr)
            for p in params:
                if group["capturable"]:
                    raise _capturable_error()
                state = self.state[p]
                g = _arr(p.grad)
                if group["maximize"]:
                    g = _k_neg(g)
                _arr(state["step"])[...] += 1
                _bump(state["step"])
                a, g = _real(_arr(p)), _real(g)
                prev, step_size = _real(_arr(state["prev"])), _real(_arr(state["step_size"]))
                minus, plus = a.dtype.type(etaminus), a.dtype.type(etaplus)
                sign = _np.array(_np.sign(g * prev))   # 0-d products are scalars
                sign[sign > 0] = plus
                sign[sign < 0] = minus
                sign[sign == 0] = 1
                _np.multiply(step_size, sign, out=step_size)
                _np.clip(step_size, step_size.dtype.type(step_size_min),
                         step_size.dtype.type(step_size_max), out=step_size)
                g = _np.array(g)
                g[sign == minus] = 0
                _k_addcmul_(a, _np.sign(g), step_size, -1)
                prev[...] = g
                for t in (p, state["prev"], state["step_size"]):
                    _bump(t)
        return loss


del annotations  # keep dir() to torch's names
