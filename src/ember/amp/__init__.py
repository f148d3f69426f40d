"""``ember.amp``: automatic mixed precision: ``autocast`` and ``GradScaler``, as on a CPU torch."""

from __future__ import annotations

from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from .. import _lazy

__all__ = ["autocast", "custom_bwd", "custom_fwd", "GradScaler", "is_autocast_available"]

_lazy.package(globals(), modules=("grad_scaler",), names={"GradScaler": "grad_scaler"})
del _lazy
del annotations  # keep dir() to torch's names
