# Models: a Llama-style attention block as written in small open-source reimplementations:
# rotary position embeddings through view_as_complex / torch.polar, grouped-query attention
# with F.scaled_dot_product_attention(enable_gqa=True), an explicit causal mask and scale,
# checked against a hand-written einsum version, then a few training steps.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Attention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads):
        super().__init__()
        self.n_heads, self.n_kv_heads = n_heads, n_kv_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, dim, bias=False)

    def forward(self, x, freqs_cis, use_sdpa=True):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis)
        xq, xk, xv = (t.transpose(1, 2) for t in (xq, xk, xv))
        if use_sdpa:
            out = F.scaled_dot_product_attention(xq, xk, xv, is_causal=True, enable_gqa=True)
        else:
            rep = self.n_heads // self.n_kv_heads
            keys = xk.repeat_interleave(rep, dim=1)
            values = xv.repeat_interleave(rep, dim=1)
            scores = torch.einsum("bhqd,bhkd->bhqk", xq, keys) / math.sqrt(self.head_dim)
            mask = torch.full((seqlen, seqlen), float("-inf")).triu(1)
            scores = F.softmax(scores + mask, dim=-1)
            out = torch.einsum("bhqk,bhkd->bhqd", scores, values)
        out = out.transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        return self.wo(out)


class Block(nn.Module):
    def __init__(self, dim=32, n_heads=4, n_kv_heads=2):
        super().__init__()
        self.attn = Attention(dim, n_heads, n_kv_heads)
        self.norm1, self.norm2 = RMSNorm(dim), RMSNorm(dim)
        hidden = 64
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x, freqs_cis, use_sdpa=True):
        h = x + self.attn(self.norm1(x), freqs_cis, use_sdpa)
        y = self.norm2(h)
        return h + self.w2(F.silu(self.w1(y)) * self.w3(y))


vocab, seqlen = 20, 12
emb = nn.Embedding(vocab, 32)
block = Block()
head = nn.Linear(32, vocab, bias=False)
head.weight = emb.weight
freqs = precompute_freqs_cis(8, seqlen)
print(freqs.shape, freqs.dtype)
print(freqs[3, :2])

x = emb(torch.randint(0, vocab, (2, seqlen)))
a = block(x, freqs, use_sdpa=True)
b = block(x, freqs, use_sdpa=False)
print("sdpa vs manual max diff < 1e-5:", (a - b).abs().max().item() < 1e-5)

q = torch.randn(1, 4, 5, 8)
k = torch.randn(1, 2, 5, 8)
v = torch.randn(1, 2, 5, 8)
o1 = F.scaled_dot_product_attention(q, k, v, enable_gqa=True, scale=0.5)
o2 = F.scaled_dot_product_attention(q, k.repeat_interleave(2, 1), v.repeat_interleave(2, 1),
                                    scale=0.5)
print(torch.allclose(o1, o2), o1[0, 3, 1])
bool_mask = torch.ones(5, 5, dtype=torch.bool).tril()
o3 = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask, enable_gqa=True)
print(o3[0, 0, :2])

params = list(emb.parameters()) + list(block.parameters())
opt = torch.optim.AdamW(params, lr=3e-3, weight_decay=0.1)
data = torch.randint(0, vocab, (8, seqlen + 1))
for step in range(30):
    inp, tgt = data[:, :-1], data[:, 1:]
    logits = head(block(emb(inp), freqs))
    loss = F.cross_entropy(logits.reshape(-1, vocab), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 29:
        print(f"step {step:2d} loss {loss.item():.4f}")
print(head.weight is emb.weight, len(params))
