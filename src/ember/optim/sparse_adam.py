"""SparseAdam: Adam restricted to the entries a sparse gradient touches.

The update is torch's ``_functional.sparse_adam``, op for op: the moments and the parameter
change only at the indices of the coalesced gradient (``nn.Embedding(sparse=True)``'s); a
dense gradient raises torch's error.
"""

from __future__ import annotations

import math as _math

from .. import _factories as _F
from .._tensor import Tensor
from .optimizer import Optimizer, ParamsT, _no_grad_step, _run_closure, _to_scalar

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Implements a masked version of Adam, for sparse gradients (``nn.Embedding(sparse=True)``).

    >>> import ember
    >>> w = ember.nn.Parameter(ember.ones(2))
    >>> opt = ember.optim.SparseAdam([w])
    >>> opt.defaults["betas"]
    (0.9, 0.999)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults)
        sparse_params = [[i, j] for i, group in enumerate(self.param_groups)
                         for j, p in enumerate(group["params"]) if p.is_sparse]
        complex_params = [[i, j] for i, group in enumerate(self.param_groups)
                          for j, p in enumerate(group["params"]) if p.is_complex()]
        if sparse_params:
            raise ValueError(f"Sparse params at indices {sparse_params}: SparseAdam requires "
                             "dense parameter tensors")
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does not "
                             "support complex parameters")

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            items = []
            for p in group["params"]:
                if p.grad is None:
                    continue
                if not p.grad.is_sparse:
                    raise RuntimeError("SparseAdam does not support dense gradients, please "
                                       "consider Adam instead")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg"] = _F.zeros_like(p)
                    state["exp_avg_sq"] = _F.zeros_like(p)
                state["step"] += 1
                items.append((p, p.grad, state))
            for p, grad, state in items:
                _step(p, grad, state["exp_avg"], state["exp_avg_sq"], state["step"],
                      group["eps"], beta1, beta2, _to_scalar(group["lr"]),
                      group.get("maximize", False))
        return loss


def _step(param, grad, exp_avg, exp_avg_sq, step, eps, beta1, beta2, lr, maximize) -> None:
    """torch's ``_functional.sparse_adam`` for one parameter: the moments updated at the
    coalesced gradient's indices only (``old += (1 - beta) * (new - old)``), then the
    bias-corrected step added at those indices."""
    from ..sparse._sparse import _make
    grad = grad if not maximize else -grad
    grad = grad.coalesce()
    indices = grad._indices()._data
    grad_values = grad._values()
    if grad_values.numel() == 0:
        return
    size = grad.shape

    def make_sparse(values):
        return _make(indices, values, size, False)

    old_exp_avg_values = exp_avg.sparse_mask(grad)._values()
    exp_avg_update_values = grad_values.sub(old_exp_avg_values).mul_(1 - beta1)
    exp_avg.add_(make_sparse(exp_avg_update_values))
    old_exp_avg_sq_values = exp_avg_sq.sparse_mask(grad)._values()
    exp_avg_sq_update_values = grad_values.pow(2).sub_(old_exp_avg_sq_values).mul_(1 - beta2)
    exp_avg_sq.add_(make_sparse(exp_avg_sq_update_values))
    numer = exp_avg_update_values.add_(old_exp_avg_values)
    exp_avg_sq_update_values.add_(old_exp_avg_sq_values)
    denom = exp_avg_sq_update_values.sqrt_().add_(eps)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    step_size = lr * _math.sqrt(bias_correction2) / bias_correction1
    param.add_(make_sparse(-step_size * numer.div_(denom)))


del annotations  # keep dir() to torch's names
