# Models: the "(Beta) Implementing High-Performance Transformers with SDPA" tutorial's
# correctness parts: F.scaled_dot_product_attention vs a hand-written reference with is_causal,
# a boolean and an additive attn_mask, scale=, enable_gqa, dropout_p in train with a seed, and
# nn.MultiheadAttention with kdim/vdim (cross attention from a different-width memory).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
B, H, L, S, E = 2, 4, 5, 7, 8
q, k, v = torch.randn(B, H, L, E), torch.randn(B, H, S, E), torch.randn(B, H, S, E)


def ref_sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None):
    scale = 1 / math.sqrt(q.size(-1)) if scale is None else scale
    bias = torch.zeros(q.size(-2), k.size(-2))
    if is_causal:
        bias.masked_fill_(
            torch.ones(q.size(-2), k.size(-2), dtype=torch.bool).tril().logical_not(), float("-inf")
        )
    if attn_mask is not None:
        bias = (
            bias.masked_fill(attn_mask.logical_not(), float("-inf"))
            if attn_mask.dtype == torch.bool
            else bias + attn_mask
        )
    w = torch.softmax(q @ k.transpose(-2, -1) * scale + bias, -1)
    return w @ v


for kw in [{}, {"is_causal": True}, {"scale": 0.5}]:
    a = F.scaled_dot_product_attention(q, k, v, **kw)
    print(kw, a.shape, torch.allclose(a, ref_sdpa(q, k, v, **kw), atol=1e-6))
bmask = torch.rand(L, S) > 0.3
bmask[:, 0] = True
amask = torch.randn(B, 1, L, S)
print(
    torch.allclose(
        F.scaled_dot_product_attention(q, k, v, attn_mask=bmask),
        ref_sdpa(q, k, v, bmask),
        atol=1e-6,
    )
)
print(
    torch.allclose(
        F.scaled_dot_product_attention(q, k, v, attn_mask=amask),
        ref_sdpa(q, k, v, amask),
        atol=1e-6,
    )
)
kg, vg = k[:, :2], v[:, :2]
g = F.scaled_dot_product_attention(q, kg, vg, enable_gqa=True)
print(
    g.shape,
    torch.allclose(
        g, ref_sdpa(q, kg.repeat_interleave(2, 1), vg.repeat_interleave(2, 1)), atol=1e-6
    ),
)
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=bmask, is_causal=True)
except RuntimeError as e:
    print(str(e).splitlines()[0][:80])
torch.manual_seed(5)
d1 = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
torch.manual_seed(5)
d2 = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
print(torch.equal(d1, d2), torch.allclose(d1, ref_sdpa(q, k, v)))
mha = nn.MultiheadAttention(16, 2, kdim=6, vdim=10, batch_first=True)
print(mha.in_proj_weight, mha.k_proj_weight.shape, mha.v_proj_weight.shape, mha._qkv_same_embed_dim)
tgt, mem = torch.randn(B, L, 16), torch.randn(B, S, 6)
memv = torch.randn(B, S, 10)
out, w = mha(tgt, mem, memv)
print(out.shape, w.shape, w.sum(-1)[0])
out.sum().backward()
print(mha.k_proj_weight.grad.shape, mha.out_proj.weight.grad.abs().sum() > 0)
