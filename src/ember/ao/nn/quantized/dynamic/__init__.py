"""``torch.ao.nn.quantized.dynamic``: modules whose inputs are quantized on the fly."""

from .modules import Linear

__all__ = ["Linear"]
