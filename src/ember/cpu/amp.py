"""``ember.cpu.amp``: torch's deprecated CPU spellings of ``autocast`` and ``GradScaler``."""

from __future__ import annotations

import warnings as _warnings

from .. import _dtype as _D
from ..amp import GradScaler as _GradScaler
from ..amp import autocast as _autocast

__all__ = ["autocast", "GradScaler"]


class autocast(_autocast):
    """``torch.cpu.amp.autocast(...)``: deprecated spelling of ``amp.autocast('cpu')``."""

    def __init__(self, enabled: bool = True, dtype: _D.dtype = _D.bfloat16,
                 cache_enabled: bool = True):
        _warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
                      "`torch.amp.autocast('cpu', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class GradScaler(_GradScaler):
    """``torch.cpu.amp.GradScaler(...)``: deprecated spelling of ``amp.GradScaler('cpu')``."""

    def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000,
                 enabled: bool = True) -> None:
        _warnings.warn("`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use "
                      "`torch.amp.GradScaler('cpu', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cpu", init_scale=init_scale, growth_factor=growth_factor,
                         backoff_factor=backoff_factor, growth_interval=growth_interval,
                         enabled=enabled)


del annotations  # keep dir() to torch's names
