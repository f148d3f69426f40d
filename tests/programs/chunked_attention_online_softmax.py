# Models: memory-efficient attention notes (FlashAttention-style derivations in plain torch):
# exact attention via F.scaled_dot_product_attention under sdpa_kernel(MATH), with scale= and
# grouped-query heads (enable_gqa), a causal mask, then the same result computed block by block
# with a running max and running denominator (online softmax), logsumexp merging of partial
# results, and the gradient check of the blocked version.
import math

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(70)
B, H, Hkv, T, D = 2, 4, 2, 12, 8
q = torch.randn(B, H, T, D, requires_grad=True)
k = torch.randn(B, Hkv, T, D, requires_grad=True)
v = torch.randn(B, Hkv, T, D, requires_grad=True)
with sdpa_kernel(SDPBackend.MATH):
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    ref_scaled = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.5,
                                                enable_gqa=True)
print(ref.shape, ref[0, 0, :3, :4], ref_scaled[1, 3, -1, :4])
k_rep = k.repeat_interleave(H // Hkv, dim=1)
v_rep = v.repeat_interleave(H // Hkv, dim=1)
scores = q @ k_rep.transpose(-2, -1) / math.sqrt(D)
mask = torch.ones(T, T, dtype=torch.bool).tril()
manual = scores.masked_fill(~mask, float("-inf")).softmax(-1) @ v_rep
print("manual vs sdpa", (manual - ref).abs().max().item() < 1e-5)


def blocked_attention(q, k, v, block=4):
    b, h, t, d = q.shape
    out = torch.zeros_like(q)
    lse = torch.full((b, h, t), float("-inf"))
    for qs in range(0, t, block):
        qi = q[:, :, qs:qs + block]
        m = torch.full((b, h, qi.shape[2]), float("-inf"))
        l = torch.zeros(b, h, qi.shape[2])
        acc = torch.zeros(b, h, qi.shape[2], d)
        for ks in range(0, qs + block, block):
            kj, vj = k[:, :, ks:ks + block], v[:, :, ks:ks + block]
            s = qi @ kj.transpose(-2, -1) / math.sqrt(d)
            qpos = torch.arange(qs, qs + qi.shape[2])[:, None]
            kpos = torch.arange(ks, ks + kj.shape[2])[None, :]
            s = s.masked_fill(kpos > qpos, float("-inf"))
            m_new = torch.maximum(m, s.amax(-1))
            p = torch.exp(s - m_new[..., None])
            corr = torch.exp(m - m_new)
            l = l * corr + p.sum(-1)
            acc = acc * corr[..., None] + p @ vj
            m = m_new
        out = torch.cat([out[:, :, :qs], acc / l[..., None], out[:, :, qs + block:]], 2)
        lse[:, :, qs:qs + block] = m + torch.log(l)
    return out, lse


blk, lse = blocked_attention(q, k_rep, v_rep)
print("blocked vs sdpa", (blk - ref).abs().max() < 1e-5, lse[0, 0])
print(torch.logsumexp(scores.masked_fill(~mask, float("-inf")), -1)[0, 0])
left, right = scores[..., :6], scores[..., 6:]
lse_l = torch.logsumexp(left.masked_fill(~mask[:, :6], float("-inf")), -1)
lse_r = torch.logsumexp(right.masked_fill(~mask[:, 6:], float("-inf")), -1)
merged = torch.logaddexp(lse_l, lse_r)
print("merged lse", merged[1, 2, :5])
(blk.pow(2).sum()).backward()
g_blk = [t.grad.clone() for t in (q, k, v)]
for t in (q, k, v):
    t.grad = None
ref.pow(2).sum().backward()
print("grad diffs", [round((a - t.grad).abs().max().item(), 5) for a, t in zip(g_blk, (q, k, v))])
print(q.grad[0, 0, 0], k.grad[1, 1, -1])
with sdpa_kernel([SDPBackend.MATH]):
    attn_mask = torch.randn(T, T)
    out = F.scaled_dot_product_attention(q.detach(), k_rep.detach(), v_rep.detach(),
                                         attn_mask=attn_mask)
    bool_mask = torch.rand(B, 1, T, T) > 0.3
    bool_mask[..., 0] = True
    out2 = F.scaled_dot_product_attention(q.detach(), k_rep.detach(), v_rep.detach(),
                                          attn_mask=bool_mask)
print(out[0, 0, 0], out2[1, 1, 1])
try:
    F.scaled_dot_product_attention(q, k, v)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])
