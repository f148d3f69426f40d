"""``Unfold`` and ``Fold``: sliding blocks to columns and back (thin wrappers of F)."""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class Fold(Module):
    """Sum columns of sliding blocks into a (N, C, *output_size) tensor.

    >>> import ember
    >>> ember.nn.Fold((3, 3), 2)
    Fold(output_size=(3, 3), kernel_size=2, dilation=1, padding=0, stride=1)
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return ("output_size={output_size}, kernel_size={kernel_size}, dilation={dilation}, "
                "padding={padding}, stride={stride}".format(**self.__dict__))


class Unfold(Module):
    """Extract sliding blocks of (N, C, H, W) input as columns.

    >>> import ember
    >>> ember.nn.Unfold(2)
    Unfold(kernel_size=2, dilation=1, padding=0, stride=1)
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return ("kernel_size={kernel_size}, dilation={dilation}, padding={padding}, "
                "stride={stride}".format(**self.__dict__))


del annotations  # keep dir() to torch's names
