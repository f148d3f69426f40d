"""Quantized tensors and the integer kernels behind torch's quantized CPU ops (fbgemm engine).

A quantized tensor stores integers (its ``int_repr()``) with an affine map to real values:
``real = (q - zero_point) * scale``, one ``scale``/``zero_point`` for the whole tensor or one per
slice along ``axis``. :class:`QTensor` keeps the integers in the ``_data`` slot of the Tensor,
and answers ``_data`` itself with an error, so that an op without a quantized kernel fails as
torch's does (``Could not run 'aten::…' with arguments from the 'QuantizedCPU' backend``)
instead of computing on the integers.

Rounding, as in fbgemm's and ATen's kernels:

* ``quantize_per_tensor`` to qint8/quint8 (fbgemm's vectorized ``Quantize``): one fused
  ``x * (1/scale) + zero_point`` rounded to float, then to the nearest integer (ties to even);
* qint32 and the per-channel kernels (the scalar ``Quantize``): ``x * (1/scale)`` rounded to
  float, plus the zero point rounded to float, then to the nearest integer;
* dequantization: ``(float(q) - zero_point) * scale`` in float32.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ... import _dtype as D
from ..._layout import TorchConstant as _TorchConstant
from ..._tensor import Tensor, _disabled_torch_function_impl

__all__ = ["QTensor", "qscheme", "per_tensor_affine", "per_channel_affine",
           "per_tensor_symmetric", "per_channel_symmetric", "per_channel_affine_float_qparams",
           "quantize_per_tensor", "quantize_per_channel", "dequantize", "int_repr",
           "choose_qparams", "quantize_array", "linear_dynamic", "linear_static",
           "quantized_backend_error", "not_differentiable"]

_F32 = np.float32
_SLOT = Tensor.__dict__["_data"]            # the integers, read past QTensor's guard
# quantized dtype -> (qmin, qmax, NumPy storage)
RANGES = {D.qint8: (-128, 127, np.int8), D.quint8: (0, 255, np.uint8),
          D.qint32: (-2 ** 31, 2 ** 31 - 1, np.int32), D.quint4x2: (0, 15, np.uint8),
          D.quint2x4: (0, 3, np.uint8)}
_DEPRECATED = ("torch.quantize_per_tensor, torch.quantize_per_channel and other quantized tensor "
               "creation functions that produce tensors with dtype torch.quint8, torch.qint8, "
               "and torch.qint32 are deprecated and will be removed in a future PyTorch "
               "release. Please see https://github.com/pytorch/pytorch/issues/184982 for more "
               "information.")
_warned = [False]


class qscheme(_TorchConstant):
    """A quantization scheme (``torch.per_tensor_affine`` …), printed as torch's."""

    __slots__ = ()


qscheme.__module__ = "ember"
per_tensor_affine = qscheme("per_tensor_affine")
per_channel_affine = qscheme("per_channel_affine")
per_tensor_symmetric = qscheme("per_tensor_symmetric")
per_channel_symmetric = qscheme("per_channel_symmetric")
per_channel_affine_float_qparams = qscheme("per_channel_affine_float_qparams")
_SCHEMES = {s.name: s for s in (per_tensor_affine, per_channel_affine, per_tensor_symmetric,
                                per_channel_symmetric, per_channel_affine_float_qparams)}


def _scheme_by_name(name: str) -> qscheme:
    return _SCHEMES[name]


qscheme._by_name = staticmethod(_scheme_by_name)


def quantized_backend_error(aten_name: str) -> NotImplementedError:
    """torch's dispatcher error for an op with no QuantizedCPU kernel."""
    from ..._errors import no_backend_kernel
    return no_backend_kernel(aten_name, "QuantizedCPU")


class QuantizedOperand(NotImplementedError):
    """Raised when an op without a quantized kernel reads a quantized tensor's elements."""


# ----------------------------------------------------------------------------- the kernels

def _fma32(a, b, c) -> np.ndarray:
    from ..._ops._fused import fma
    a, b, c = np.broadcast_arrays(np.asarray(a, _F32), np.asarray(b, _F32),
                                  np.asarray(c, _F32))
    return fma(np.ascontiguousarray(a), np.ascontiguousarray(b), np.ascontiguousarray(c))


def quantize_array(x: np.ndarray, scale, zero_point, qdtype, fused: bool) -> np.ndarray:
    """The integers of ``x`` (float32) quantized with ``scale`` and ``zero_point`` (numbers, or
    arrays broadcasting against ``x``): ``fused``, fbgemm's vectorized rounding of
    ``x * (1/scale) + zero_point``; else the scalar one, ``x * (1/scale)`` and the zero point
    added in float."""
    lo, hi, store = RANGES[qdtype]
    inv = _F32(1) / np.asarray(scale, _F32)
    zp = np.asarray(zero_point, _F32)
    with np.errstate(invalid="ignore", over="ignore"):
        if fused:
            t = _fma32(x, inv, zp)
        else:
            t = (np.asarray(x, _F32) * inv).astype(_F32) + zp
        r = np.rint(np.minimum(t, _F32(2147483520)).astype(np.float64))
    r = np.where(np.isnan(r), lo, r)        # (the conversion's INT_MIN for NaN, clamped)
    return np.clip(r, lo, hi).astype(store)


def dequantize_array(q: np.ndarray, scale, zero_point) -> np.ndarray:
    """``(float(q) - zero_point) * scale`` in float32."""
    return ((q.astype(_F32) - np.asarray(zero_point, _F32)).astype(_F32)
            * np.asarray(scale, _F32)).astype(_F32)


def choose_qparams(mn: float, mx: float, qmin: int, qmax: int, reduce_range: bool = False,
                   preserve_sparsity: bool = False) -> tuple[float, int]:
    """ATen's ``ChooseQuantizationParams``: the float32 scale and the zero point that map
    ``[min(mn, 0), max(mx, 0)]`` onto ``[qmin, qmax]`` (each halved for ``reduce_range``)."""
    if reduce_range:
        qmin, qmax = int(qmin / 2), int(qmax / 2)
    mn, mx = _F32(mn), _F32(mx)
    if mn > mx:
        raise RuntimeError(f"min should be less than or equal to max, min: {mn}, max: {mx}")
    if mn < 0 and mx > 0 and preserve_sparsity:
        symmetric_qmin = int(-((qmax - qmin) / 2 + 1))
        symmetric_qmax = int((qmax - qmin) / 2)
        max_scale = max(abs(mn / symmetric_qmin), abs(mx / symmetric_qmax))
        mn, mx = _F32(max_scale * symmetric_qmin), _F32(max_scale * symmetric_qmax)
    mn, mx = min(mn, _F32(0)), max(mx, _F32(0))
    scale = (float(mx) - float(mn)) / (qmax - qmin)
    with np.errstate(divide="ignore", over="ignore"):
        if _F32(scale) == 0 or math.isinf(_F32(1) / _F32(scale)):
            scale = 0.1
    small = _F32(6.1e-5)
    if scale < small:
        org = _F32(scale)
        scale = float(small)
        if mn == 0:
            mx = _F32(small * _F32(qmax - qmin))
        elif mx == 0:
            mn = _F32(-small * _F32(qmax - qmin))
        else:
            amp = _F32(small / org)
            mn, mx = _F32(mn * amp), _F32(mx * amp)
    from_min = qmin - float(mn) / scale
    from_max = qmax - float(mx) / scale
    err_min = abs(qmin) - abs(float(mn) / scale)
    err_max = abs(qmax) - abs(float(mx) / scale)
    zp = from_min if err_min < err_max else from_max
    if mn < 0 and mx > 0 and preserve_sparsity:
        zp = (qmin + qmax) / 2
    zp = qmin if zp < qmin else qmax if zp > qmax else int(np.rint(zp))
    return scale, zp


def _int_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b.T`` of integer matrices, exact (int32 accumulation never overflows here)."""
    if a.shape[1] * 255 * 128 < 2 ** 53:
        return (a.astype(np.float64) @ b.astype(np.float64).T).astype(np.int64)
    return a.astype(np.int64) @ b.astype(np.int64).T


def linear_dynamic(x: np.ndarray, wq: np.ndarray, w_scale, w_zp, bias, reduce_range: bool,
                   relu: bool = False) -> np.ndarray:
    """fbgemm's dynamic quantized linear: ``x`` quantized to uint8 with qparams chosen from its
    min and max, an exact integer product with the int8 weight, then per element
    ``fma(float(acc), act_scale * w_scale, bias)`` in float32."""
    k = wq.shape[1]
    x2 = np.ascontiguousarray(x, _F32).reshape(-1, k)
    mn, mx = (float(x2.min()), float(x2.max())) if x2.size else (0.0, 0.0)
    scale, zp = choose_qparams(mn, mx, 0, 255, reduce_range)
    aq = quantize_array(x2, scale, zp, D.quint8, fused=True)
    acc = _int_matmul(aq.astype(np.int64) - zp, wq.astype(np.int64) - np.asarray(w_zp)[..., None]
                      if np.ndim(w_zp) else wq.astype(np.int64) - int(w_zp))
    mult = (_F32(scale) * np.asarray(w_scale, _F32)).astype(_F32)
    accf = acc.astype(_F32)
    out = _fma32(accf, mult, bias) if bias is not None else (accf * mult).astype(_F32)
    if relu:
        out = np.maximum(out, _F32(0))
    return out.reshape(*x.shape[:-1], wq.shape[0])


def linear_static(xq: np.ndarray, x_scale: float, x_zp: int, wq: np.ndarray, w_scale, w_zp,
                  bias, out_scale: float, out_zp: int, relu: bool = False) -> np.ndarray:
    """fbgemm's quantized linear (uint8 activations, int8 weight): the exact integer product,
    the bias added in units of ``x_scale * w_scale``, scaled by
    ``x_scale * w_scale / out_scale`` and rounded to uint8 around ``out_zp``."""
    k = wq.shape[1]
    x2 = xq.reshape(-1, k).astype(np.int64)
    per_channel = np.ndim(w_scale) > 0
    wz = np.asarray(w_zp, np.int64)[:, None] if per_channel else int(w_zp)
    acc = _int_matmul(x2 - x_zp, wq.astype(np.int64) - wz)
    act_w = (_F32(x_scale) * np.asarray(w_scale, _F32)).astype(_F32)
    mult = (act_w / _F32(out_scale)).astype(_F32)
    accf = acc.astype(_F32)
    if bias is not None:
        b = np.asarray(bias, _F32)
        if per_channel:
            b = (b / act_w).astype(_F32)
        else:
            b = (b * _F32(1.0 / float(act_w))).astype(_F32)
        accf = (accf + b).astype(_F32)
    with np.errstate(invalid="ignore", over="ignore"):
        r = np.rint((accf * mult).astype(_F32).astype(np.float64))
    lo = out_zp if relu else 0
    out = np.clip(np.clip(r, -32768, 32767) + out_zp, lo, 255).astype(np.uint8)
    return out.reshape(*xq.shape[:-1], wq.shape[0])


def not_differentiable(op_name: str, inputs, outputs) -> None:
    """Give ``outputs`` torch's ``WarnNotImplemented`` node when grad mode is on and one of
    ``inputs`` requires grad (the quantized kernels have no autograd formula: backward warns
    and passes no gradient)."""
    from ..._ops.registry import _requires_list, record_list
    inputs = [t for t in inputs if isinstance(t, Tensor)]
    if not _requires_list(inputs):
        return

    def backward(grad):
        warnings.warn(f"{op_name}: an autograd kernel was not registered to the Autograd "
                      "key(s) but we are trying to backprop through it. This may lead to "
                      "silently incorrect behavior. This behavior is deprecated and will be "
                      "removed in a future version of PyTorch. If your operator is "
                      "differentiable, please ensure you have registered an autograd kernel "
                      "to the correct Autograd key (e.g. DispatchKey::Autograd, "
                      "DispatchKey::CompositeImplicitAutograd). If your operator is not "
                      "differentiable, or to squash this warning and use the previous "
                      "behavior, please register torch::CppFunction::makeFallthrough() to "
                      "DispatchKey::Autograd.", UserWarning, stacklevel=2)
        return [None] * len(inputs)
    for out in outputs:
        record_list("WarnNotImplemented", inputs, out, backward)


# ----------------------------------------------------------------------------- the tensor

def _new(q: np.ndarray, qdtype, qscheme_, scale=None, zero_point=None, axis=None) -> QTensor:
    t = Tensor._wrap(q)
    t.__class__ = QTensor
    d = t.__dict__
    d["_qdtype"] = qdtype
    d["_qscheme"] = qscheme_
    d["_qscale"] = scale
    d["_qzp"] = zero_point
    d["_qaxis"] = axis
    return t


def _like(q: QTensor, data: np.ndarray, axis=None) -> QTensor:
    d = q.__dict__
    return _new(data, d["_qdtype"], d["_qscheme"], d["_qscale"], d["_qzp"],
                d["_qaxis"] if axis is None else axis)


def _per_tensor_only(q: QTensor, what: str) -> None:
    if q.__dict__["_qaxis"] is not None:
        raise RuntimeError(f"{what} is only supported here for per-tensor quantized tensors")


class QTensor(Tensor):
    """A quantized tensor: integers plus a scale and a zero point (per tensor or per channel).

    >>> import ember
    >>> q = ember.quantize_per_tensor(ember.tensor([0.5, -1.0]), 0.1, 0, ember.qint8)
    >>> q.int_repr()
    tensor([  5, -10], dtype=torch.int8)
    """

    __slots__ = ()
    __torch_function__ = _disabled_torch_function_impl
    is_quantized = True

    @property
    def _data(self):
        raise QuantizedOperand("Could not run this operator with arguments from the "
                               "'QuantizedCPU' backend.")

    @_data.setter
    def _data(self, value):
        _SLOT.__set__(self, value)

    # ----- what a quantized tensor is
    @property
    def dtype(self):
        return self.__dict__["_qdtype"]

    @property
    def shape(self):
        from ..._tensor import Size
        return Size(_SLOT.__get__(self).shape)

    def size(self, dim=None):
        from ..._tensor import Size
        a = _SLOT.__get__(self)
        if dim is None:
            return Size(a.shape)
        from ..._ops.util import norm_dim
        return a.shape[norm_dim(dim, a.ndim)]

    def dim(self) -> int:
        return _SLOT.__get__(self).ndim

    ndimension = dim

    @property
    def ndim(self) -> int:
        return _SLOT.__get__(self).ndim

    def numel(self) -> int:
        return _SLOT.__get__(self).size

    nelement = numel

    def element_size(self) -> int:
        return _SLOT.__get__(self).itemsize

    @property
    def itemsize(self) -> int:
        return _SLOT.__get__(self).itemsize

    @property
    def nbytes(self) -> int:
        return _SLOT.__get__(self).nbytes

    def stride(self, dim=None):
        a = _SLOT.__get__(self)
        st = tuple(s // a.itemsize for s in a.strides)
        if dim is None:
            return st
        from ..._ops.util import norm_dim
        return st[norm_dim(dim, a.ndim)]

    def is_contiguous(self, memory_format=None) -> bool:
        return _SLOT.__get__(self).flags.c_contiguous

    def data_ptr(self) -> int:
        return _SLOT.__get__(self).__array_interface__["data"][0]

    def is_floating_point(self) -> bool:
        return False

    def is_complex(self) -> bool:
        return False

    def __len__(self) -> int:
        a = _SLOT.__get__(self)
        if a.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return a.shape[0]

    def qscheme(self):
        """The quantization scheme (``torch.per_tensor_affine`` …)."""
        return self.__dict__["_qscheme"]

    def q_scale(self) -> float:
        """The scale of a per-tensor quantized tensor."""
        return self.__dict__["_qscale"]

    def q_zero_point(self) -> int:
        """The zero point of a per-tensor quantized tensor."""
        return self.__dict__["_qzp"]

    def q_per_channel_scales(self) -> Tensor:
        """The scales of a per-channel quantized tensor (float64; float32 with float zero
        points)."""
        float_qparams = self.__dict__["_qscheme"] is per_channel_affine_float_qparams
        return Tensor._wrap(np.array(self.__dict__["_qscale"],
                                     np.float32 if float_qparams else np.float64))

    def q_per_channel_zero_points(self) -> Tensor:
        """The zero points of a per-channel quantized tensor (int64)."""
        zp = self.__dict__["_qzp"]
        return Tensor._wrap(np.array(zp, np.float32 if zp.dtype.kind == "f" else np.int64))

    def q_per_channel_axis(self) -> int:
        """The dimension a per-channel quantized tensor's scales run along."""
        return self.__dict__["_qaxis"]

    def _qparams_along(self, ndim: int):
        """The scale and zero point arrays, shaped to broadcast against the integers."""
        d = self.__dict__
        if d["_qaxis"] is None:
            return d["_qscale"], d["_qzp"]
        shape = [1] * ndim
        shape[d["_qaxis"]] = -1
        return (np.asarray(d["_qscale"]).reshape(shape),
                np.asarray(d["_qzp"]).reshape(shape))

    def int_repr(self) -> Tensor:
        """The stored integers as a plain tensor (int8, uint8 or int32)."""
        return Tensor._wrap(_SLOT.__get__(self).copy())

    def dequantize(self) -> Tensor:
        """The real values, ``(q - zero_point) * scale``, as float32 (per channel: the
        product taken in double, as ATen's loop over float64 scales)."""
        a = _SLOT.__get__(self)
        s, z = self._qparams_along(a.ndim)
        if self.__dict__["_qscheme"] is per_channel_affine:
            return Tensor._wrap(((a.astype(np.int64) - z) * s).astype(_F32))
        return Tensor._wrap(dequantize_array(a, s, z))

    def item(self):
        a = _SLOT.__get__(self)
        if a.size != 1:
            raise RuntimeError(f"a Tensor with {a.size} elements cannot be converted to Scalar")
        return self.dequantize().item()

    def __repr__(self, *, tensor_contents=None) -> str:
        from ..._printing import PRINT_OPTS, _add_suffixes, _body
        a = _SLOT.__get__(self)
        d = self.__dict__
        suffixes = [f"size={tuple(a.shape)}", f"dtype={d['_qdtype']!r}",
                    f"quantization_scheme={d['_qscheme']!r}"]
        if d["_qaxis"] is None:
            suffixes += [f"scale={d['_qscale']!r}", f"zero_point={d['_qzp']!r}"]
        else:
            suffixes += [f"scale={self.q_per_channel_scales()!r}",
                         f"zero_point={self.q_per_channel_zero_points()!r}",
                         f"axis={d['_qaxis']}"]
        body = _body(self.dequantize().numpy(), "f") if a.size else "[]"
        return _add_suffixes("tensor(" + body, suffixes, PRINT_OPTS.linewidth)

    __str__ = __repr__

    # ----- conversions torch refuses
    def numpy(self, *, force: bool = False):
        raise TypeError(f"Got unsupported ScalarType {self.dtype.scalar_name}")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"Got unsupported ScalarType {self.dtype.scalar_name}")

    def tolist(self):
        raise RuntimeError("load_scalar: invalid type")

    def to(self, *args, **kwargs):
        from ..._factories import parse_to
        kwargs.pop("memory_format", None)
        dtype, copy = parse_to(args, kwargs)
        if dtype is None or dtype is self.dtype:
            return self.clone() if copy else self
        raise RuntimeError("Creation of quantized tensor requires quantized dtype like "
                           "torch.quint8")

    def _cast(self, *args, **kwargs):
        raise RuntimeError("Creation of quantized tensor requires quantized dtype like "
                           "torch.quint8")

    float = double = half = long = int = short = char = byte = bool = bfloat16 = _cast

    def cpu(self, memory_format=None):
        return self

    # ----- the ops with quantized kernels: on the integers, qparams kept
    def _rewrap(self, data: np.ndarray) -> QTensor:
        _per_tensor_only(self, "this view")
        return _like(self, data)

    def detach(self) -> QTensor:
        return _like(self, _SLOT.__get__(self))

    def clone(self, memory_format=None) -> QTensor:
        return _like(self, _SLOT.__get__(self).copy())

    def contiguous(self, memory_format=None) -> QTensor:
        a = _SLOT.__get__(self)
        return self if a.flags.c_contiguous else _like(self, np.ascontiguousarray(a))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        new = self.clone()
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol):
        d = self.__dict__
        return (_new, (_SLOT.__get__(self).copy(), d["_qdtype"], d["_qscheme"], d["_qscale"],
                       d["_qzp"], d["_qaxis"]))

    def _int_view(self) -> Tensor:
        return Tensor._wrap(_SLOT.__get__(self))

    def view(self, *shape) -> QTensor:
        return self._rewrap(self._int_view().view(*shape)._data)

    def reshape(self, *shape) -> QTensor:
        return self._rewrap(self._int_view().reshape(*shape)._data)

    def flatten(self, start_dim=0, end_dim=-1) -> QTensor:
        return self._rewrap(self._int_view().flatten(start_dim, end_dim)._data)

    def transpose(self, dim0, dim1) -> QTensor:
        return self._rewrap(self._int_view().transpose(dim0, dim1)._data)

    def permute(self, *dims) -> QTensor:
        return self._rewrap(self._int_view().permute(*dims)._data)

    def t(self) -> QTensor:
        return self._rewrap(self._int_view().t()._data)

    def squeeze(self, *dim) -> QTensor:
        return self._rewrap(self._int_view().squeeze(*dim)._data)

    def unsqueeze(self, dim) -> QTensor:
        return self._rewrap(self._int_view().unsqueeze(dim)._data)

    def __getitem__(self, key) -> QTensor:
        return self._rewrap(self._int_view()[key]._data)

    def relu(self) -> QTensor:
        """Quantized relu: the integers clamped below at the zero point."""
        a = _SLOT.__get__(self)
        _, z = self._qparams_along(a.ndim)
        return _like(self, np.maximum(a, np.asarray(z).astype(a.dtype)))

    def relu_(self) -> QTensor:
        a = _SLOT.__get__(self)
        _, z = self._qparams_along(a.ndim)
        np.maximum(a, np.asarray(z).astype(a.dtype), out=a)
        return self

    def __eq__(self, other):
        if isinstance(other, QTensor):
            return self.dequantize() == other.dequantize()
        return self.dequantize() == other

    __hash__ = Tensor.__hash__

    def equal(self, other) -> bool:
        """Whether ``other`` is a quantized tensor with the same qparams and integers."""
        if not isinstance(other, QTensor):
            return False
        a, b = self.__dict__, other.__dict__
        if a["_qdtype"] is not b["_qdtype"] or a["_qscheme"] is not b["_qscheme"]:
            return False
        if not np.array_equal(np.asarray(a["_qscale"]), np.asarray(b["_qscale"])) or \
                not np.array_equal(np.asarray(a["_qzp"]), np.asarray(b["_qzp"])):
            return False
        x, y = _SLOT.__get__(self), _SLOT.__get__(other)
        return x.shape == y.shape and bool(np.array_equal(x, y))

    def _no_kernel(name):
        def method(self, *args, **kwargs):
            raise quantized_backend_error(name)
        return method

    __add__ = __radd__ = __iadd__ = _no_kernel("aten::add.out")
    __sub__ = __rsub__ = __isub__ = _no_kernel("aten::sub.out")
    __truediv__ = __rtruediv__ = _no_kernel("aten::div.out")
    __matmul__ = __rmatmul__ = _no_kernel("aten::mm.out")
    __neg__ = _no_kernel("aten::neg.out")
    exp = _no_kernel("aten::exp.out")
    sum = _no_kernel("aten::sum.IntList_out")

    def __mul__(self, other):
        raise RuntimeError("empty_strided not supported on quantized tensors yet see "
                           "https://github.com/pytorch/pytorch/issues/74540")

    __rmul__ = __imul__ = __mul__
    del _no_kernel


QTensor.__name__ = QTensor.__qualname__ = "Tensor"
QTensor.__module__ = "ember"


def _warn_deprecated() -> None:
    if not _warned[0]:
        _warned[0] = True
        from ..._errors import internal, user_stacklevel
        warnings.warn(internal(_DEPRECATED, "aten/src/ATen/quantized/Quantizer.cpp:111"),
                      UserWarning, stacklevel=user_stacklevel())


def _float_input(input: Tensor) -> np.ndarray:
    if not isinstance(input, Tensor):
        raise TypeError("quantize_per_tensor(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(input).__name__}")
    if input.dtype is not D.float32:
        raise RuntimeError(f"Quantize only works on Float Tensor, got {input.dtype.scalar_name}")
    return input.detach()._data


def quantize_per_tensor(input, scale, zero_point, dtype) -> QTensor:
    """``input`` (float32) quantized with one ``scale`` and ``zero_point``; a list of tensors
    gives a list of quantized tensors.

    >>> import ember
    >>> ember.quantize_per_tensor(ember.tensor([0.5, -1.0]), 0.1, 0, ember.qint8)
    tensor([ 0.5000, -1.0000], size=(2,), dtype=torch.qint8,
           quantization_scheme=torch.per_tensor_affine, scale=0.1, zero_point=0)
    """
    if isinstance(input, (list, tuple)):
        return [quantize_per_tensor(t, float(s), int(z), dtype)
                for t, s, z in zip(input, scale, zero_point)]
    if dtype not in RANGES:
        raise RuntimeError("Creation of quantized tensor requires quantized dtype like "
                           "torch.quint8")
    scale = float(scale.item() if isinstance(scale, Tensor) else scale)
    zero_point = int(zero_point.item() if isinstance(zero_point, Tensor) else zero_point)
    x = _float_input(input)
    _warn_deprecated()
    lo, hi, _ = RANGES[dtype]
    if zero_point < lo:
        raise RuntimeError(f"quantize_tensor_per_tensor_affine zero_point {zero_point} is "
                           "below lower bound.")
    if zero_point > hi:
        raise RuntimeError(f"quantize_tensor_per_tensor_affine zero_point {zero_point} is "
                           "above upper bound.")
    fused = dtype in (D.qint8, D.quint8)
    q = quantize_array(x, scale, zero_point, dtype, fused)
    return _new(q, dtype, per_tensor_affine, scale, zero_point)


def quantize_per_channel(input, scales, zero_points, axis: int, dtype) -> QTensor:
    """``input`` (float32) quantized with ``scales[i]`` and ``zero_points[i]`` along ``axis``."""
    if dtype not in RANGES:
        raise RuntimeError("Creation of quantized tensor requires quantized dtype like "
                           "torch.quint8")
    x = _float_input(input)
    _warn_deprecated()
    if not 0 <= axis < max(x.ndim, 1):
        from ..._ops.util import norm_dim
        axis = norm_dim(axis, x.ndim)
    s = np.asarray(scales.detach()._data if isinstance(scales, Tensor) else scales, np.float64)
    zsrc = zero_points.detach()._data if isinstance(zero_points, Tensor) else zero_points
    z = np.asarray(zsrc)
    if s.shape[0] != x.shape[axis]:
        raise RuntimeError(f"length of scales must equal to channel, expected {x.shape[axis]} "
                           f"got, {s.shape[0]}")
    shape = [1] * x.ndim
    shape[axis] = -1
    float_zp = z.dtype.kind == "f"
    if float_zp:
        q = _quantize_float_qparams(x, s.reshape(shape), z.reshape(shape), dtype)
        scheme = per_channel_affine_float_qparams
    else:
        q = quantize_array(x, s.reshape(shape), z.reshape(shape), dtype, fused=False)
        scheme = per_channel_affine
        z = z.astype(np.int64)
    return _new(q, dtype, scheme, s, z, axis)


def _quantize_float_qparams(x, s, z, dtype) -> np.ndarray:
    """Quantization with float zero points (embedding weights): ``round(x / s + z)``."""
    lo, hi, store = RANGES[dtype]
    inv = (_F32(1) / s.astype(_F32)).astype(_F32)
    r = np.rint((x * inv + z.astype(_F32)).astype(_F32))
    return np.clip(r, lo, hi).astype(store)


def dequantize(input=None, *, tensors=None):
    """The real values of a quantized tensor (a plain tensor comes back as float32 unchanged);
    a list of tensors (or ``tensors=``) gives a list (a tuple)."""
    if tensors is not None:
        return tuple(t.dequantize() for t in tensors)
    if isinstance(input, (list, tuple)):
        return [dequantize(t) for t in input]
    return input.dequantize()


def int_repr(tensor: QTensor) -> Tensor:
    """The integers of a quantized tensor."""
    return tensor.int_repr()


def _choose_qparams_per_tensor(input: Tensor, reduce_range: bool = False):
    """The (scale, zero point) dynamic quantization would give ``input`` as quint8."""
    x = input.detach()._data
    mn, mx = (float(x.min()), float(x.max())) if x.size else (0.0, 0.0)
    return choose_qparams(mn, mx, 0, 255, reduce_range)
