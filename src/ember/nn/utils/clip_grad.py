"""Gradient clipping: ``clip_grad_norm_`` and ``clip_grad_value_``, as torch computes them."""

from __future__ import annotations

import math as _math
import types
import warnings

import numpy as _np

from ... import _factories as _F
from ..._ops import reduction as _R
from ..._ops import shape as _S
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad as _no_grad


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def _get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach=None) -> Tensor:
    """The ``norm_type``-norm of all ``tensors`` together (the norm of their norms).

    >>> import ember
    >>> ember.nn.utils.get_total_norm([ember.tensor([3.0]), ember.tensor([4.0])])
    tensor(5.)
    """
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return _F.tensor(0.0)
    if foreach is not False and norm_type == _math.inf and any(t.numel() == 0 for t in tensors):
        # the CPU takes torch's foreach path, whose check speaks of _foreach_norm
        raise RuntimeError("_foreach_norm cannot compute the infinity norm on an empty tensor "
                           "because the operation does not have an identity")
    from ...overrides import has_torch_function
    with _no_grad():
        if has_torch_function(tensors):     # a subclass's own norms (a DTensor's are global)
            import sys
            norms = [t.norm(norm_type) for t in tensors]
            total_norm = sys.modules["ember"].stack(norms).norm(norm_type)
        else:
            norms = [_R.vector_norm(t, norm_type) for t in tensors]
            total_norm = _R.vector_norm(_S.stack(norms), norm_type)
    if error_if_nonfinite and bool(total_norm.isnan() | total_norm.isinf()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                           "`parameters` is non-finite, so it cannot be clipped. To disable "
                           "this error and scale the gradients by the non-finite norm anyway, "
                           "set `error_if_nonfinite=False`")
    return total_norm


def _clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor,
                           foreach=None) -> None:
    """Scale the parameters' gradients by ``min(1, max_norm / (total_norm + 1e-6))``.

    >>> import ember
    >>> w = ember.nn.Parameter(ember.zeros(2)); w.grad = ember.tensor([3.0, 4.0])
    >>> ember.nn.utils.clip_grads_with_norm_([w], 1.0, ember.tensor(5.0))
    >>> w.grad
    tensor([0.6000, 0.8000])
    """
    grads = _grads(parameters)
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    with _no_grad():
        clip_coef_clamped = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped)


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """Scale all gradients so that their joint ``norm_type``-norm is at most ``max_norm``.

    Returns the total norm before clipping (a 0-d tensor)."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will "
                          "occur.", stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = _get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    _clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                   foreach=None) -> Tensor:
    """Deprecated alias of :func:`clip_grad_norm_`."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient element to ``[-clip_value, clip_value]``."""
    clip_value = float(clip_value)
    grads = _grads(parameters)
    if any(g.is_sparse for g in grads):
        from ...sparse._sparse import no_kernel
        raise NotImplementedError(no_kernel("clamp_min_"))
    with _no_grad():
        for g in grads:
            _np.clip(g._data, -clip_value, clip_value, out=g._data)
            g._vc.value += 1


del annotations  # keep dir() to torch's names
