"""``ember.amp``: automatic mixed precision: ``autocast`` and ``GradScaler``, as on a CPU torch."""

from __future__ import annotations

from .autocast_mode import autocast, is_autocast_available
from .grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler", "is_autocast_available"]


del annotations  # keep dir() to torch's names
