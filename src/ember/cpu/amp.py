"""``ember.cpu.amp``: torch's deprecated CPU spellings of ``autocast`` and ``GradScaler``."""

from __future__ import annotations

from .. import _dtype as _D
from ..amp import _deprecated

__all__ = ["autocast", "GradScaler"]

autocast = _deprecated.deprecated_autocast("cpu", _D.bfloat16, __name__)
GradScaler = _deprecated.deprecated_grad_scaler("cpu", __name__)


del annotations  # keep dir() to torch's names
