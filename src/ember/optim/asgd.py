"""ASGD, averaged stochastic gradient descent (torch's ``_single_tensor_asgd``).

The parameter takes a decayed SGD step with the rate ``eta``; ``ax`` averages the iterates once
``step`` passes ``t0``::

    p.mul_(1 - lambd * eta).add_(g, alpha=-eta)
    ax = p if mu == 1 else ax + (p - ax) * mu
    eta = lr / (1 + lambd * lr * step) ** alpha;  mu = 1 / max(1, step - t0)
"""

from __future__ import annotations

from .. import _factories as _F
from .._tensor import Tensor
from .optimizer import (
    Optimizer,
    ParamsT,
    _arr,
    _bump,
    _capturable_error,
    _get_value,
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

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """Implements Averaged Stochastic Gradient Descent.

    >>> import ember
    >>> w = ember.tensor([1.0, 2.0], requires_grad=True)
    >>> opt = ember.optim.ASGD([w], lr=0.5, lambd=0.0)
    >>> w.grad = ember.tensor([1.0, -1.0])
    >>> opt.step()
    >>> w
    tensor([0.5000, 2.5000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _check(differentiable=differentiable)
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    _group_defaults = {
        "foreach": None, "maximize": False, "differentiable": False, "capturable": False}
    _tensor_state = ("step", "eta", "mu")

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            lr = _get_value(_to_scalar(group["lr"]))
            params = [p for p in group["params"] if p.grad is not None]
            for p in params:
                if p.grad.is_sparse:
                    raise RuntimeError("ASGD does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_tensor()
                    state["eta"] = _step_tensor(lr)
                    state["mu"] = _step_tensor(1.0)
                    state["ax"] = _F.zeros_like(p)
            for p in params:
                if group["capturable"]:
                    raise _capturable_error("params, mus, etas, and state_steps")
                state = self.state[p]
                g = _arr(p.grad)
                if group["maximize"]:
                    g = _k_neg(g)
                a, g, ax = _real(_arr(p)), _real(g), _real(_arr(state["ax"]))
                step_t, eta, mu = state["step"], state["eta"], state["mu"]
                _arr(step_t)[...] += 1
                if group["foreach"]:
                    self._foreach_update(a, g, ax, step_t, eta, mu, group)
                else:
                    self._single_update(a, g, ax, step_t, eta, mu, group)
                for t in (p, state["ax"], step_t, eta, mu):
                    _bump(t)
        return loss

    @staticmethod
    def _single_update(a, g, ax, step_t, eta, mu, group) -> None:
        """torch's ``_single_tensor_asgd`` (its non-capturable branch)."""
        lr = _get_value(_to_scalar(group["lr"]))
        lambd, weight_decay = group["lambd"], group["weight_decay"]
        if weight_decay != 0:
            g = _k_add(g, a, weight_decay)
        eta_value = _get_value(eta)
        _k_mul_(a, 1 - lambd * eta_value)
        _k_add_(a, g, -eta_value)
        mu_value = _get_value(mu)
        if mu_value != 1:
            ax += (a - ax) * a.dtype.type(mu_value)
        else:
            ax[...] = a
        step = _get_value(step_t)
        _arr(eta)[...] = lr / ((1 + lambd * lr * step) ** group["alpha"])
        _arr(mu)[...] = 1 / max(1, step - group["t0"])

    @staticmethod
    def _foreach_update(a, g, ax, step_t, eta, mu, group) -> None:
        """torch's ``_multi_tensor_asgd``: the decay folded into the gradient, ``ax`` always
        averaged, and the new ``eta`` computed on the step tensor (in its dtype)."""
        lr = _get_value(_to_scalar(group["lr"]))
        lambd, weight_decay = group["lambd"], group["weight_decay"]
        if weight_decay != 0:
            g = _k_add(g, a, weight_decay)
        g = _k_add(g, a, lambd)
        _k_addcmul_(a, g, _sc(eta, a), -1)
        _k_addcmul_(ax, a - ax, _sc(mu, ax))
        _arr(eta)[...] = _arr(lr / ((1 + lambd * lr * step_t) ** group["alpha"]))
        _arr(mu)[...] = 1 / max(1, _get_value(step_t) - group["t0"])


del annotations  # keep dir() to torch's names
