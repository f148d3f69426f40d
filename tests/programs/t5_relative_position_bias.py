# Models: the relative-position machinery of public transformer code: T5's bucketed relative
# position bias (the _relative_position_bucket function from Hugging Face's modeling_t5 with
# its log-spaced buckets), rotary embeddings in their complex form (torch.polar,
# view_as_complex/view_as_real as in the Llama reference), and a check that rotary attention
# scores depend only on relative offsets.
import math

import torch
import torch.nn as nn


def relative_position_bucket(
    relative_position, bidirectional=True, num_buckets=32, max_distance=128
):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


q_len = k_len = 12
context_position = torch.arange(q_len, dtype=torch.long)[:, None]
memory_position = torch.arange(k_len, dtype=torch.long)[None, :]
relative_position = memory_position - context_position
buckets = relative_position_bucket(relative_position)
print(buckets.dtype, buckets.shape)
print(buckets[0])
print(buckets[:, 0])
far = torch.tensor([-500, -128, -64, -20, -9, -8, -1, 0, 1, 7, 8, 9, 20, 64, 128, 500])
print("bidirectional", relative_position_bucket(far))
print("causal       ", relative_position_bucket(far, bidirectional=False))

torch.manual_seed(0)
n_heads = 4
bias_table = nn.Embedding(32, n_heads)
values = bias_table(buckets).permute(2, 0, 1).unsqueeze(0)
print("position bias", values.shape, values[0, 0, :3, :5])
scores = torch.randn(1, n_heads, q_len, k_len) + values
attn = scores.softmax(-1)
print(
    "attention row sums",
    attn.sum(-1)[0, :, 0],
    "entropy",
    (-(attn * attn.log()).sum(-1)).mean().item(),
)


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


head_dim, seqlen = 8, 10
freqs_cis = precompute_freqs_cis(head_dim, seqlen)
print("freqs_cis", freqs_cis.dtype, freqs_cis.shape, freqs_cis[1])
print("unit modulus", torch.allclose(freqs_cis.abs(), torch.ones(())))
xq = torch.randn(2, seqlen, 2, head_dim)
xk = torch.randn(2, seqlen, 2, head_dim)
rq, rk = apply_rotary_emb(xq, xk, freqs_cis)
print(
    "rotated",
    rq.shape,
    rq.dtype,
    "norms preserved",
    torch.allclose(rq.norm(dim=-1), xq.norm(dim=-1), atol=1e-5),
)
print(rq[0, 3, 0])

v = torch.randn(head_dim)
w = torch.randn(head_dim)
qs = torch.stack([v] * seqlen)[None, :, None]
ks = torch.stack([w] * seqlen)[None, :, None]
rq, rk = apply_rotary_emb(qs, ks, freqs_cis)
S = torch.einsum("bqhd,bkhd->bhqk", rq, rk)[0, 0]
print(
    "scores depend on offset only:",
    torch.allclose(S.diagonal(1), S.diagonal(1)[0].expand(seqlen - 1), atol=1e-5),
    torch.allclose(S.diagonal(-2), S.diagonal(-2)[0].expand(seqlen - 2), atol=1e-5),
)
print("score by offset", torch.stack([S.diagonal(o)[0] for o in range(-3, 4)]))
