"""Upsampling modules: thin wrappers of :func:`ember.nn.functional.interpolate`."""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class Upsample(Module):
    """Resample (N, C, L) or (N, C, H, W) input to ``size`` or by ``scale_factor``.

    >>> import ember
    >>> ember.nn.Upsample(scale_factor=2)
    Upsample(scale_factor=2.0, mode='nearest')
    """

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    """2-D nearest upsampling (``Upsample(mode='nearest')``)."""

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """2-D bilinear upsampling with ``align_corners=True``."""

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


del annotations  # keep dir() to torch's names
