"""Quantized modules (``torch.ao.nn.quantized``): ``Quantize``, ``DeQuantize`` and the
statically quantized ``Linear``, which computes with fbgemm's integer kernel on quint8
activations and a qint8 weight (see :mod:`ember.ao.quantization._tensor`)."""

from __future__ import annotations

import numpy as np

import ember as torch

from .... import nn
from ...quantization._tensor import (
    _SLOT,
    QTensor,
    _new,
    linear_static,
    per_channel_affine,
    per_tensor_affine,
    quantize_per_tensor,
)

__all__ = ["Quantize", "DeQuantize", "Linear", "LinearPackedParams"]


class Quantize(nn.Module):
    """Quantizes its input with a fixed ``scale`` and ``zero_point`` (a converted QuantStub)."""

    def __init__(self, scale, zero_point, dtype, factory_kwargs=None):
        super().__init__()
        self.register_buffer("scale", torch.tensor([scale]))
        self.register_buffer("zero_point", torch.tensor([zero_point], dtype=torch.long))
        self.dtype = dtype

    def forward(self, X):
        return quantize_per_tensor(X, float(self.scale), int(self.zero_point), self.dtype)

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant=False):
        if not hasattr(mod, "activation_post_process"):
            raise AssertionError("Input float module must have activation_post_process")
        scale, zero_point = mod.activation_post_process.calculate_qparams()
        return Quantize(scale.float().item(), zero_point.long().item(),
                        mod.activation_post_process.dtype)

    def extra_repr(self):
        return f"scale={self.scale}, zero_point={self.zero_point}, dtype={self.dtype}"


class DeQuantize(nn.Module):
    """Dequantizes its input (a converted DeQuantStub)."""

    def forward(self, Xq):
        return Xq.dequantize()

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant=False):
        return DeQuantize()


class LinearPackedParams(nn.Module):
    """The quantized weight and float bias of a quantized linear layer."""

    _version = 3

    def __init__(self, dtype=torch.qint8):
        super().__init__()
        self.dtype = dtype
        wq = _new(np.zeros((1, 1), np.int8), torch.qint8, per_tensor_affine, 1.0, 0)
        self.set_weight_bias(wq, None)

    def set_weight_bias(self, weight, bias) -> None:
        self._packed_params = (weight, bias)

    def _weight_bias(self):
        return self._packed_params

    def forward(self, x):
        return x

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "dtype"] = self.dtype
        destination[prefix + "_packed_params"] = self._weight_bias()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        self.dtype = state_dict.pop(prefix + "dtype")
        weight, bias = state_dict.pop(prefix + "_packed_params")
        self.set_weight_bias(weight, bias)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys,
                                      unexpected_keys, error_msgs)

    def __repr__(self):
        return self._weight_bias().__repr__()


def _hide_packed_params_repr(module) -> str:
    """``Module.__repr__`` without the packed-parameters child (as torch prints these)."""
    from ....nn.modules.module import _addindent
    extra = module.extra_repr()
    extra_lines = extra.split("\n") if extra else []
    child_lines = ["(" + key + "): " + _addindent(repr(m), 2)
                   for key, m in module._modules.items() if not isinstance(m, LinearPackedParams)]
    lines = extra_lines + child_lines
    main = module._get_name() + "("
    if lines:
        if len(extra_lines) == 1 and not child_lines:
            main += extra_lines[0]
        else:
            main += "\n  " + "\n  ".join(lines) + "\n"
    return main + ")"


def _weight_arrays(w: QTensor):
    """The int8 weight's integers, scale(s) and zero point(s) as the kernels take them."""
    q = _SLOT.__get__(w)
    d = w.__dict__
    if d["_qaxis"] is None:
        return q, d["_qscale"], d["_qzp"]
    return q, np.asarray(d["_qscale"], np.float32), np.asarray(d["_qzp"])


def _quantize_weight(float_wt, observer):
    """``float_wt`` quantized with the qparams ``observer`` computed (per tensor or per
    channel, as its scheme says)."""
    from ...quantization._tensor import (
        per_channel_affine_float_qparams,
        per_channel_symmetric,
        per_tensor_symmetric,
        quantize_per_channel,
    )
    wt_scale, wt_zp = observer.calculate_qparams()
    if observer.qscheme in (per_tensor_symmetric, per_tensor_affine):
        return quantize_per_tensor(float_wt, float(wt_scale), int(wt_zp), torch.qint8)
    if observer.qscheme in (per_channel_symmetric, per_channel_affine):
        return quantize_per_channel(float_wt, wt_scale.to(torch.double),
                                    wt_zp.to(torch.int64), observer.ch_axis, torch.qint8)
    if observer.qscheme is per_channel_affine_float_qparams:
        return quantize_per_channel(float_wt, wt_scale.to(torch.float),
                                    wt_zp.to(torch.float), observer.ch_axis, observer.dtype)
    raise ValueError(f"Unexpected qscheme {observer.qscheme}")


class Linear(nn.Module):
    """A linear layer on quantized tensors: quint8 input, qint8 weight, quint8 output with
    the module's ``scale`` and ``zero_point``."""

    _version = 3
    _FLOAT_MODULE = (nn.Linear,)

    def __init__(self, in_features, out_features, bias_=True, dtype=torch.qint8):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        bias = torch.zeros(out_features, dtype=torch.float) if bias_ else None
        if dtype is not torch.qint8:
            raise RuntimeError("Unsupported dtype specified for quantized Linear!")
        qweight = _new(np.zeros((out_features, in_features), np.int8), torch.qint8,
                       per_tensor_affine, 1.0, 0)
        self._packed_params = LinearPackedParams(dtype)
        self._packed_params.set_weight_bias(qweight, bias)
        self.scale = 1.0
        self.zero_point = 0

    def _get_name(self):
        return "QuantizedLinear"

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"scale={self.scale}, zero_point={self.zero_point}, "
                f"qscheme={self.weight().qscheme()}")

    def __repr__(self):
        return _hide_packed_params_repr(self)

    def forward(self, x):
        w, b = self._weight_bias()
        wq, ws, wz = _weight_arrays(w)
        d = x.__dict__
        bias = None if b is None else b.detach()._data
        out = linear_static(_SLOT.__get__(x), d["_qscale"], d["_qzp"], wq, ws, wz, bias,
                            self.scale, self.zero_point, relu=self._relu)
        return _new(out, torch.quint8, per_tensor_affine, float(self.scale),
                    int(self.zero_point))

    _relu = False

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "scale"] = torch.tensor(self.scale)
        destination[prefix + "zero_point"] = torch.tensor(self.zero_point)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        self.scale = float(state_dict.pop(prefix + "scale"))
        self.zero_point = int(state_dict.pop(prefix + "zero_point"))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys,
                                      unexpected_keys, error_msgs)

    def _weight_bias(self):
        return self._packed_params._weight_bias()

    def weight(self):
        """The quantized weight."""
        return self._weight_bias()[0]

    def bias(self):
        """The float bias (or None)."""
        return self._weight_bias()[1]

    def set_weight_bias(self, w, b) -> None:
        self._packed_params.set_weight_bias(w, b)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The quantized form of the observed float linear ``mod``."""
        if hasattr(mod, "weight_fake_quant"):
            raise NotImplementedError("quantization-aware training modules are not supported")
        float_mods = cls._FLOAT_MODULE if isinstance(cls._FLOAT_MODULE, tuple) else \
            (cls._FLOAT_MODULE,)
        if type(mod) not in float_mods:
            names = [m.__name__ for m in float_mods]
            raise AssertionError(f" nnq.{cls.__name__}.from_float only works for "
                                 f"{names[0] if len(names) == 1 else names}, but got: "
                                 f"{type(mod)}")
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined")
        activation_post_process = mod.activation_post_process
        lin = mod[0] if hasattr(mod, "__getitem__") and not isinstance(mod, nn.Linear) else mod
        weight_post_process = mod.qconfig.weight()
        weight_post_process(lin.weight)
        dtype = weight_post_process.dtype
        act_scale, act_zp = activation_post_process.calculate_qparams()
        if dtype is not torch.qint8:
            raise AssertionError("Weight observer must have dtype torch.qint8")
        qweight = _quantize_weight(lin.weight.float(), weight_post_process)
        qlinear = cls(lin.in_features, lin.out_features, dtype=dtype)
        qlinear.set_weight_bias(qweight, lin.bias)
        qlinear.scale = float(act_scale)
        qlinear.zero_point = int(act_zp)
        return qlinear
