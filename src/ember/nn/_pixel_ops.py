"""``pixel_shuffle`` / ``pixel_unshuffle``: depth to space and back, each the other's backward
(nodes ``PixelShuffleBackward0`` / ``PixelUnshuffleBackward0``)."""

from __future__ import annotations

import numpy as np

from .. import _memory_format as _mf
from .._ops.registry import NONE, op
from .._tensor import Tensor


@op("PixelShuffleBackward0", name="_pixel_shuffle", method=False, function=False,
    promote=NONE, self=lambda grad, upscale_factor: pixel_unshuffle(grad, upscale_factor))
def _pixel_shuffle(self, upscale_factor):
    r = upscale_factor
    *lead, c, h, w = self.shape
    x = self.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    x = x.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return _fresh(x.reshape(*lead, c // (r * r), h * r, w * r), self)


@op("PixelUnshuffleBackward0", name="_pixel_unshuffle", method=False, function=False,
    promote=NONE, self=lambda grad, downscale_factor: pixel_shuffle(grad, downscale_factor))
def _pixel_unshuffle(self, downscale_factor):
    r = downscale_factor
    *lead, c, h, w = self.shape
    x = self.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    x = x.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return _fresh(x.reshape(*lead, c * r * r, h // r, w // r), self)


def _fresh(res, like):
    """``res`` written into a new array as torch's kernels write it: channels-last where the
    4-d input suggests it, else contiguous (also for a factor of 1)."""
    fmt = _mf.suggest(like) if like.ndim == 4 else _mf.contiguous_format
    out = _mf.empty(res.shape, res.dtype, fmt)
    np.copyto(out, res)
    return out


def _check_factor(name: str, arg: str, factor) -> None:
    if isinstance(factor, bool) or not isinstance(factor, int):
        raise TypeError(f"{name}(): argument '{arg}' (position 2) must be int, not "
                        f"{type(factor).__name__}")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {arg}, but got {factor}")


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """``(*, C·r², H, W) → (*, C, H·r, W·r)``."""
    _check_factor("pixel_shuffle", "upscale_factor", upscale_factor)
    if input.dim() < 3:
        raise RuntimeError("pixel_shuffle expects input to have at least 3 dimensions, but got "
                           f"input with {input.dim()} dimension(s)")
    c, r2 = input.shape[-3], upscale_factor * upscale_factor
    if c % r2:
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be "
                           "divisible by the square of upscale_factor, but input.size(-3)="
                           f"{c} is not divisible by {r2}")
    return _pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """``(*, C, H·r, W·r) → (*, C·r², H, W)``."""
    _check_factor("pixel_unshuffle", "downscale_factor", downscale_factor)
    if input.dim() < 3:
        raise RuntimeError("pixel_unshuffle expects input to have at least 3 dimensions, but "
                           f"got input with {input.dim()} dimension(s)")
    for what, d in (("height", -2), ("width", -1)):
        if input.shape[d] % downscale_factor:
            raise RuntimeError(f"pixel_unshuffle expects {what} to be divisible by "
                               f"downscale_factor, but input.size({d})={input.shape[d]} is "
                               f"not divisible by {downscale_factor}")
    return _pixel_unshuffle(input, downscale_factor)
