# Models: attention building blocks as written in public LLM code (nanoGPT, Llama reference,
# xformers tutorials) -- causal masks with triu/tril and masked_fill(-inf), padding masks,
# F.scaled_dot_product_attention with is_causal and boolean/float attn_mask checked against the
# explicit softmax formula, grouped-query attention with repeat_interleave, rotary position
# embeddings with torch.polar and complex multiplication (view_as_complex / view_as_real),
# ALiBi biases, and sliding-window masks.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
B, H, T, D = 2, 4, 6, 8
q = torch.randn(B, H, T, D)
k = torch.randn(B, H, T, D)
v = torch.randn(B, H, T, D)

causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
print(causal.int())
scores = q @ k.transpose(-2, -1) / math.sqrt(D)
scores = scores.masked_fill(causal, float("-inf"))
att = F.softmax(scores, dim=-1)
manual = att @ v
print("row sums", att.sum(-1)[0, 0])
print("first row", att[0, 0, 0], att[0, 0, 2])
sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("sdpa is_causal matches", torch.allclose(sdpa, manual, atol=1e-6))
print((sdpa - manual).abs().max() < 1e-5)
tril_mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T)
nano = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
nano = nano.masked_fill(tril_mask[:, :, :T, :T] == 0, float("-inf"))
print("nanoGPT mask same", torch.allclose(F.softmax(nano, dim=-1), att))

lengths = torch.tensor([6, 4])
key_padding = torch.arange(T)[None, :] >= lengths[:, None]
print(key_padding)
bool_mask = ~key_padding[:, None, None, :]
out_pad = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask)
s2 = (q @ k.transpose(-2, -1)) / math.sqrt(D)
s2 = s2.masked_fill(key_padding[:, None, None, :], float("-inf"))
ref_pad = s2.softmax(-1) @ v
print("bool attn_mask", torch.allclose(out_pad, ref_pad, atol=1e-6))
float_mask = torch.zeros(B, 1, T, T).masked_fill(key_padding[:, None, None, :], float("-inf"))
out_f = F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask)
print("float attn_mask", torch.allclose(out_f, ref_pad, atol=1e-6))
print(out_f[1, 0, 0, :4])
print(F.scaled_dot_product_attention(q, k, v, scale=0.1)[0, 0, 0, :3])

# grouped-query attention: 4 query heads share 2 key/value heads
kv_heads = 2
k2 = torch.randn(B, kv_heads, T, D)
v2 = torch.randn(B, kv_heads, T, D)
k_rep = k2.repeat_interleave(H // kv_heads, dim=1)
v_rep = v2.repeat_interleave(H // kv_heads, dim=1)
print("gqa", k_rep.shape, torch.equal(k_rep[:, 1], k2[:, 0]), torch.equal(k_rep[:, 2], k2[:, 1]))
gqa = F.scaled_dot_product_attention(q, k_rep, v_rep, is_causal=True)
print(gqa[0, 3, -1, :4])


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


freqs_cis = precompute_freqs_cis(D, T)
print(freqs_cis.dtype, freqs_cis.shape, freqs_cis[1, :2])
xq = q.transpose(1, 2)                      # (B, T, H, D) as in the Llama code
xk = k.transpose(1, 2)
rq, rk = apply_rotary_emb(xq, xk, freqs_cis)
print("rotary keeps norms", torch.allclose(rq.norm(dim=-1), xq.norm(dim=-1), atol=1e-5))
print(rq[0, 1, 0, :4])
dots = (rq[0, :, 0] @ rk[0, :, 0].T)
print("relative", dots.diagonal().shape, dots[2, 1], dots[3, 2])


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


inv_freq = 1.0 / (10000 ** (torch.arange(0, D, 2).float() / D))
emb = torch.cat([torch.outer(torch.arange(T).float(), inv_freq)] * 2, dim=-1)
rq_hf = q * emb.cos() + rotate_half(q) * emb.sin()
print("hf rotary", rq_hf[0, 0, 1, :4])


def alibi_slopes(n):
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return torch.tensor([start * start ** i for i in range(n)])


slopes = alibi_slopes(H)
rel = torch.arange(T)[None, :] - torch.arange(T)[:, None]
alibi = slopes[:, None, None] * rel[None].float()
print("alibi", slopes, alibi[1, -1])
window = 2
idx = torch.arange(T)
sliding = (idx[None, :] > idx[:, None]) | (idx[:, None] - idx[None, :] >= window)
print(sliding.int())
sw = F.scaled_dot_product_attention(q, k, v, attn_mask=~sliding)
print(sw[0, 0, :, 0])
qg = q.clone().requires_grad_()
out = F.scaled_dot_product_attention(qg, k, v, attn_mask=alibi.unsqueeze(0), is_causal=False)
out.sum().backward()
print("grad", qg.grad[0, 0, 0, :4])
