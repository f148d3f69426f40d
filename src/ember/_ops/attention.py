"""Scaled dot-product attention as torch's CPU flash kernel: one op, its own backward.

torch 2.13 runs ``F.scaled_dot_product_attention`` on the CPU through
``_scaled_dot_product_flash_attention_for_cpu`` whenever its conditions hold (4-d inputs of
one floating dtype with one head size, unit last strides, no dropout, a 2-d or 4-d mask that
needs no grad, the flash backend enabled); otherwise through the math composition
(``functional.py``). The flash op records one node, ``ScaledDotProductFlashAttentionForCpu
Backward0``, whose formulas recompute the attention probabilities from the saved inputs, as
the flash backward does, instead of keeping them.

Which backends may run is ``backends.cuda``'s flags (``enable_flash_sdp`` …), which
``nn.attention.sdpa_kernel`` sets, as in torch, where they steer the CPU kernels too.
"""

from __future__ import annotations

import math

from .._device import xp
from ..backends import cuda as _flags
from .nn import _safe_softmax, _softmax_np
from .registry import NONE, op


def flash_applies(query, key, value, attn_mask, dropout_p, enable_gqa) -> bool:
    """torch's ``use_flash_attention_cpp``: whether the CPU flash kernel takes these inputs."""
    if not _flags._sdp["flash"] or dropout_p > 0.0:
        return False
    if not (query.ndim == key.ndim == value.ndim == 4):
        return False
    (b, h, lq, e), (bk, hk, s, ek), (bv, hv, sv, ev) = query.shape, key.shape, value.shape
    if not (e == ek == ev and b == bk == bv and s == sv and lq and s and e):
        return False
    if hk != hv or (h != hk and not (enable_gqa and hk and h % hk == 0)):
        return False
    if any(t.stride(-1) != 1 for t in (query, key, value)):
        return False
    if attn_mask is not None:
        m = attn_mask
        if m.requires_grad or m.ndim not in (2, 4) or m.shape[-2] not in (lq, 1) \
                or m.shape[-1] not in (s, 1):
            return False
        if m.ndim == 4 and (m.shape[0] not in (1, b) or m.shape[1] not in (1, h)):
            return False
    return True


def _repeat_np(a, rep):
    return a if rep == 1 else xp.repeat(a, rep, axis=1)


def _grouped(g, rep):
    """A gradient for the repeated key/value heads summed back onto each shared head."""
    if rep == 1:
        return g
    b, h, s, e = g.shape
    return g.reshape(b, h // rep, rep, s, e).sum(2)


def _probs(query, key, attn_mask, scale, rep):
    k = key if rep == 1 else key.repeat_interleave(rep, 1)
    scores = query.matmul(k.transpose(-2, -1)) * scale
    if attn_mask is not None:
        scores = scores + attn_mask
    return _safe_softmax(scores, scores.ndim - 1)


def _dscores(grad, query, key, value, attn_mask, scale, rep):
    p = _probs(query, key, attn_mask, scale, rep)
    v = value if rep == 1 else value.repeat_interleave(rep, 1)
    dp = grad.matmul(v.transpose(-2, -1))
    return p * (dp - (dp * p).sum(-1, keepdim=True))


def _grad_query(grad, query, key, value, attn_mask, scale, rep):
    k = key if rep == 1 else key.repeat_interleave(rep, 1)
    return _dscores(grad, query, key, value, attn_mask, scale, rep).matmul(k) * scale


def _grad_key(grad, query, key, value, attn_mask, scale, rep):
    ds = _dscores(grad, query, key, value, attn_mask, scale, rep)
    return _grouped(ds.transpose(-2, -1).matmul(query) * scale, rep)


def _grad_value(grad, query, key, attn_mask, scale, rep):
    p = _probs(query, key, attn_mask, scale, rep)
    return _grouped(p.transpose(-2, -1).matmul(grad), rep)


@op("ScaledDotProductFlashAttentionForCpuBackward0",
    name="_scaled_dot_product_flash_attention_for_cpu", method=False, function=False,
    promote=NONE, tensors=("query", "key", "value", "attn_mask"),
    query=_grad_query, key=_grad_key, value=_grad_value)
def _flash(query, key, value, attn_mask, scale, rep):
    """``softmax(q @ kᵀ · scale + mask) @ v`` over 4-d (batch, heads, length, size) arrays;
    ``mask`` is additive (``-inf`` where masked) or None; rows masked everywhere give zeros."""
    k, v = _repeat_np(key, rep), _repeat_np(value, rep)
    scores = xp.matmul(query, k.swapaxes(-2, -1)) * query.dtype.type(scale)
    if attn_mask is not None:
        scores = scores + attn_mask
    p = _softmax_np(scores, -1)
    dead = xp.isneginf(scores).all(-1, keepdims=True)
    if dead.any():
        p = xp.where(dead, xp.zeros((), p.dtype), p)
    return xp.matmul(p.astype(query.dtype, copy=False), v)


def flash(query, key, value, attn_mask, scale, enable_gqa):
    """Run the flash op (``flash_applies`` said yes); ``attn_mask`` additive or None."""
    rep = query.shape[1] // key.shape[1] if enable_gqa else 1
    sc = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    return _flash(query, key, value, attn_mask, sc, rep)


def check_inputs(query, key, value, attn_mask) -> None:
    """torch's ``validate_sdpa_input`` errors on dtypes."""
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {query.dtype.cpp_name} key.dtype: "
                           f"{key.dtype.cpp_name} and value.dtype: {value.dtype.cpp_name} "
                           "instead.")
    if attn_mask is not None and attn_mask.dtype.name != "bool" \
            and attn_mask.dtype != query.dtype:
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {attn_mask.dtype.cpp_name} and  "
                           f"query.dtype: {query.dtype.cpp_name} instead.")


def check_math_enabled() -> None:
    """torch's errors when the math backend is off and the flash kernel does not apply."""
    if not _flags._sdp["math"]:
        if _flags._sdp["flash"]:
            raise RuntimeError("No available kernel.  Aborting execution.")
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This "
                           "is likely due to turning off both the math kernel and the fused "
                           "kernels.")
