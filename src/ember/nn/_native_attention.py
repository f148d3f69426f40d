"""torch's inference fast paths of ``nn.MultiheadAttention`` and
``nn.TransformerEncoderLayer``: ATen's ``_native_multi_head_attention`` and
``_transformer_encoder_layer_fwd``, which an eval-mode module takes when no gradient is
recorded (the modules check torch's conditions). They compute otherwise than the Python
slow path: the packed projection without its bias, then ``transform_bias_rescale_qkv``
(bias added, ``q`` scaled by ``1/sqrt(head_dim)`` in the input's type), ``bmm`` products and
ATen's masked softmax (``host_softmax``: the maximum over unmasked entries, ``exp`` of each
in the type, a double sum, times its reciprocal). (ATen's branch through
``scaled_dot_product_attention`` is not taken on the CPU: the fused-kernel choice it asks for
is not registered there.)
"""

from __future__ import annotations

import numpy as np

from .._ops import _libm
from .._tensor import Tensor
from . import functional as F


def masked_softmax(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """ATen's ``host_softmax<scalar_t, false, true>`` over the last dim of ``scores`` with the
    boolean ``mask`` (True: left out) broadcast to it; a row wholly masked gives nan."""
    mask = np.broadcast_to(mask, scores.shape)
    dt = scores.dtype
    big = np.where(mask, -np.inf, scores).max(-1, keepdims=True)
    big = np.where(np.isneginf(big), scores[..., :1], big)      # (all masked: the first)
    exp = _libm.float_fn("exp") if dt == np.float32 else _libm.double_fn("exp")
    with np.errstate(all="ignore"):
        z = exp((scores - big).astype(dt, copy=False))
        z = np.where(mask, dt.type(0), z)
        total = np.cumsum(z.astype(np.float64), axis=-1)[..., -1:]      # in order, double
        return (z.astype(np.float64) * (1.0 / total)).astype(dt)


def _softmax_with_mask(qkt: Tensor, mask: Tensor | None, mask_type) -> Tensor:
    """ATen's ``masked_softmax`` of the attention scores (B, H, T, S)."""
    if mask is None:
        return F.softmax(qkt, -1)
    m = (mask._data != 0) if mask.dtype.is_floating_point else mask._data.astype(bool)
    if mask_type == 1 and m.ndim == 2:                  # padding mask (B, S)
        m = m[:, None, None, :]
    return Tensor._wrap(masked_softmax(qkt._data, m))


def native_multi_head_attention(query: Tensor, key: Tensor, value: Tensor, embed_dim: int,
                                num_head: int, qkv_weight: Tensor, qkv_bias: Tensor,
                                proj_weight: Tensor, proj_bias: Tensor, mask=None,
                                need_weights: bool = True, average_attn_weights: bool = True,
                                mask_type=None):
    """``torch._native_multi_head_attention`` for self-attention (``query is key is
    value``, batch first): ``(output, weights or None)``."""
    B, T, D = query.shape
    dh = D // num_head
    qkv = query.matmul(qkv_weight.t())._data                            # (B, T, 3D), no bias
    b = qkv_bias._data
    dt = qkv.dtype.type
    inv_sqrt = dt(1.0 / float(np.sqrt(dt(dh))))

    def heads(i, scale=None):
        part = qkv[..., i * D:(i + 1) * D] + b[i * D:(i + 1) * D]
        if scale is not None:
            part = part * scale
        return Tensor._wrap(np.ascontiguousarray(
            part.reshape(B, T, num_head, dh).transpose(0, 2, 1, 3)))

    q, k, v = heads(0, inv_sqrt), heads(1), heads(2)
    qkt = q.view(B * num_head, T, dh).bmm(k.view(B * num_head, T, dh).transpose(2, 1))
    qkt = _softmax_with_mask(qkt.view(B, num_head, T, T), mask, mask_type)
    ctx = qkt.view(B * num_head, T, T).bmm(v.view(B * num_head, T, dh))
    ctx = ctx.view(B, num_head, T, dh).permute(0, 2, 1, 3).contiguous().view(B * T, D)
    out = F.linear(ctx, proj_weight, proj_bias).view(B, T, D)
    if not need_weights:
        return out, None
    if average_attn_weights:
        qkt = qkt.sum(1)
        qkt = qkt.div_(num_head)
    return out, qkt


def transformer_encoder_layer_fwd(src: Tensor, embed_dim: int, num_heads: int, attn,
                                  layer, use_gelu: bool, norm_first: bool, mask=None,
                                  mask_type=None) -> Tensor:
    """``torch._transformer_encoder_layer_fwd``: the native attention, ``x.add_(src)``, the
    layer norms and the feed-forward block (``addmm`` on the flattened tokens, ``relu_`` or
    ``gelu``), in ATen's order."""
    if src.numel() == 0:
        return src.clone()
    eps = layer.norm1.eps

    def norm(x, ln):
        return F.layer_norm(x, (embed_dim,), ln.weight, ln.bias, eps)

    x = norm(src, layer.norm1) if norm_first else src
    x = native_multi_head_attention(x, x, x, embed_dim, num_heads, attn.in_proj_weight,
                                    attn.in_proj_bias, attn.out_proj.weight,
                                    attn.out_proj.bias, mask, False, True, mask_type)[0]
    x = x.add_(src)
    if not norm_first:
        x = norm(x, layer.norm1)
    pre_ffn = x
    if norm_first:
        x = norm(x, layer.norm2)
    B, T = x.shape[:2]
    h = F.linear(x.reshape(B * T, embed_dim), layer.linear1.weight, layer.linear1.bias)
    h = F.gelu(h) if use_gelu else h.relu_()
    x = F.linear(h, layer.linear2.weight, layer.linear2.bias).view(B, T, -1)
    x = x.add_(pre_ffn)
    if not norm_first:
        x = norm(x, layer.norm2)
    return x
