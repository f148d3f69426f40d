"""``ember.cuda.amp.autocast_mode``: torch's deprecated CUDA spellings of ``autocast``,
``custom_fwd`` and ``custom_bwd``."""

from __future__ import annotations

import warnings as _warnings

from ... import _dtype as _D
from ...amp import _deprecated
from ...amp import custom_bwd as _custom_bwd
from ...amp import custom_fwd as _custom_fwd

__all__ = ["autocast", "custom_fwd", "custom_bwd"]


autocast = _deprecated.deprecated_autocast("cuda", _D.float16, __name__)


def custom_fwd(fwd=None, *, cast_inputs=None):
    """``torch.cuda.amp.custom_fwd``: deprecated spelling of ``torch.amp.custom_fwd(...,
    device_type="cuda")``."""
    _warnings.warn("`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
                   "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.",
                   FutureWarning, stacklevel=2)
    return _custom_fwd(fwd=fwd, device_type="cuda", cast_inputs=cast_inputs)


def custom_bwd(bwd):
    """``torch.cuda.amp.custom_bwd``: deprecated spelling of ``torch.amp.custom_bwd(...,
    device_type="cuda")``."""
    _warnings.warn("`torch.cuda.amp.custom_bwd(args...)` is deprecated. Please use "
                   "`torch.amp.custom_bwd(args..., device_type='cuda')` instead.",
                   FutureWarning, stacklevel=2)
    return _custom_bwd(bwd, device_type="cuda")


del annotations  # keep dir() to torch's names
