"""Adafactor (torch's ``_single_tensor_adafactor``; ``foreach=True`` scales the update before
adding it, as ``_multi_tensor_adafactor`` does).

A matrix (or a stack of them: the last two dimensions) keeps only the running means of its
squared gradient's rows and columns, whose outer product, over the rows' mean, estimates the
second moment; vectors keep the full running mean. The update is written with ember's tensor
ops, as torch writes it, since its norms and means are reductions whose order matters.
"""

from __future__ import annotations

from .. import _factories as _F
from .._finfo import finfo
from .._tensor import Tensor
from .optimizer import (
    Optimizer,
    ParamsT,
    _arr,
    _bump,
    _get_value,
    _k_add_,
    _k_lerp_,
    _no_grad_step,
    _run_closure,
    _step_tensor,
    _to_scalar,
)

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    """Implements the Adafactor algorithm (factored second moments, relative step sizes).

    >>> import ember
    >>> w = ember.tensor([1.0, 2.0], requires_grad=True)
    >>> opt = ember.optim.Adafactor([w], lr=0.1)
    >>> w.grad = ember.tensor([1.0, -1.0])
    >>> opt.step()
    >>> w
    tensor([0.8419, 2.1581], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0,
                 weight_decay: float = 0.0, *, foreach: bool | None = None,
                 maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    _group_defaults = {"foreach": None}
    _tensor_state = ("step",)

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            for p in params:
                if p.is_complex():
                    raise RuntimeError("Adafactor does not support complex parameters")
                if p.grad.is_sparse:
                    raise RuntimeError("Adafactor does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_tensor()
                    if p.grad.dim() > 1:
                        state["row_var"] = p.grad.new_zeros([*p.grad.shape[:-1], 1])
                        state["col_var"] = p.grad.new_zeros(
                            [*p.grad.shape[:-2], 1, p.grad.shape[-1]])
                    else:
                        state["variance"] = _F.zeros_like(p.grad)
            eps1, eps2 = group["eps"]
            if eps1 is None and params:     # torch takes the first parameter's dtype for all
                eps1 = finfo(params[0].dtype).eps
            for p in params:
                self._update(p, self.state[p], group, eps1, eps2)
        return loss

    @staticmethod
    def _update(param: Tensor, state: dict, group: dict, eps1: float, eps2: float) -> None:
        lr = _get_value(_to_scalar(group["lr"]))
        grad = -param.grad if group["maximize"] else param.grad
        step_t = state["step"]
        step_t += 1
        step_float = step_t.item()
        one_minus_beta2_t = step_float ** group["beta2_decay"]
        rho_t = min(lr, 1 / (step_float ** 0.5))
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
        if group["weight_decay"] != 0:
            param.mul_(1 - lr * group["weight_decay"])
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_mean = grad.norm(dim=-1, keepdim=True).square_().div_(grad.size(-1))
            _lerp_(row_var, row_mean, one_minus_beta2_t)
            col_mean = grad.norm(dim=-2, keepdim=True).square_().div_(grad.size(-2))
            _lerp_(col_var, col_mean, one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            variance = state["variance"]
            _lerp_(variance, grad * grad, one_minus_beta2_t)
            var_estimate = variance.clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * group["d"]))
        if group["foreach"]:
            param.add_(update.mul_(-alpha / denom))
        else:       # torch's fused ``add_(alpha=)``
            _k_add_(_arr(param), _arr(update), -alpha / denom)
            _bump(param)


def _lerp_(t: Tensor, end: Tensor, weight: float) -> None:
    _k_lerp_(_arr(t), _arr(end), weight)
    _bump(t)


del annotations  # keep dir() to torch's names
