"""``torch.ao.nn.intrinsic.quantized``: the quantized forms of the fused modules (the ReLU
applied in the requantization: outputs clamped at the zero point)."""

from ... import intrinsic as _nni
from ...quantized import modules as _nnq

__all__ = ["ConvReLU2d", "LinearReLU"]


class LinearReLU(_nnq.Linear):
    """A quantized linear layer with its ReLU fused."""

    _FLOAT_MODULE = (_nni.LinearReLU,)
    _relu = True

    def _get_name(self):
        return "QuantizedLinearReLU"


class ConvReLU2d(_nnq.Conv2d):
    """A quantized 2-d convolution with its ReLU fused."""

    _FLOAT_MODULE = (_nni.ConvReLU2d,)
    _relu = True

    def _get_name(self):
        return "QuantizedConvReLU2d"
