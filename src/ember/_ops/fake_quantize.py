"""Fake quantization, the quantize-dequantize round trip of quantization-aware training:
``fake_quantize_per_tensor_affine`` and ``fake_quantize_per_channel_affine``.

Each value is rounded to its quantization level, ``zero_point + nearbyint(x * (1 / scale))``
(``1 / scale`` and the product in float, as torch's cachemask kernels), clamped to
``[quant_min, quant_max]`` and mapped back, ``(q - zero_point) * scale``, in the input's
dtype. The gradient is the straight-through one: ``grad`` where the unclamped level lay
inside ``[quant_min, quant_max]``, else 0 (the mask torch saves; here it is recomputed from
the saved input, which gives the same mask).
"""

from __future__ import annotations

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor
from .registry import NONE, expose, op

_F32 = np.dtype(np.float32)
_FLOAT_TYPES = (D.float32, D.float64, D.float16, D.bfloat16)
_QMIN_QMAX = "`quant_min` should be less than or         equal to `quant_max`."
_ZP_RANGE = "`zero_point` must be between `quant_min` and `quant_max`."


def _levels(x, scale, zero_point):
    """The unclamped levels ``zero_point + nearbyint(x * inv_scale)``, in float (float64
    for a float64 input), ``scale`` and ``zero_point`` numbers or arrays along ``x``."""
    inv = _F32.type(1) / np.asarray(scale, _F32)
    wide = x.dtype == np.float64
    prod = x * inv if wide else x.astype(_F32) * inv
    with np.errstate(invalid="ignore"):
        return np.rint(prod) + np.asarray(zero_point, prod.dtype)


def _clamped(q, quant_min, quant_max):
    """``fmin(fmax(q, quant_min), quant_max)`` (nan goes to ``quant_min``)."""
    return np.fmin(np.fmax(q, float(quant_min)), float(quant_max))


def _per_tensor(self, scale, zero_point, quant_min, quant_max):
    sc = _F32.type(scale)
    q = _clamped(_levels(self, sc, zero_point), quant_min, quant_max)
    # (q - zero_point) * scale in float, stored in the input's dtype
    return ((q - zero_point).astype(_F32) * sc).astype(self.dtype)


def _per_tensor_mask(self, scale, zero_point, quant_min, quant_max):
    q = _levels(self._data, _F32.type(scale), zero_point)
    return Tensor._wrap(((q >= quant_min) & (q <= quant_max)).astype(self._data.dtype))


@op("FakeQuantizePerTensorAffineCachemaskBackward0", name="_fake_quantize_per_tensor",
    method=False, function=False, promote=NONE, tensors=("self",),
    self=lambda grad, self, scale, zero_point, quant_min, quant_max: grad * _per_tensor_mask(
        self, scale, zero_point, quant_min, quant_max))
def _fake_quantize_per_tensor(self, scale, zero_point, quant_min, quant_max):
    return _per_tensor(self, scale, zero_point, quant_min, quant_max)


@op("FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0",
    name="_fake_quantize_per_tensor_qparams", method=False, function=False, promote=NONE,
    tensors=("self",),
    self=lambda grad, self, scale, zero_point, quant_min, quant_max: grad * _per_tensor_mask(
        self, scale, zero_point, quant_min, quant_max))
def _fake_quantize_per_tensor_qparams(self, scale, zero_point, quant_min, quant_max):
    return _per_tensor(self, scale, zero_point, quant_min, quant_max)


def _check_input(input: Tensor, kernel: str) -> None:
    if input.dtype not in _FLOAT_TYPES:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype.scalar_name}'")


@expose(method=False)
def fake_quantize_per_tensor_affine(input: Tensor, scale, zero_point, quant_min: int,
                                    quant_max: int) -> Tensor:
    """``(clamp(nearbyint(input / scale) + zero_point, quant_min, quant_max) - zero_point) *
    scale``, with the straight-through gradient; ``scale`` a number or a one-element float
    tensor, ``zero_point`` an int or a one-element tensor.

    >>> torch.fake_quantize_per_tensor_affine(torch.tensor([0.26, -1.0]), 0.1, 0, -8, 7)
    tensor([ 0.3000, -0.8000])
    """
    if isinstance(scale, Tensor):
        sc, zp = scale.item(), zero_point.item() if isinstance(zero_point, Tensor) \
            else zero_point
        if quant_min > quant_max:
            raise RuntimeError(_QMIN_QMAX)
        _check_input(input, "fake_quantize_tensor_cachemask_kernel_type_handling")
        return _fake_quantize_per_tensor_qparams(input, float(sc), int(zp), quant_min,
                                                 quant_max)
    if quant_min > quant_max:
        raise RuntimeError(_QMIN_QMAX)
    if not quant_min <= zero_point <= quant_max:
        raise RuntimeError(_ZP_RANGE)
    _check_input(input, "fake_quantize_tensor_cachemask_kernel_type_handling")
    return _fake_quantize_per_tensor(input, scale, zero_point, quant_min, quant_max)


def _along(a, axis, ndim):
    """A 1-d per-channel array shaped to broadcast along ``axis`` of an ``ndim``-d input."""
    return a.reshape((-1,) + (1,) * (ndim - 1 - axis))


def _channel_levels(x, scale, zero_point, axis):
    """The unclamped levels and the zero points of a per-channel quantization: an integer
    zero point is added after rounding, a float one before (``lrintf``); a level that is
    not a finite int64 is INT64_MIN, as the kernel's conversion to an integer makes it."""
    sc = _along(scale.astype(_F32), axis, x.ndim)
    if zero_point.dtype.kind == "f":
        zp = _along(zero_point.astype(_F32), axis, x.ndim)
        inv = _F32.type(1) / sc
        with np.errstate(invalid="ignore", over="ignore"):
            q = np.rint(zp + x.astype(_F32) * inv)
    else:
        zp = _along(zero_point.astype(np.int64), axis, x.ndim)
        q = _levels(x, sc, zp.astype(np.int32))
    with np.errstate(invalid="ignore"):
        q = np.where(np.abs(q) < 2.0 ** 63, q, float(np.iinfo(np.int64).min))
    return q, zp, sc


def _per_channel_mask(self, scale, zero_point, axis, quant_min, quant_max):
    q, _, _ = _channel_levels(self._data, scale._data, zero_point._data, axis)
    return Tensor._wrap(((q >= quant_min) & (q <= quant_max)).astype(self._data.dtype))


@op("FakeQuantizePerChannelAffineCachemaskBackward0", name="_fake_quantize_per_channel",
    method=False, function=False, promote=NONE, tensors=("self",),
    self=lambda grad, self, scale, zero_point, axis, quant_min, quant_max: grad *
    _per_channel_mask(self, scale, zero_point, axis, quant_min, quant_max))
def _fake_quantize_per_channel(self, scale, zero_point, axis, quant_min, quant_max):
    q, zp, sc = _channel_levels(self, scale._data, zero_point._data, axis)
    # (q - zero_point) * scale in double, as the kernel's fmin/fmax promote it
    out = (_clamped(q, quant_min, quant_max).astype(np.float64) - zp) * sc.astype(np.float64)
    return out.astype(self.dtype)


@expose(method=False)
def fake_quantize_per_channel_affine(input: Tensor, scale: Tensor, zero_point: Tensor,
                                     axis: int, quant_min: int, quant_max: int) -> Tensor:
    """Fake quantization with one ``scale`` and ``zero_point`` per slice of ``input`` along
    ``axis`` (``scale`` float32, ``zero_point`` int32 or float), with the straight-through
    gradient.

    >>> x = torch.tensor([[0.26, -1.0], [0.26, -1.0]])
    >>> torch.fake_quantize_per_channel_affine(x, torch.tensor([0.1, 0.5]),
    ...                                        torch.tensor([0, 0], dtype=torch.int32), 0, -8, 7)
    tensor([[ 0.3000, -0.8000],
            [ 0.5000, -1.0000]])
    """
    if scale.dtype not in (D.float32, D.bfloat16):
        raise RuntimeError(f"Scale must be Float or BFloat16, found {scale.dtype.scalar_name}")
    if zero_point.dtype not in (D.int32, D.float32, D.float16):
        raise RuntimeError("Zero-point must be Int32, Float or Half, found "
                           f"{zero_point.dtype.scalar_name}")
    if scale.ndim != 1:
        raise RuntimeError("scale should be a 1-D tensor")
    if zero_point.ndim != 1:
        raise RuntimeError("zero point should be a 1-D tensor")
    if scale.numel() != zero_point.numel():
        raise RuntimeError("scale and zero-point need to have the same dimensions")
    if scale.numel() != input.size(axis):
        raise RuntimeError("dimensions of scale and zero-point are not consistent with input "
                           "tensor")
    if quant_min > quant_max:
        raise RuntimeError(_QMIN_QMAX)
    zp = zero_point._data
    if zp.dtype.kind != "f" and zp.size and (zp.min() < quant_min or zp.max() > quant_max):
        raise RuntimeError(_ZP_RANGE)
    if not 0 <= axis <= input.ndim:
        raise RuntimeError("`axis` must be between 0 and number of dimensions of input")
    _check_input(input, "fake_quantize_channel_cachemask_cpu_type_handling")
    return _fake_quantize_per_channel(input, scale, zero_point, axis, quant_min, quant_max)
