# Models: Longformer-style local attention: each token attends to a window of w neighbours
# on each side, computed by chunking keys with unfold into (L, 2w+1) bands instead of the
# full L x L matrix, plus a few global tokens that attend everywhere; checked against full
# attention with a band mask, then used in a small classifier trained on a long-sequence
# task whose label depends on local patterns far apart.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def sliding_attention(q, k, v, w):
    """q, k, v: (B, L, d). Attention restricted to |i - j| <= w (banded, via unfold)."""
    b, L, d = q.shape
    kp = F.pad(k, (0, 0, w, w))
    vp = F.pad(v, (0, 0, w, w))
    kb = kp.unfold(1, 2 * w + 1, 1).transpose(-1, -2)    # (B, L, 2w+1, d)
    vb = vp.unfold(1, 2 * w + 1, 1).transpose(-1, -2)
    scores = torch.einsum("bld,blwd->blw", q, kb) / math.sqrt(d)
    pos = torch.arange(L)[:, None] + torch.arange(-w, w + 1)[None]
    valid = (pos >= 0) & (pos < L)
    scores = scores.masked_fill(~valid, float("-inf"))
    return torch.einsum("blw,blwd->bld", scores.softmax(-1), vb)


def banded_full(q, k, v, w):
    L = q.shape[1]
    i = torch.arange(L)
    band = (i[:, None] - i[None]).abs() <= w
    s = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    return s.masked_fill(~band, float("-inf")).softmax(-1) @ v


q, k, v = torch.randn(3, 2, 11, 8).unbind(0)
a, b = sliding_attention(q, k, v, 2), banded_full(q, k, v, 2)
print("band vs full max diff < 1e-6:", (a - b).abs().max().item() < 1e-6)
print("first row:", a[0, 0])


class LongformerBlock(nn.Module):
    def __init__(self, d, w, n_global=1):
        super().__init__()
        self.w, self.n_global = w, n_global
        self.qkv = nn.Linear(d, 3 * d)
        self.gqkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.ln2 = nn.LayerNorm(d)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, -1)
        local = sliding_attention(q, k, v, self.w)
        gq, gk, gv = self.gqkv(x).chunk(3, -1)
        g = self.n_global
        glob = F.scaled_dot_product_attention(gq[:, :g], gk, gv)   # global tokens see all
        # every token also attends to the global tokens: mix with a learned-free average
        to_g = F.scaled_dot_product_attention(q, k[:, :g], v[:, :g])
        h = torch.cat([glob, (local[:, g:] + to_g[:, g:]) / 2], 1)
        x = self.ln(x + self.out(h))
        return self.ln2(x + self.ff(x))


class Classifier(nn.Module):
    def __init__(self, vocab=6, d=24, w=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(1, 64, d) * 0.02)
        self.blocks = nn.Sequential(LongformerBlock(d, w), LongformerBlock(d, w))
        self.head = nn.Linear(d, 2)

    def forward(self, ids):
        h = self.blocks(self.emb(ids) + self.pos[:, :ids.shape[1]])
        return self.head(h[:, 0])


def data(n, g, L=48):
    """Label 1 iff the motif (3, 4) appears in both halves of the sequence."""
    ids = torch.randint(1, 3, (n, L), generator=g)
    ids[:, 0] = 5                                    # the global [CLS] token
    y = torch.randint(0, 2, (n,), generator=g)
    for i in range(n):
        spots = torch.randint(1, L // 2 - 2, (2,), generator=g)
        ids[i, spots[0]:spots[0] + 2] = torch.tensor([3, 4])
        if y[i] == 1:
            ids[i, L // 2 + spots[1]:L // 2 + spots[1] + 2] = torch.tensor([3, 4])
    return ids, y


g = torch.Generator().manual_seed(2)
model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
val_x, val_y = data(64, g)
for epoch in range(5):
    for _ in range(4):
        xb, yb = data(32, g)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(val_x).argmax(1) == val_y).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.5f} val acc {acc:.4f}")
with torch.no_grad():
    print("logits:", model(val_x[:4]))
