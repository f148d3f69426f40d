# Models: "attention from scratch" notebooks -- multi-head self-attention written with einsum,
# a causal mask with masked_fill(-inf), softmax, and a check against
# F.scaled_dot_product_attention and nn.MultiheadAttention.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
B, T, H, Dh = 2, 5, 2, 4
C = H * Dh
x = torch.randn(B, T, C)
Wq, Wk, Wv = (torch.randn(C, C) / math.sqrt(C) for _ in range(3))
q = torch.einsum("btc,cd->btd", x, Wq).view(B, T, H, Dh).transpose(1, 2)
k = torch.einsum("btc,cd->btd", x, Wk).view(B, T, H, Dh).transpose(1, 2)
v = torch.einsum("btc,cd->btd", x, Wv).view(B, T, H, Dh).transpose(1, 2)
scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(Dh)
causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
scores = scores.masked_fill(~causal, float("-inf"))
att = scores.softmax(dim=-1)
print(att[0, 0])
y = torch.einsum("bhqk,bhkd->bhqd", att, v)
y2 = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(torch.allclose(y, y2, atol=1e-6))
out = y.transpose(1, 2).reshape(B, T, C)
print(out[0])
print(torch.einsum("ii", torch.arange(9.).view(3, 3)), torch.einsum("i,j->ij", torch.arange(3.),
                                                                     torch.arange(2.)))
print(torch.einsum("bij,bjk->bik", torch.ones(2, 2, 3), torch.ones(2, 3, 1)).squeeze(-1))
mha = torch.nn.MultiheadAttention(C, H, batch_first=True)
o, w = mha(x, x, x, attn_mask=~causal)
print(o[1, -1], w[1, -1])
