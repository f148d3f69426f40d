"""``ember.cuda.amp``: torch's deprecated CUDA spellings of ``autocast`` and ``GradScaler``."""

from __future__ import annotations

import warnings as _warnings

from .. import _dtype as _D
from ..amp import GradScaler as _GradScaler
from ..amp import autocast as _autocast

__all__ = ["autocast", "GradScaler"]


class autocast(_autocast):
    """``torch.cuda.amp.autocast(...)``: deprecated; disabled without CUDA."""

    def __init__(self, enabled: bool = True, dtype: _D.dtype = _D.float16,
                 cache_enabled: bool = True):
        _warnings.warn("`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                      "`torch.amp.autocast('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class GradScaler(_GradScaler):
    """``torch.cuda.amp.GradScaler(...)``: deprecated; disabled without CUDA."""

    def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000,
                 enabled: bool = True) -> None:
        _warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                      "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cuda", init_scale=init_scale, growth_factor=growth_factor,
                         backoff_factor=backoff_factor, growth_interval=growth_interval,
                         enabled=enabled)


del annotations  # keep dir() to torch's names
