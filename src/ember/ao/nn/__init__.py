"""``torch.ao.nn``: the quantized module namespaces."""

from . import quantized

__all__ = ["quantized"]
