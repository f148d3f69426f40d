"""Quantized modules (``torch.ao.nn.quantized``): ``Quantize``, ``DeQuantize`` and the
statically quantized ``Linear``, which computes with fbgemm's integer kernel on quint8
activations and a qint8 weight (see :mod:`ember.ao.quantization._tensor`)."""

from __future__ import annotations

import importlib as _importlib

import sys as _sys_

import numpy as _np

from ..... import nn as _nn
from ....quantization._tensor import _SLOT, _new
from ....quantization._tensor import QTensor as _QTensor
from ....quantization._tensor import linear_static as _linear_static
from ....quantization._tensor import per_channel_affine as _per_channel_affine
from ....quantization._tensor import per_tensor_affine as _per_tensor_affine
from ....quantization._tensor import quantize_per_tensor as _quantize_per_tensor

torch = _sys_.modules[__name__.split(".")[0]]   # the package (torch)

__all__ = ["Quantize", "DeQuantize", "Linear", "Conv2d", "FloatFunctional", "QFunctional",
           "Embedding"]


class Quantize(_nn.Module):
    """Quantizes its input with a fixed ``scale`` and ``zero_point`` (a converted QuantStub)."""

    def __init__(self, scale, zero_point, dtype, factory_kwargs=None):
        super().__init__()
        self.register_buffer("scale", torch.tensor([scale]))
        self.register_buffer("zero_point", torch.tensor([zero_point], dtype=torch.long))
        self.dtype = dtype

    def forward(self, X):
        return _quantize_per_tensor(X, float(self.scale), int(self.zero_point), self.dtype)

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant=False):
        if not hasattr(mod, "activation_post_process"):
            raise AssertionError("Input float module must have activation_post_process")
        scale, zero_point = mod.activation_post_process.calculate_qparams()
        return Quantize(scale.float().item(), zero_point.long().item(),
                        mod.activation_post_process.dtype)

    def extra_repr(self):
        return f"scale={self.scale}, zero_point={self.zero_point}, dtype={self.dtype}"


class DeQuantize(_nn.Module):
    """Dequantizes its input (a converted DeQuantStub)."""

    def forward(self, Xq):
        return Xq.dequantize()

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant=False):
        return DeQuantize()


class _PackedParams(_nn.Module):
    """The packed weight of a quantized layer: saved as ``dtype`` and ``<_key>`` entries,
    printed as what it holds."""

    _key = "_packed_params"

    def forward(self, x):
        return x

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "dtype"] = self.dtype
        destination[prefix + self._key] = self._packed()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        self.dtype = state_dict.pop(prefix + "dtype")
        self._unpack(state_dict.pop(prefix + self._key))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys,
                                      unexpected_keys, error_msgs)

    def __repr__(self):
        return self._packed().__repr__()


class _LinearPackedParams(_PackedParams):
    """The quantized weight and float bias of a quantized linear layer."""

    _version = 3

    def __init__(self, dtype=torch.qint8):
        super().__init__()
        self.dtype = dtype
        wq = _new(_np.zeros((1, 1), _np.int8), torch.qint8, _per_tensor_affine, 1.0, 0)
        self.set_weight_bias(wq, None)

    def set_weight_bias(self, weight, bias) -> None:
        self._packed_params = (_float_qparams(weight), bias)

    def _weight_bias(self):
        return self._packed_params

    _packed = _weight_bias

    def _unpack(self, value) -> None:
        self.set_weight_bias(*value)


def _float_qparams(w: _QTensor) -> _QTensor:
    """``w`` as fbgemm's packing keeps it: its scale(s) stored as float32 (what its unpacked
    weight reports, double again); the integers are shared."""
    d = w.__dict__
    scale = d["_qscale"]
    if d["_qaxis"] is None:
        rounded = float(_np.float32(scale))
    else:
        rounded = _np.asarray(scale, _np.float32).astype(_np.float64)
    if _np.array_equal(rounded, scale):
        return w
    return _new(_SLOT.__get__(w), d["_qdtype"], d["_qscheme"], rounded, d["_qzp"], d["_qaxis"])


def _hide_packed_params_repr(module) -> str:
    """``Module.__repr__`` without the packed-parameters child (as torch prints these)."""
    return module._repr_children((k, m) for k, m in module._modules.items()
                                 if not isinstance(m, _PackedParams))


def _weight_arrays(w: _QTensor):
    """The int8 weight's integers, scale(s) and zero point(s) as the kernels take them."""
    q = _SLOT.__get__(w)
    d = w.__dict__
    if d["_qaxis"] is None:
        return q, d["_qscale"], d["_qzp"]
    return q, _np.asarray(d["_qscale"], _np.float32), _np.asarray(d["_qzp"])


def _quantize_weight(float_wt, observer):
    """``float_wt`` quantized with the qparams ``observer`` computed (per tensor or per
    channel, as its scheme says)."""
    from ....quantization._tensor import (
        per_channel_affine_float_qparams,
        per_channel_symmetric,
        per_tensor_symmetric,
        quantize_per_channel,
    )
    wt_scale, wt_zp = observer.calculate_qparams()
    if observer.qscheme in (per_tensor_symmetric, _per_tensor_affine):
        return _quantize_per_tensor(float_wt, float(wt_scale), int(wt_zp), torch.qint8)
    if observer.qscheme in (per_channel_symmetric, _per_channel_affine):
        return quantize_per_channel(float_wt, wt_scale.to(torch.double),
                                    wt_zp.to(torch.int64), observer.ch_axis, torch.qint8)
    if observer.qscheme is per_channel_affine_float_qparams:
        return quantize_per_channel(float_wt, wt_scale.to(torch.float),
                                    wt_zp.to(torch.float), observer.ch_axis, observer.dtype)
    raise ValueError(f"Unexpected qscheme {observer.qscheme}")


class Linear(_nn.Module):
    """A linear layer on quantized tensors: quint8 input, qint8 weight, quint8 output with
    the module's ``scale`` and ``zero_point``."""

    _version = 3
    _FLOAT_MODULE = (_nn.Linear,)

    def __init__(self, in_features, out_features, bias_=True, dtype=torch.qint8):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        bias = torch.zeros(out_features, dtype=torch.float) if bias_ else None
        if dtype is not torch.qint8:
            raise RuntimeError("Unsupported dtype specified for quantized Linear!")
        qweight = _new(_np.zeros((out_features, in_features), _np.int8), torch.qint8,
                       _per_tensor_affine, 1.0, 0)
        self._packed_params = _LinearPackedParams(dtype)
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
        out = _linear_static(_SLOT.__get__(x), d["_qscale"], d["_qzp"], wq, ws, wz, bias,
                            self.scale, self.zero_point, relu=self._relu)
        return _new(out, torch.quint8, _per_tensor_affine, float(self.scale),
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
        lin = mod[0] if hasattr(mod, "__getitem__") and not isinstance(mod, _nn.Linear) else mod
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


def _conv2d_static(xq: _np.ndarray, x_scale, x_zp, wq: _np.ndarray, w_scale, w_zp, bias,
                   stride, padding, dilation, groups, out_scale, out_zp, relu) -> _np.ndarray:
    """fbgemm's quantized conv2d: the padded input (padding takes the input's zero point)
    unfolded into rows, one exact integer product per group, requantized as the linear
    layer requantizes."""
    n, c, _, _ = xq.shape
    cout, cin_g, kh, kw = wq.shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    xp = _np.pad(xq, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=x_zp)
    win = _np.lib.stride_tricks.sliding_window_view(
        xp, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(2, 3))
    win = win[:, :, ::sh, ::sw, ::dh, ::dw]             # (n, c, oh, ow, kh, kw)
    oh, ow = win.shape[2], win.shape[3]
    per_channel = _np.ndim(w_scale) > 0
    cout_g = cout // groups
    outs = []
    for g in range(groups):
        cols = win[:, g * cin_g:(g + 1) * cin_g].transpose(0, 2, 3, 1, 4, 5)
        cols = cols.reshape(n * oh * ow, cin_g * kh * kw)
        sl = slice(g * cout_g, (g + 1) * cout_g)
        outs.append(_linear_static(
            cols, x_scale, x_zp, wq[sl].reshape(cout_g, -1),
            w_scale[sl] if per_channel else w_scale, w_zp[sl] if per_channel else w_zp,
            None if bias is None else bias[sl], out_scale, out_zp, relu=relu))
    out = _np.concatenate(outs, axis=1) if groups > 1 else outs[0]
    return _np.ascontiguousarray(out.reshape(n, oh, ow, cout).transpose(0, 3, 1, 2))


class Conv2d(_nn.Module):
    """A 2-d convolution on quantized tensors (quint8 input and output, qint8 weight)."""

    _FLOAT_MODULE = (_nn.Conv2d,)
    _relu = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", device=None,
                 dtype=None):
        super().__init__()

        def pair(v):
            return tuple(v) if isinstance(v, (tuple, list)) else (v, v)
        if padding_mode != "zeros":
            raise NotImplementedError("only padding_mode='zeros' is supported")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = pair(kernel_size), pair(stride)
        self.padding, self.dilation = pair(padding), pair(dilation)
        self.output_padding = (0, 0)
        self.transposed = False
        self.groups = groups
        self.padding_mode = padding_mode
        wq = _new(_np.zeros((out_channels, in_channels // groups, *self.kernel_size), _np.int8),
                  torch.qint8, _per_tensor_affine, 1.0, 0)
        self.set_weight_bias(wq, torch.zeros(out_channels) if bias else None)
        self.scale = 1.0
        self.zero_point = 0

    def _get_name(self):
        return "QuantizedConv2d"

    def set_weight_bias(self, w, b) -> None:
        self._packed_params = (w, b)

    def _weight_bias(self):
        return self._packed_params

    def weight(self):
        """The quantized weight."""
        return self._packed_params[0]

    def bias(self):
        """The float bias (or None)."""
        return self._packed_params[1]

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}, scale={self.scale}, zero_point={self.zero_point}")
        if self.padding != (0, 0):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias() is None:
            s += ", bias=False"
        return s

    def forward(self, input):
        if input.dim() != 4:
            raise ValueError("Input shape must be `(N, C, H, W)`!")
        w, b = self._packed_params
        wq, ws, wz = _weight_arrays(w)
        d = input.__dict__
        bias = None if b is None else b.detach()._data
        out = _conv2d_static(_SLOT.__get__(input), d["_qscale"], d["_qzp"], wq, ws, wz, bias,
                             self.stride, self.padding, self.dilation, self.groups,
                             self.scale, self.zero_point, self._relu)
        return _new(out, torch.quint8, _per_tensor_affine, float(self.scale),
                    int(self.zero_point))

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        w, b = self._packed_params
        destination[prefix + "weight"] = w
        destination[prefix + "bias"] = b
        destination[prefix + "scale"] = torch.tensor(self.scale)
        destination[prefix + "zero_point"] = torch.tensor(self.zero_point)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The quantized form of the observed float convolution ``mod`` (or of the conv in a
        fused ConvReLU2d)."""
        float_mods = cls._FLOAT_MODULE
        if type(mod) not in float_mods:
            raise AssertionError(f" nnq.{cls.__name__}.from_float only works for "
                                 f"{float_mods[0].__name__}, but got: {type(mod)}")
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined.")
        activation_post_process = mod.activation_post_process
        conv = mod[0] if not isinstance(mod, _nn.Conv2d) else mod
        weight_post_process = mod.qconfig.weight()
        weight_post_process(conv.weight)
        if weight_post_process.dtype is not torch.qint8:
            raise AssertionError("Weight observer must have a dtype of qint8")
        qweight = _quantize_weight(conv.weight.float(), weight_post_process)
        qconv = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                    conv.padding, conv.dilation, conv.groups, conv.bias is not None,
                    conv.padding_mode)
        qconv.set_weight_bias(qweight, conv.bias)
        act_scale, act_zp = activation_post_process.calculate_qparams()
        qconv.scale = float(act_scale)
        qconv.zero_point = int(act_zp)
        return qconv


class FloatFunctional(_nn.Module):
    """The float ops a model calls between layers (``add``, ``mul``, ``cat``, ``add_relu``)
    as a module, so that ``prepare`` can observe their outputs."""

    def __init__(self):
        super().__init__()
        self.activation_post_process = _nn.Identity()

    def forward(self, x):
        raise RuntimeError("FloatFunctional is not intended to use the 'forward'. Please use "
                           "the underlying operation")

    def add(self, x, y):
        return self.activation_post_process(torch.add(x, y))

    def add_scalar(self, x, y):
        return torch.add(x, y)

    def mul(self, x, y):
        return self.activation_post_process(torch.mul(x, y))

    def mul_scalar(self, x, y):
        return torch.mul(x, y)

    def cat(self, x, dim=0):
        return self.activation_post_process(torch.cat(x, dim=dim))

    def add_relu(self, x, y):
        return self.activation_post_process(torch.nn.functional.relu(torch.add(x, y)))

    def matmul(self, x, y):
        return self.activation_post_process(torch.matmul(x, y))


class QFunctional(_nn.Module):
    """FloatFunctional's quantized form: the ops on quantized tensors, their outputs
    quantized with the module's ``scale`` and ``zero_point``."""

    def __init__(self):
        super().__init__()
        self.scale = 1.0
        self.zero_point = 0
        self.activation_post_process = _nn.Identity()

    def _get_name(self):
        return "QFunctional"

    def extra_repr(self):
        return f"scale={self.scale}, zero_point={self.zero_point}"

    def forward(self, x):
        raise RuntimeError("Functional is not intended to use the 'forward'. Please use the "
                           "underlying operation")

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "scale"] = torch.tensor(self.scale)
        destination[prefix + "zero_point"] = torch.tensor(self.zero_point)

    def add(self, x, y):
        from ....quantization import _ops
        return self.activation_post_process(_ops.add(x, y, self.scale, self.zero_point))

    def add_relu(self, x, y):
        from ....quantization import _ops
        return self.activation_post_process(_ops.add(x, y, self.scale, self.zero_point, True))

    def mul(self, x, y):
        from ....quantization import _ops
        return self.activation_post_process(_ops.mul(x, y, self.scale, self.zero_point))

    def cat(self, x, dim=0):
        from ....quantization import _ops
        return self.activation_post_process(_ops.cat(x, dim, self.scale, self.zero_point))

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        if type(mod) is not FloatFunctional:
            raise AssertionError("QFunctional.from_float expects an instance of "
                                 "FloatFunctional")
        scale, zero_point = mod.activation_post_process.calculate_qparams()
        new_mod = QFunctional()
        new_mod.scale = float(scale)
        new_mod.zero_point = int(zero_point)
        return new_mod


class _EmbeddingPackedParams(_PackedParams):
    """The quantized weight of a quantized embedding (rows quantized to quint8 with float
    scales and zero points)."""

    _version = 1
    _key = "_packed_weight"

    def __init__(self, num_embeddings, embedding_dim, dtype=torch.quint8):
        super().__init__()
        self.dtype = dtype
        if dtype is not torch.quint8:
            raise NotImplementedError(f"Unsupported dtype on quantized embedding! Supports "
                                      f"quint8, got {dtype}")
        from ....quantization._tensor import per_channel_affine_float_qparams
        wq = _new(_np.zeros((num_embeddings, embedding_dim), _np.uint8), dtype,
                  per_channel_affine_float_qparams, _np.ones(num_embeddings),
                  _np.zeros(num_embeddings, _np.float32), 0)
        self.set_weight(wq)

    def set_weight(self, weight) -> None:
        self._packed_weight = weight

    def _weight(self):
        return self._packed_weight

    _packed = _weight
    _unpack = set_weight


class Embedding(_nn.Module):
    """An embedding whose rows are stored as quint8 with a float scale and zero point each;
    a lookup returns ``fma(q, scale, -zero_point * scale)`` in float32 (fbgemm's 8-bit
    rowwise kernel)."""

    _version = 1
    _FLOAT_MODULE = _nn.Embedding

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 dtype=torch.quint8):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.dtype = dtype
        self._packed_params = _EmbeddingPackedParams(num_embeddings, embedding_dim, dtype)
        if _weight is not None:
            self._packed_params.set_weight(_weight)

    def _get_name(self):
        return "QuantizedEmbedding"

    def extra_repr(self):
        w = self.weight()
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"dtype={self._packed_params.dtype}, qscheme={w.qscheme()}")

    def __repr__(self):
        return _hide_packed_params_repr(self)

    def weight(self):
        """The quantized weight."""
        return self._packed_params._weight()

    def set_weight(self, w) -> None:
        self._packed_params.set_weight(w)

    def forward(self, indices):
        from ....._ops._fused import fma
        w = self.weight()
        d = w.__dict__
        idx = indices.detach()._data
        q = _SLOT.__get__(w)[idx].astype(_np.float32)
        scale = _np.asarray(d["_qscale"], _np.float32)[idx][..., None]
        zp = _np.asarray(d["_qzp"], _np.float32)[idx][..., None]
        bias = (-zp * scale).astype(_np.float32)
        shape = q.shape
        out = fma(q, _np.broadcast_to(scale, shape).astype(_np.float32),
                  _np.broadcast_to(bias, shape).astype(_np.float32))
        return torch.Tensor._wrap(_np.asarray(out, _np.float32))

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The quantized form of the float embedding ``mod`` (its qconfig's weight observer:
        float_qparams_weight_only_qconfig)."""
        if type(mod) is not _nn.Embedding:
            raise AssertionError(" nnq.Embedding.from_float only works for "
                                 "nn.Embedding")
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Embedding input float module must have qconfig defined")
        weight_observer = mod.qconfig.weight()
        dtype = weight_observer.dtype
        from ....quantization._tensor import per_channel_affine_float_qparams
        if weight_observer.qscheme is not per_channel_affine_float_qparams:
            raise AssertionError("Embedding quantization is only supported with "
                                 "float_qparams_weight_only_qconfig.")
        if dtype is not torch.quint8:
            raise AssertionError(f"The only supported dtype for nnq.Embedding is "
                                 f"torch.quint8, got {dtype}")
        weight_observer(mod.weight)
        qweight = _quantize_weight(mod.weight.float(), weight_observer)
        q = cls(mod.num_embeddings, mod.embedding_dim)
        q.set_weight(qweight)
        return q


del annotations  # keep dir() to torch's names


# each class lives, as torch's, in a submodule of this package named for its kind
for _cls, _home in ((Conv2d, "conv"), (Embedding, "embedding_ops"), (Linear, "linear"),
                    (FloatFunctional, "functional_modules"),
                    (QFunctional, "functional_modules")):
    _cls.__module__ = f"{__name__}.{_home}"
del _cls, _home

for _sub in ("conv", "embedding_ops", "functional_modules", "linear"):   # loaded, as torch's are
    _importlib.import_module(f"{__name__}.{_sub}")
del _sub
