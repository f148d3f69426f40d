"""AdamW: Adam with decoupled weight decay (torch's ``AdamW``, an ``Adam`` subclass)."""

from __future__ import annotations

from typing import Any as _Any

from .._tensor import Tensor
from .adam import Adam
from .optimizer import ParamsT

__all__ = ["AdamW"]


class AdamW(Adam):
    """Implements AdamW: Adam with weight decay applied to the parameters, not the gradient.

    >>> import ember
    >>> w = ember.tensor([1.0], requires_grad=True)
    >>> opt = ember.optim.AdamW([w], lr=0.1, weight_decay=0.1)
    >>> w.grad = ember.tensor([1.0])
    >>> opt.step()
    >>> w
    tensor([0.8900], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state: dict[str, _Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True


del annotations  # keep dir() to torch's names
