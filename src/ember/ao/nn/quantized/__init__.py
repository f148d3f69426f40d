"""``torch.ao.nn.quantized``: modules that compute on quantized tensors."""

from . import dynamic
from .modules import DeQuantize, Linear, Quantize

__all__ = ["DeQuantize", "Linear", "Quantize", "dynamic"]
