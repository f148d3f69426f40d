"""``ember.cuda.amp.grad_scaler``: torch's deprecated CUDA spelling of ``GradScaler``."""

from __future__ import annotations

import warnings as _warnings

from ...amp import GradScaler as _GradScaler
from ...amp.grad_scaler import OptState  # noqa: F401  (torch's module shows it)

__all__ = ["GradScaler"]


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
