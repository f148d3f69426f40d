"""Stochastic weight averaging and exponential moving averages of a model's parameters.

:class:`AveragedModel` keeps a copy of a model whose parameters (and, with ``use_buffers``,
buffers) are a running average of the model's; :class:`SWALR` anneals each group's learning
rate to a constant SWA rate; :func:`update_bn` recomputes batch-norm statistics for the
averaged weights. The averaging functions are torch's, including the CPU choice of the
per-tensor ``avg_fn`` when none is given.
"""

from __future__ import annotations

import itertools
import math
import warnings
from copy import deepcopy
from typing import TYPE_CHECKING, Any, Literal

from .. import _dtype as _D
from .. import _factories as _F
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad as _no_grad
from ..nn import Module
from ..nn.modules.batchnorm import _BatchNorm
from .lr_scheduler import LRScheduler, _format_param
from .optimizer import _arr, _bump, _k_lerp_, _real

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from .optimizer import Optimizer

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn",
           "get_swa_multi_avg_fn", "get_ema_avg_fn", "get_swa_avg_fn"]

PARAM_LIST = tuple[Tensor, ...] | list[Tensor]


def _is_float(t: Tensor) -> bool:
    return t.is_floating_point() or t.is_complex()


def _lerp_(t: Tensor, end: Tensor, weight: float) -> None:
    """torch's CPU ``lerp_`` with a number weight (what ``_foreach_lerp_`` runs per tensor)."""
    _k_lerp_(_real(_arr(t)), _real(_arr(end)), weight)
    _bump(t)


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in "
                         "[0,1] range.")


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable:
    """An in-place EMA over lists of tensors, for ``AveragedModel(multi_avg_fn=...)``:
    ``ema.lerp_(param, 1 - decay)``."""
    _check_decay(decay)

    @_no_grad()
    def ema_update(ema_param_list: PARAM_LIST, current_param_list: PARAM_LIST, _) -> None:
        if _is_float(ema_param_list[0]):
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                _lerp_(p_ema, p_model, 1 - decay)
        else:
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable:
    """An in-place running mean over lists of tensors, for ``AveragedModel(multi_avg_fn=...)``:
    ``avg.lerp_(param, 1 / (num_averaged + 1))``."""

    @_no_grad()
    def swa_update(averaged_param_list: PARAM_LIST, current_param_list: PARAM_LIST,
                   num_averaged: Tensor | int) -> None:
        pairs = list(zip(averaged_param_list, current_param_list, strict=True))
        if _is_float(averaged_param_list[0]):
            weight = 1 / (num_averaged + 1)
            weight = weight.item() if isinstance(weight, Tensor) else weight
            for p_avg, p_model in pairs:
                _lerp_(p_avg, p_model, weight)
        else:
            for p_avg, p_model in pairs:
                diff = p_model - p_avg
                if isinstance(num_averaged, Tensor):
                    p_avg.addcdiv_(diff, num_averaged + 1)
                else:
                    p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable:
    """An EMA of one tensor, for ``AveragedModel(avg_fn=...)``:
    ``decay * ema + (1 - decay) * param``."""
    _check_decay(decay)

    @_no_grad()
    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged) -> Tensor:
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn() -> Callable:
    """A running mean of one tensor, for ``AveragedModel(avg_fn=...)``:
    ``avg + (param - avg) / (num_averaged + 1)``."""

    @_no_grad()
    def swa_update(averaged_param: Tensor, current_param: Tensor,
                   num_averaged: Tensor | int) -> Tensor:
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose parameters average those ``update_parameters`` sees (SWA by
    default; pass ``avg_fn``/``multi_avg_fn`` for an EMA).

    >>> import ember
    >>> m = ember.nn.Linear(2, 1)
    >>> swa = ember.optim.swa_utils.AveragedModel(m)
    >>> swa.update_parameters(m)
    >>> int(swa.n_averaged)
    1
    """

    n_averaged: Tensor

    def __init__(self, model: Module, device=None,
                 avg_fn: Callable[[Tensor, Tensor, Tensor | int], Tensor] | None = None,
                 multi_avg_fn: Callable[[PARAM_LIST, PARAM_LIST, Tensor | int], None]
                 | None = None, use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", _F.tensor(0, dtype=_D.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        """Run the averaged copy of the model."""
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Fold ``model``'s current parameters (and buffers, with ``use_buffers``) into the
        average; the first call copies them."""
        if self.use_buffers:
            self_param = itertools.chain(self.module.parameters(), self.module.buffers())
            model_param = itertools.chain(model.parameters(), model.buffers())
        else:
            self_param, model_param = self.parameters(), model.parameters()
        self_detached: list[Tensor] = []
        model_detached: list[Tensor] = []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(self_param, model_param, strict=False):
            p_model_ = p_model.detach().to(p_averaged.device)
            self_detached.append(p_averaged.detach())
            model_detached.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                for self_params, model_params in _by_device_and_dtype(self_detached,
                                                                       model_detached):
                    n_averaged = self.n_averaged.to(self_params[0].device)
                    if self.multi_avg_fn:
                        self.multi_avg_fn(self_params, model_params, n_averaged)
                    else:   # the CPU has no foreach kernels: torch's per-tensor mean
                        avg_fn = get_swa_avg_fn()
                        for p_averaged, p_model in zip(self_params, model_params, strict=True):
                            p_averaged.copy_(avg_fn(p_averaged, p_model, n_averaged))
            else:
                for p_averaged, p_model in zip(self_detached, model_detached, strict=True):
                    n_averaged = self.n_averaged.to(p_averaged.device)
                    p_averaged.detach().copy_(self.avg_fn(p_averaged.detach(), p_model,
                                                          n_averaged))
        if not self.use_buffers:
            # the buffers are not averaged: keep them in sync with the source model
            for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1


def _by_device_and_dtype(first: list[Tensor], second: list[Tensor]):
    """Pairs of tensor lists grouped by the first list's (device, dtype), in first-seen
    order (torch's ``_group_tensors_by_device_and_dtype``)."""
    groups: dict = {}
    for a, b in zip(first, second, strict=True):
        group = groups.setdefault((str(a.device), a.dtype), ([], []))
        group[0].append(a)
        group[1].append(b)
    return groups.values()


@_no_grad()
def update_bn(loader: Iterable[Any], model: Module, device=None) -> None:
    """Recompute the running statistics of ``model``'s batch norms with one pass over
    ``loader`` (a cumulative average: ``momentum=None`` during the pass).

    >>> import ember
    >>> m = ember.nn.BatchNorm1d(2)
    >>> ember.optim.swa_utils.update_bn([ember.tensor([[1.0, 2.0], [3.0, 6.0]])], m)
    >>> m.running_mean
    tensor([2., 4.])
    """
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        if device is not None:
            input = input.to(device)
        model(input)
    for bn_module in momenta:
        bn_module.momentum = momenta[bn_module]
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's learning rate to ``swa_lr`` over ``anneal_epochs`` epochs
    (cosine or linear), then hold it.

    >>> import ember
    >>> opt = ember.optim.SGD([ember.nn.Parameter(ember.ones(1))], lr=1.0)
    >>> s = ember.optim.swa_utils.SWALR(opt, swa_lr=0.5, anneal_epochs=2,
    ...                                 anneal_strategy="linear")
    >>> opt.step(); s.step(); s.get_last_lr()
    [0.5]
    """

    def __init__(self, optimizer: Optimizer, swa_lr: float, anneal_epochs: int = 10,
                 anneal_strategy: Literal["cos", "linear"] = "cos",
                 last_epoch: int = -1) -> None:
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for swa_lr, group in zip(swa_lrs, optimizer.param_groups, strict=True):
            group["swa_lr"] = swa_lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got "
                             f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[float | Tensor]:
        """The learning rates of this step, one per group."""
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please "
                          "use `get_last_lr()`.", UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group["swa_lr"] * alpha + lr * (1 - alpha)
                for group, lr in zip(self.optimizer.param_groups, prev_lrs, strict=True)]

    def _set_anneal_func(self, anneal_strategy: Literal["cos", "linear"]) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = (self._cosine_anneal if anneal_strategy == "cos"
                            else self._linear_anneal)

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's state, without the optimizer and the annealing function."""
        return {key: value for key, value in self.__dict__.items()
                if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a state made by :meth:`state_dict`."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)


del annotations  # keep dir() to torch's names
