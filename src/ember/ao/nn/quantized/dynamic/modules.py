"""Dynamically quantized modules (``torch.ao.nn.quantized.dynamic``): float in, float out,
the weight stored as qint8 and each input quantized on the fly with qparams chosen from its
own range (fbgemm's ``linear_dynamic``)."""

from __future__ import annotations

import ember as torch

from ..... import nn
from ....quantization._tensor import linear_dynamic
from .. import modules as nnq

__all__ = ["Linear"]


class Linear(nnq.Linear):
    """A linear layer with a qint8 weight whose input is quantized per call (uint8, its
    range halved: ``reduce_range``) and whose output is float32."""

    _version = 4
    _FLOAT_MODULE = (nn.Linear,)

    def __init__(self, in_features, out_features, bias_=True, dtype=torch.qint8):
        super().__init__(in_features, out_features, bias_, dtype=dtype)
        self.version = 4

    def forward(self, x):
        w, b = self._weight_bias()
        wq, ws, wz = nnq._weight_arrays(w)
        bias = None if b is None else b.detach()._data
        out = linear_dynamic(x.detach()._data, wq, ws, wz, bias,
                             reduce_range=self.version is not None and self.version >= 4)
        return torch.Tensor._wrap(out)

    def _get_name(self):
        return "DynamicQuantizedLinear"

    def extra_repr(self):
        s = (f"in_features={self.in_features}, out_features={self.out_features}, "
             f"dtype={self._packed_params.dtype}")
        if self._packed_params.dtype is torch.qint8:
            s += f", qscheme={self.weight().qscheme()}"
        return s

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The dynamically quantized form of the float linear ``mod`` (its qconfig's weight
        observer decides the weight's qparams)."""
        from ....quantization.qconfig import default_dynamic_qconfig
        float_modules = (nn.Linear, nn.modules.linear.NonDynamicallyQuantizableLinear)
        if type(mod) not in float_modules:
            raise AssertionError("nn.quantized.dynamic.Linear.from_float only works for one "
                                 "of" + str([float_mod.__name__ for float_mod in float_modules]))
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined")
        if mod.qconfig is not None and mod.qconfig.weight is not None:
            weight_observer = mod.qconfig.weight()
        else:
            weight_observer = default_dynamic_qconfig.weight()
        dtype = weight_observer.dtype
        if dtype is not torch.qint8:
            raise RuntimeError("Unsupported dtype specified for dynamic quantized Linear!")
        weight_observer(mod.weight)
        qweight = nnq._quantize_weight(mod.weight.float(), weight_observer)
        qlinear = cls(mod.in_features, mod.out_features, dtype=dtype)
        qlinear.set_weight_bias(qweight, mod.bias)
        return qlinear
