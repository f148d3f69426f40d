"""Gradient clipping: ``clip_grad_norm_`` and ``clip_grad_value_``, as torch computes them."""

from __future__ import annotations

import math as _math
import warnings

import numpy as _np

from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad as _no_grad


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """Scale all gradients so that their joint ``norm_type``-norm is at most ``max_norm``.

    Returns the total norm before clipping (a 0-d tensor)."""
    grads = _grads(parameters)
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(grads) == 0:
        return Tensor._wrap(_np.array(0.0, _np.float32))
    dt = grads[0]._data.dtype
    if norm_type == _math.inf:
        norms = [_np.abs(g._data).max().astype(dt) for g in grads]
        total = _np.max(norms).astype(dt)
    else:
        norms = [(_np.sum(_np.abs(g._data.astype(_np.float64)) ** norm_type)
                  ** (1.0 / norm_type)).astype(dt) for g in grads]
        total = (_np.sum(_np.array(norms, _np.float64) ** norm_type)
                 ** (1.0 / norm_type)).astype(dt)
    if error_if_nonfinite and not _np.isfinite(total):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                           "`parameters` is non-finite, so it cannot be clipped. To disable "
                           "this error and scale the gradients by the non-finite norm anyway, "
                           "set `error_if_nonfinite=False`")
    clip_coef = dt.type(max_norm) / (total + dt.type(1e-6))
    clip_coef_clamped = min(clip_coef, dt.type(1.0))
    with _no_grad():
        for g in grads:
            g._data *= clip_coef_clamped.astype(g._data.dtype)
            g._vc.value += 1
    return Tensor._wrap(_np.asarray(total))


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                   foreach=None) -> Tensor:
    """Deprecated alias of :func:`clip_grad_norm_`."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient element to ``[-clip_value, clip_value]``."""
    clip_value = float(clip_value)
    with _no_grad():
        for g in _grads(parameters):
            _np.clip(g._data, -clip_value, clip_value, out=g._data)
            g._vc.value += 1


del annotations  # keep dir() to torch's names
