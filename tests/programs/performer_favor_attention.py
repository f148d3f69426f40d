# Models: Performer's FAVOR+ linear attention: positive orthogonal random features
# phi(x) = exp(w.x - |x|^2/2) / sqrt(m) that estimate the softmax kernel, the unbiasedness
# check against exact softmax attention as the number of features grows, the O(L) causal
# variant with prefix sums (cumsum), feature redrawing, and a small autoregressive model
# trained with it.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def orthogonal_features(m, d, g):
    blocks = []
    for _ in range(math.ceil(m / d)):
        q, _ = torch.linalg.qr(torch.randn(d, d, generator=g))
        blocks.append(q.t())
    w = torch.cat(blocks)[:m]
    norms = torch.randn(m, d, generator=g).norm(dim=1, keepdim=True)
    return w * norms


def phi(x, w, is_query):
    """Queries are stabilised by their own row maximum, keys by one global maximum (a
    per-key constant would bias the estimate)."""
    x = x / x.shape[-1] ** 0.25
    proj = x @ w.t()
    sq = (x ** 2).sum(-1, keepdim=True) / 2
    stab = proj.amax(-1, keepdim=True) if is_query else proj.amax()
    return torch.exp(proj - sq - stab.detach()) / math.sqrt(w.shape[0])


def favor(q, k, v, w):
    qp, kp = phi(q, w, True), phi(k, w, False)
    kv = torch.einsum("bld,ble->bde", kp, v)
    z = 1 / (torch.einsum("bld,bd->bl", qp, kp.sum(1)) + 1e-6)
    return torch.einsum("bld,bde,bl->ble", qp, kv, z)


def favor_causal(q, k, v, w):
    qp, kp = phi(q, w, True), phi(k, w, False)
    kv = torch.einsum("bld,ble->blde", kp, v).cumsum(1)
    z = 1 / (torch.einsum("bld,bld->bl", qp, kp.cumsum(1)) + 1e-6)
    return torch.einsum("bld,blde,bl->ble", qp, kv, z)


g = torch.Generator().manual_seed(1)
q, k, v = (torch.randn(2, 16, 8, generator=g) * 0.5 for _ in range(3))
exact = F.scaled_dot_product_attention(q, k, v)
for m in (8, 64, 512):
    approx = favor(q, k, v, orthogonal_features(m, 8, g))
    print(f"features {m:4d} mean abs err {(approx - exact).abs().mean().item():.5f}")
w = orthogonal_features(256, 8, g)
causal = favor_causal(q, k, v, w)
exact_c = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("causal err:", f"{(causal - exact_c).abs().mean().item():.5f}")
print("first step equals v[0]:", torch.allclose(causal[:, 0], v[:, 0], atol=1e-5))


class PerformerLM(nn.Module):
    def __init__(self, vocab=10, d=32, m=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(32, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, d))
        self.head = nn.Linear(d, vocab)
        self.m, self.d = m, d
        self.register_buffer("w", orthogonal_features(m, d, torch.Generator().manual_seed(9)))

    def redraw(self, g):
        self.w.copy_(orthogonal_features(self.m, self.d, g))

    def forward(self, ids):
        h = self.emb(ids) + self.pos(torch.arange(ids.shape[1]))
        q, k, v = self.qkv(F.layer_norm(h, (self.d,))).chunk(3, -1)
        h = h + self.proj(favor_causal(q, k, v, self.w))
        h = h + self.ff(h)
        return self.head(h)


def copy_task(n, g):
    """Repeat the first 6 tokens: the model must look back 6 positions."""
    first = torch.randint(1, 10, (n, 6), generator=g)
    seq = torch.cat([first, first, first], 1)
    return seq[:, :-1], seq[:, 1:]


model = PerformerLM()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(60):
    if step % 20 == 0 and step:
        model.redraw(g)
    x, y = copy_task(32, g)
    loss = F.cross_entropy(model(x).reshape(-1, 10), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 15 == 14:
        print(f"step {step + 1} loss {loss.item():.5f}")
x, y = copy_task(16, g)
with torch.no_grad():
    pred = model(x).argmax(-1)
print("copy accuracy on second half:", f"{(pred[:, 6:] == y[:, 6:]).float().mean().item():.4f}")
print("sample:", x[0].tolist(), "->", pred[0].tolist())
