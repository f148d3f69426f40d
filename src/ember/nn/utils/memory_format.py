"""Re-laying out the weights of a model's convolutions (``channels_last``)."""

from __future__ import annotations

from typing import TypeVar

from ..._memory_format import memory_format as _memory_format
from ..modules.conv import Conv2d as _Conv2d
from ..modules.conv import Conv3d as _Conv3d
from ..modules.conv import ConvTranspose2d as _ConvTranspose2d
from ..modules.conv import ConvTranspose3d as _ConvTranspose3d
from ..modules.module import Module as _Module

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]

_M = TypeVar("_M", bound=_Module)


def _convert(module: _M, memory_format: _memory_format, classes: tuple) -> _M:
    if isinstance(module, classes):
        weight_data = module.weight.detach().clone(memory_format=memory_format)
        module.weight.data = weight_data.resize_(weight_data.size(),
                                                 memory_format=memory_format)
    for child in module.children():
        _convert(child, memory_format, classes)
    return module


def convert_conv2d_weight_memory_format(module: _M, memory_format: _memory_format) -> _M:
    """Give the weight of every ``Conv2d``/``ConvTranspose2d`` in ``module`` the layout
    ``memory_format`` (in place; returns ``module``).

    >>> import ember
    >>> m = ember.nn.utils.convert_conv2d_weight_memory_format(
    ...     ember.nn.Conv2d(2, 3, 3), ember.channels_last)
    >>> m.weight.is_contiguous(memory_format=ember.channels_last)
    True
    """
    return _convert(module, memory_format, (_Conv2d, _ConvTranspose2d))


def convert_conv3d_weight_memory_format(module: _M, memory_format: _memory_format) -> _M:
    """Give the weight of every ``Conv3d``/``ConvTranspose3d`` in ``module`` the layout
    ``memory_format`` (in place; returns ``module``)."""
    return _convert(module, memory_format, (_Conv3d, _ConvTranspose3d))
