"""MultiheadAttention and TransformerEncoderLayer, composed from ember ops.

Parameters, their registration and initialisation order are torch's (``in_proj_weight``
xavier-uniform after ``out_proj`` was built as a Linear; biases zeroed), so seeded
construction and ``state_dict`` keys match. The attention is computed with ``matmul``,
``softmax`` and ``dropout`` (node names are those of the pieces).
"""

from __future__ import annotations

import math

from ... import _factories as Fac
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .activation import GELU, ReLU  # noqa: F401
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear (torch's name for MultiheadAttention's output projection)."""


def _ember():
    import ember
    return ember


class MultiheadAttention(Module):
    """Multi-head scaled dot-product attention (same embed dim for query, key, value)."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim=None, vdim=None,
                 batch_first: bool = False, device=None, dtype=None) -> None:
        super().__init__()
        if add_bias_kv or add_zero_attn or (kdim not in (None, embed_dim)) or (
                vdim not in (None, embed_dim)):
            raise NotImplementedError("MultiheadAttention: add_bias_kv, add_zero_attn, kdim, "
                                      "vdim")
        self.embed_dim = embed_dim
        self.kdim = self.vdim = embed_dim
        self._qkv_same_embed_dim = True
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.in_proj_weight = Parameter(Fac.empty((3 * embed_dim, embed_dim), dtype=dtype))
        self.register_parameter("q_proj_weight", None)
        self.register_parameter("k_proj_weight", None)
        self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(Fac.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        init.xavier_uniform_(self.in_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask=None,
                need_weights: bool = True, attn_mask=None, average_attn_weights: bool = True,
                is_causal: bool = False):
        unbatched = query.ndim == 2
        if unbatched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        tgt, n, e = query.shape
        src = key.shape[0]
        h, d = self.num_heads, self.head_dim
        w, b = self.in_proj_weight, self.in_proj_bias
        bs = [None] * 3 if b is None else [b.narrow(0, i * e, e) for i in range(3)]
        q = F.linear(query, w.narrow(0, 0, e), bs[0])
        k = F.linear(key, w.narrow(0, e, e), bs[1])
        v = F.linear(value, w.narrow(0, 2 * e, e), bs[2])
        # (L, N, E) -> (N*H, L, D)
        q = q.reshape(tgt, n * h, d).transpose(0, 1)
        k = k.reshape(src, n * h, d).transpose(0, 1)
        v = v.reshape(src, n * h, d).transpose(0, 1)
        scores = q.matmul(k.transpose(1, 2)) * (1.0 / math.sqrt(d))
        mask = _merge_masks(attn_mask, key_padding_mask, n, h, tgt, src, scores.dtype)
        if mask is not None:
            scores = scores + mask
        attn = F.softmax(scores, -1)
        if self.dropout > 0.0 and self.training:
            attn = F.dropout(attn, self.dropout)
        out = attn.matmul(v)                                     # (N*H, L, D)
        out = out.transpose(0, 1).reshape(tgt * n, e)
        out = F.linear(out, self.out_proj.weight, self.out_proj.bias).view(tgt, n, e)
        if unbatched:
            out = out.squeeze(1)
        elif self.batch_first:
            out = out.transpose(0, 1)
        if not need_weights:
            return out, None
        weights = attn.view(n, h, tgt, src)
        if average_attn_weights:
            weights = weights.mean(1)
        if unbatched:
            weights = weights.squeeze(0)
        return out, weights


def _merge_masks(attn_mask, key_padding_mask, n, h, tgt, src, dtype):
    """One additive float mask of shape (N*H, L, S) (or broadcastable), or None."""
    em = _ember()
    mask = None
    if attn_mask is not None:
        m = attn_mask
        if m.dtype is em.bool:
            m = em.where(m, em.full(m.shape, float("-inf"), dtype=dtype),
                         em.zeros(m.shape, dtype=dtype))
        mask = m if m.ndim == 3 else m.unsqueeze(0)
    if key_padding_mask is not None:
        k = key_padding_mask
        if k.dtype is em.bool:
            k = em.where(k, em.full(k.shape, float("-inf"), dtype=dtype),
                         em.zeros(k.shape, dtype=dtype))
        k = k.view(n, 1, 1, src).expand(n, h, 1, src).reshape(n * h, 1, src)
        mask = k if mask is None else mask + k
    return mask


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward block, each with residual and LayerNorm."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            if activation not in ("relu", "gelu"):
                raise RuntimeError(f"activation should be relu/gelu, not {activation}")
            activation = F.relu if activation == "relu" else F.gelu
        self.activation = activation

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)

    def forward(self, src: Tensor, src_mask=None, src_key_padding_mask=None,
                is_causal: bool = False) -> Tensor:
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
            x = self.norm2(x + self._ff_block(x))
        return x
