# Models: cross-attention layers in multimodal code using nn.MultiheadAttention's rarer
# options: kdim/vdim different from embed_dim, add_bias_kv and add_zero_attn, batch_first,
# key_padding_mask (bool and float), need_weights with average_attn_weights=False, plus
# F.scaled_dot_product_attention with scale=, enable_gqa and a float mask, checked against a
# hand-written softmax(QK^T)V.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
B, Lq, Lk, E = 2, 3, 5, 8
text = torch.randn(B, Lq, E)
image = torch.randn(B, Lk, 6)
audio = torch.randn(B, Lk, 4)
mha = nn.MultiheadAttention(E, num_heads=2, kdim=6, vdim=4, batch_first=True)
print(mha)
print(sorted(n for n, _ in mha.named_parameters()))
print(
    mha._qkv_same_embed_dim,
    mha.q_proj_weight.shape,
    mha.k_proj_weight.shape,
    mha.v_proj_weight.shape,
)
pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
out, w = mha(text, image, audio, key_padding_mask=pad)
print(out.shape, w.shape)
print(w[0])
out_h, w_h = mha(text, image, audio, key_padding_mask=pad, average_attn_weights=False)
print(w_h.shape, torch.allclose(w_h.mean(1), w, atol=1e-6))
out_nw, w_none = mha(text, image, audio, need_weights=False)
print(w_none)
float_pad = torch.zeros(B, Lk).masked_fill(pad, float("-inf"))
out_f, _ = mha(text, image, audio, key_padding_mask=float_pad)
print("float mask same:", torch.allclose(out_f, out, atol=1e-6))

mha2 = nn.MultiheadAttention(E, 2, add_bias_kv=True, add_zero_attn=True)
print(mha2.bias_k.shape, mha2.bias_v.shape)
q = torch.randn(Lq, B, E)
o2, w2 = mha2(q, q, q)
print(o2.shape, w2.shape)
print(w2[0].sum(-1))
mha2.eval()
with torch.no_grad():
    o3, _ = mha2(q, q, q, attn_mask=torch.triu(torch.ones(Lq, Lq, dtype=torch.bool), 1))
print(o3[:, 0, :3])

Q = torch.randn(B, 4, Lq, 16)
K = torch.randn(B, 2, Lk, 16)
V = torch.randn(B, 2, Lk, 16)
gqa = F.scaled_dot_product_attention(Q, K, V, enable_gqa=True)
Kr, Vr = K.repeat_interleave(2, 1), V.repeat_interleave(2, 1)
manual = torch.softmax(Q @ Kr.transpose(-2, -1) / math.sqrt(16), -1) @ Vr
print("gqa", gqa.shape, torch.allclose(gqa, manual, atol=1e-5))
bias = torch.randn(Lq, Lk)
s = F.scaled_dot_product_attention(Q, Kr, Vr, attn_mask=bias, scale=0.1)
manual = torch.softmax(Q @ Kr.transpose(-2, -1) * 0.1 + bias, -1) @ Vr
print("scale+float mask", torch.allclose(s, manual, atol=1e-5))
causal = F.scaled_dot_product_attention(Q[:, :, :3], Q[:, :, :3], Q[:, :, :3], is_causal=True)
print(causal[0, 0])
try:
    F.scaled_dot_product_attention(Q, K, V)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:150])
try:
    nn.MultiheadAttention(E, 3)
except AssertionError as e:
    print("AssertionError:", e)
