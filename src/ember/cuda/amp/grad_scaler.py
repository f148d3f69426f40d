"""``ember.cuda.amp.grad_scaler``: torch's deprecated CUDA spelling of ``GradScaler``."""

from __future__ import annotations

from ...amp import _deprecated
from ...amp.grad_scaler import OptState  # noqa: F401  (torch's module shows it)

__all__ = ["GradScaler"]

GradScaler = _deprecated.deprecated_grad_scaler("cuda", __name__)


del annotations  # keep dir() to torch's names
