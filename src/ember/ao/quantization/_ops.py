"""The quantized CPU kernels of the tensor ops a quantized model meets between its layers:
pooling, ``cat`` and ``flatten``. Each op of ember's that has one hands a quantized input here.

Max pooling and views work on the integers themselves (a max of integers is the integer of
the max); average pooling sums the integers less the zero point and requantizes the sum with
ATen's scalar ``quantize_val`` (``round(sum * (1/scale) + zero_point)``, each step in
float32); ``cat`` dequantizes, concatenates and quantizes again with the first input's
qparams, as ATen's does.
"""

from __future__ import annotations

import numpy as np

from ..._tensor import Tensor
from ._tensor import _SLOT, _like, _new, _per_tensor_only, quantize_array

_F32 = np.float32


def _integers(q) -> Tensor:
    """The integers of ``q`` as an exact float32 tensor (for the float pooling kernels)."""
    return Tensor._wrap(_SLOT.__get__(q).astype(_F32))


def max_pool(q, run):
    """``run(tensor)`` (a float max pooling returning values and indices) over ``q``'s
    integers; the values back as a quantized tensor with ``q``'s qparams."""
    out, idx = run(_integers(q))
    return _like(q, out._data.astype(_SLOT.__get__(q).dtype)), idx


def _requantize_sums(q, acc: np.ndarray, count: np.ndarray, divisor: np.ndarray):
    """``q``'s window sums ``acc`` over ``count`` elements (of ``divisor``) as quantized
    integers with ``q``'s qparams."""
    from ._tensor import RANGES
    d = q.__dict__
    zp = d["_qzp"]
    lo, hi, store = RANGES[d["_qdtype"]]
    acc = acc - count * zp
    s = _F32(d["_qscale"])
    multiplier = (s / s / divisor.astype(_F32)).astype(_F32)
    scale = (_F32(1) / multiplier).astype(_F32)
    inv = (_F32(1) / scale).astype(_F32)
    t = ((acc.astype(_F32) * inv).astype(_F32) + _F32(zp)).astype(_F32)
    return np.clip(np.rint(t), lo, hi).astype(store)


def _windows(n: int, out: int, starts, ends):
    return [(starts(i), ends(i)) for i in range(out)]


def _pool_sums(a: np.ndarray, rows, cols):
    """Sums and element counts of ``a``'s (..., H, W) windows ``rows`` x ``cols``."""
    acc = np.zeros((*a.shape[:-2], len(rows), len(cols)), np.int64)
    count = np.zeros((len(rows), len(cols)), np.int64)
    wide = a.astype(np.int64)
    for i, (h0, h1) in enumerate(rows):
        for j, (w0, w1) in enumerate(cols):
            acc[..., i, j] = wide[..., max(h0, 0):h1, max(w0, 0):w1].sum((-1, -2))
            count[i, j] = (h1 - max(h0, 0)) * (w1 - max(w0, 0))
    return acc, count


def adaptive_avg_pool2d(q, size):
    """Quantized adaptive average pooling over the last two dims (qparams kept)."""
    _per_tensor_only(q, "adaptive_avg_pool2d")
    a = _SLOT.__get__(q)
    (h, w), (oh, ow) = a.shape[-2:], size
    rows = _windows(h, oh, lambda i: i * h // oh, lambda i: -(-(i + 1) * h // oh))
    cols = _windows(w, ow, lambda j: j * w // ow, lambda j: -(-(j + 1) * w // ow))
    acc, count = _pool_sums(a, rows, cols)
    return _like(q, _requantize_sums(q, acc, count, count))


def avg_pool2d(q, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """Quantized average pooling over the last two dims (qparams kept)."""
    _per_tensor_only(q, "avg_pool2d")
    if ceil_mode:
        raise NotImplementedError("quantized avg_pool2d with ceil_mode=True is not supported")
    a = _SLOT.__get__(q)
    (h, w), (kh, kw), (sh, sw), (ph, pw) = a.shape[-2:], kernel, stride, padding
    oh, ow = (h + 2 * ph - kh) // sh + 1, (w + 2 * pw - kw) // sw + 1
    rows = _windows(h, oh, lambda i: i * sh - ph, lambda i: min(i * sh - ph + kh, h))
    cols = _windows(w, ow, lambda j: j * sw - pw, lambda j: min(j * sw - pw + kw, w))
    acc, count = _pool_sums(a, rows, cols)
    if divisor_override:
        divisor = np.full_like(count, divisor_override)
    elif count_include_pad:
        divisor = np.array([[(min(h0 + kh, h + ph) - h0) * (min(w0 + kw, w + pw) - w0)
                             for (w0, _) in cols] for (h0, _) in rows], np.int64)
    else:
        divisor = count
    return _like(q, _requantize_sums(q, acc, count, divisor))


def cat(tensors, dim: int, scale=None, zero_point=None):
    """Quantized concatenation: the inputs dequantized, joined and quantized with ``scale``
    and ``zero_point`` (the first input's by default)."""
    from ..._ops.shape import cat as float_cat
    first = tensors[0]
    _per_tensor_only(first, "cat")
    d = first.__dict__
    scale = d["_qscale"] if scale is None else float(scale)
    zero_point = d["_qzp"] if zero_point is None else int(zero_point)
    joined = float_cat([t.dequantize() for t in tensors], dim)._data
    fused = d["_qdtype"].name in ("qint8", "quint8")
    return _new(quantize_array(joined, scale, zero_point, d["_qdtype"], fused), d["_qdtype"],
                d["_qscheme"], scale, zero_point)


def _chunks(numel: int):
    """torch's ``parallel_for`` split of a flat loop of ``numel`` elements between threads."""
    from ..._ops._exact import GRAIN, parallel_threads
    nt = parallel_threads(numel, GRAIN)
    size = -(-numel // nt) if numel else 0
    return [(b, min(numel, b + size)) for b in range(0, numel, size or 1)]


def _binary(a, b, name: str):
    for t in (a, b):
        _per_tensor_only(t, name)
    x, y = _SLOT.__get__(a), _SLOT.__get__(b)
    if x.shape != y.shape:
        raise NotImplementedError(f"quantized {name} of tensors of different shapes is not "
                                  "supported")
    return x.reshape(-1).astype(np.int64), y.reshape(-1).astype(np.int64)


def add(a, b, scale: float, zero_point: int, relu: bool = False):
    """``quantized::add`` (``add_relu``): each input dequantized, summed in float32 and
    quantized with ``scale`` and ``zero_point``. Runs of 64 take ATen's vector path
    (dequantized by ``fma(scale, q, -zero_point * scale)``, quantized by
    ``round(x * (1/scale)) + zero_point``), the rest of each thread's range its scalar one."""
    from ..._ops._fused import fma
    from ._tensor import RANGES
    x, y = _binary(a, b, "add")
    da, db = a.__dict__, b.__dict__
    lo, hi, store = RANGES[da["_qdtype"]]
    inv = _F32(1) / _F32(scale)
    out = np.empty(x.shape, np.int64)

    def vec(q, d):
        s = _F32(d["_qscale"])
        n = q.shape[0]
        return fma(q.astype(_F32), np.full(n, s), np.full(n, _F32(s * _F32(-d["_qzp"]))))

    def scalar(q, d):
        return (_F32(d["_qscale"]) * (q - d["_qzp"]).astype(_F32)).astype(_F32)
    for b0, b1 in _chunks(x.shape[0]):
        v = b0 + (b1 - b0) // 64 * 64
        c = (vec(x[b0:v], da) + vec(y[b0:v], db)).astype(_F32)
        if relu:
            c = np.maximum(c, _F32(0))
        out[b0:v] = np.rint((c * inv).astype(_F32)) + zero_point
        c = (scalar(x[v:b1], da) + scalar(y[v:b1], db)).astype(_F32)
        if relu:
            c = np.maximum(c, _F32(0))
        out[v:b1] = np.rint(((c * inv).astype(_F32) + _F32(zero_point)).astype(_F32))
    q = np.clip(out, lo, hi).astype(store).reshape(_SLOT.__get__(a).shape)
    return _new(q, da["_qdtype"], da["_qscheme"], float(scale), int(zero_point))


def mul(a, b, scale: float, zero_point: int, relu: bool = False):
    """``quantized::mul``: the product of the zero-point-free integers, requantized by
    ``round(c * (scale_a * scale_b / scale)) + zero_point`` in float32."""
    from ._tensor import RANGES
    x, y = _binary(a, b, "mul")
    da, db = a.__dict__, b.__dict__
    lo, hi, store = RANGES[da["_qdtype"]]
    c = (x - da["_qzp"]) * (y - db["_qzp"])
    mult = _F32(_F32(_F32(da["_qscale"]) * _F32(db["_qscale"])) * (_F32(1) / _F32(scale)))
    out = np.rint((c.astype(_F32) * mult).astype(_F32)) + zero_point
    if relu:
        out = np.maximum(out, zero_point)
    q = np.clip(out, lo, hi).astype(store).reshape(_SLOT.__get__(a).shape)
    return _new(q, da["_qdtype"], da["_qscheme"], float(scale), int(zero_point))
