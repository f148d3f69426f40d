# Models: attention alternatives from public reimplementations: ALiBi linear biases (slopes for a
# power-of-two head count, a relative-distance bias added to causal scores), kernelised linear
# attention (elu+1 feature map, causal prefix sums with cumsum), and a comparison of their
# outputs and costs with softmax attention on a copy task.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def get_slopes(n_heads):
    start = 2 ** (-(2 ** -(math.log2(n_heads) - 3)))
    return torch.tensor([start * start**i for i in range(n_heads)])


def alibi_bias(n_heads, seq_len):
    pos = torch.arange(seq_len)
    rel = pos[None, :] - pos[:, None]
    bias = get_slopes(n_heads)[:, None, None] * rel[None].float()
    causal = torch.ones(seq_len, seq_len, dtype=torch.bool).tril()
    return bias.masked_fill(~causal, float("-inf"))


print("slopes(4):", get_slopes(4))
print("slopes(8):", get_slopes(8))
b = alibi_bias(2, 4)
print(b)
print("bias dtype/shape:", b.dtype, tuple(b.shape))


def softmax_attention(q, k, v, bias=None, causal=True):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if bias is not None:
        scores = scores + bias
    elif causal:
        t = q.shape[-2]
        scores = scores.masked_fill(torch.triu(torch.ones(t, t, dtype=torch.bool), 1), -1e9)
    return scores.softmax(-1) @ v


def elu_feature(x):
    return F.elu(x) + 1


def causal_linear_attention(q, k, v, eps=1e-6):
    q, k = elu_feature(q), elu_feature(k)
    kv = torch.einsum("bhtd,bhte->bhtde", k, v).cumsum(dim=2)
    z = k.cumsum(dim=2)
    num = torch.einsum("bhtd,bhtde->bhte", q, kv)
    den = torch.einsum("bhtd,bhtd->bht", q, z).unsqueeze(-1) + eps
    return num / den


def causal_linear_attention_loop(q, k, v, eps=1e-6):
    q, k = elu_feature(q), elu_feature(k)
    s = torch.zeros(*q.shape[:2], q.shape[-1], v.shape[-1])
    z = torch.zeros(*q.shape[:2], q.shape[-1])
    outs = []
    for t in range(q.shape[2]):
        s = s + k[:, :, t, :, None] * v[:, :, t, None, :]
        z = z + k[:, :, t]
        num = (q[:, :, t, :, None] * s).sum(-2)
        outs.append(num / ((q[:, :, t] * z).sum(-1, keepdim=True) + eps))
    return torch.stack(outs, dim=2)


q, k, v = torch.randn(3, 2, 2, 6, 4).unbind(0)
a = causal_linear_attention(q, k, v)
b = causal_linear_attention_loop(q, k, v)
print(
    "linear attention shape",
    tuple(a.shape),
    "cumsum vs loop close:",
    torch.allclose(a, b, atol=1e-5),
)
print(a[0, 0, :3])
sm = softmax_attention(q, k, v)
print(
    "first position equals v[0] for all causal variants:",
    torch.allclose(sm[..., 0, :], v[..., 0, :]),
    torch.allclose(a[..., 0, :], v[..., 0, :]),
)
al = softmax_attention(q, k, v, bias=alibi_bias(2, 6))
print("alibi out:", al[1, 1, -1])


class TinyAttnLM(nn.Module):
    def __init__(self, kind, vocab=8, dim=16, heads=2):
        super().__init__()
        self.kind, self.heads = kind, heads
        self.emb = nn.Embedding(vocab, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, x):
        bsz, t = x.shape
        h = self.emb(x)
        q, k, v = self.qkv(h).view(bsz, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if self.kind == "alibi":
            o = softmax_attention(q, k, v, bias=alibi_bias(self.heads, t))
        elif self.kind == "linear":
            o = causal_linear_attention(q, k, v)
        else:
            o = softmax_attention(q, k, v)
        h = h + self.proj(o.transpose(1, 2).reshape(bsz, t, -1))
        return self.head(h)


# task: predict the token seen two steps earlier
data = torch.randint(0, 8, (32, 10))
for kind in ["softmax", "alibi", "linear"]:
    torch.manual_seed(1)
    model = TinyAttnLM(kind)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    for step in range(50):
        logits = model(data)[:, 2:]
        loss = F.cross_entropy(logits.reshape(-1, 8), data[:, :-2].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    acc = (logits.argmax(-1) == data[:, :-2]).float().mean()
    print(f"{kind:8s} final loss {loss.item():.4f} acc {acc.item():.3f}")

print(torch.einsum("bhtd,bhte->bhtde", k, v).shape, torch.einsum("ii->i", torch.eye(3)))
