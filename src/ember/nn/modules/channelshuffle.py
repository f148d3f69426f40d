"""The channel shuffle layer."""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class ChannelShuffle(Module):
    """Regroup the channels of (N, C, *) input into ``groups`` interleaved groups."""

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


del annotations  # keep dir() to torch's names
