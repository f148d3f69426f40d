"""``ember.amp``: automatic mixed precision: ``autocast`` and ``GradScaler``, as on a CPU torch."""

from __future__ import annotations

from .autocast_mode import (
    autocast,
    get_autocast_dtype,
    is_autocast_available,
    is_autocast_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
)
from .grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler", "is_autocast_available", "is_autocast_enabled",
           "get_autocast_dtype", "set_autocast_enabled", "set_autocast_dtype"]


del annotations  # keep dir() to torch's names
