"""``ember.cuda.amp``: torch's deprecated CUDA spellings of ``autocast``, ``custom_fwd``,
``custom_bwd`` and ``GradScaler`` (autocast and the scaler disabled: there is no CUDA)."""

from .autocast_mode import autocast, custom_bwd, custom_fwd
from .common import amp_definitely_not_available
from .grad_scaler import GradScaler

__all__ = ["amp_definitely_not_available", "autocast", "custom_bwd", "custom_fwd",
           "GradScaler"]
