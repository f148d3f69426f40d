"""torch's deprecated per-device spellings, ``torch.cpu.amp.autocast(...)`` and
``torch.cuda.amp.GradScaler(...)``: the ``torch.amp`` classes with a FutureWarning."""

from __future__ import annotations

import warnings

from .. import _dtype as _D
from .autocast_mode import autocast as _autocast
from .grad_scaler import GradScaler as _GradScaler


def _warn(device: str, name: str) -> None:
    warnings.warn(f"`torch.{device}.amp.{name}(args...)` is deprecated. Please use "
                  f"`torch.amp.{name}('{device}', args...)` instead.", FutureWarning,
                  stacklevel=3)


def _named(cls: type, module: str) -> type:
    cls.__module__ = module
    cls.__qualname__ = cls.__name__
    return cls


def deprecated_autocast(device: str, dtype: _D.dtype, module: str) -> type:
    """``torch.<device>.amp.autocast``, whose ``dtype`` defaults to ``dtype``."""
    default = dtype

    class autocast(_autocast):
        __doc__ = f"``torch.{device}.amp.autocast(...)``: deprecated spelling of " \
                  f"``amp.autocast('{device}')``."

        def __init__(self, enabled: bool = True, dtype: _D.dtype = default,
                     cache_enabled: bool = True):
            _warn(device, "autocast")
            super().__init__(device, enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)

    return _named(autocast, module)


def deprecated_grad_scaler(device: str, module: str) -> type:
    """``torch.<device>.amp.GradScaler``."""

    class GradScaler(_GradScaler):
        __doc__ = f"``torch.{device}.amp.GradScaler(...)``: deprecated spelling of " \
                  f"``amp.GradScaler('{device}')``."

        def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0,
                     backoff_factor: float = 0.5, growth_interval: int = 2000,
                     enabled: bool = True) -> None:
            _warn(device, "GradScaler")
            super().__init__(device, init_scale=init_scale, growth_factor=growth_factor,
                             backoff_factor=backoff_factor, growth_interval=growth_interval,
                             enabled=enabled)

    return _named(GradScaler, module)
