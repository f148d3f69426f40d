"""``torch.ao.nn.quantized``: modules that compute on quantized tensors."""

from . import dynamic
from .modules import (Conv2d, DeQuantize, Embedding, FloatFunctional, Linear, QFunctional,
                      Quantize)

__all__ = ["Conv2d", "DeQuantize", "Embedding", "FloatFunctional", "Linear", "QFunctional",
           "Quantize", "dynamic"]
