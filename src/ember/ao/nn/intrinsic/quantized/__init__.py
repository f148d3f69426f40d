"""``torch.ao.nn.intrinsic.quantized``: the quantized forms of the fused modules (the ReLU
applied in the requantization: outputs clamped at the zero point)."""

from ... import intrinsic as nni
from ...quantized import modules as nnq

__all__ = ["ConvReLU2d", "LinearReLU"]


class LinearReLU(nnq.Linear):
    """A quantized linear layer with its ReLU fused."""

    _FLOAT_MODULE = (nni.LinearReLU,)
    _relu = True

    def _get_name(self):
        return "QuantizedLinearReLU"


class ConvReLU2d(nnq.Conv2d):
    """A quantized 2-d convolution with its ReLU fused."""

    _FLOAT_MODULE = (nni.ConvReLU2d,)
    _relu = True

    def _get_name(self):
        return "QuantizedConvReLU2d"
