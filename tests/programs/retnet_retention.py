# Models: RetNet's retention (Sun et al. 2023) from scratch: the parallel form with a causal
# decay matrix D[n,m] = gamma^(n-m), the recurrent form S_n = gamma S_{n-1} + k_n^T v_n, and the
# chunkwise form, checked to agree; multi-scale gammas per head, xPos-style rotary position
# rotation, group norm over heads with a swish gate, and a small retention LM trained on a
# repeating token pattern.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def rotate(x, pos, theta):
    angle = pos[:, None] * theta[None]
    cos, sin = angle.cos(), angle.sin()
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], -1).flatten(-2)


def decay_mask(n, gammas):
    idx = torch.arange(n, dtype=torch.float)
    diff = idx[:, None] - idx[None]
    mask = gammas[:, None, None] ** diff.clamp(min=0)
    return mask.masked_fill(diff < 0, 0.0)


def retention_parallel(q, k, v, gammas):
    D = decay_mask(q.shape[-2], gammas)
    return (q @ k.transpose(-1, -2) * D) @ v


def retention_recurrent(q, k, v, gammas):
    B, H, T, d = q.shape
    S = torch.zeros(B, H, d, v.shape[-1])
    out = []
    for t in range(T):
        S = gammas[:, None, None] * S + k[:, :, t, :, None] * v[:, :, t, None, :]
        out.append((q[:, :, t, None] @ S).squeeze(-2))
    return torch.stack(out, 2)


def retention_chunkwise(q, k, v, gammas, chunk):
    B, H, T, d = q.shape
    S = torch.zeros(B, H, d, v.shape[-1])
    D = decay_mask(chunk, gammas)
    powers = gammas[:, None] ** torch.arange(1, chunk + 1, dtype=torch.float)
    out = []
    for c in range(0, T, chunk):
        qc, kc, vc = q[:, :, c:c + chunk], k[:, :, c:c + chunk], v[:, :, c:c + chunk]
        inner = (qc @ kc.transpose(-1, -2) * D) @ vc
        cross = (qc @ S) * powers[:, :, None]
        out.append(inner + cross)
        exps = torch.arange(chunk - 1, -1, -1, dtype=torch.float)
        decay_k = (gammas[:, None] ** exps)[:, :, None]
        S = gammas[:, None, None] ** chunk * S + (kc * decay_k).transpose(-1, -2) @ vc
    return torch.cat(out, 2)


B, H, T, d = 2, 4, 8, 6
gammas = 1 - 2.0 ** (-5 - torch.arange(H, dtype=torch.float))
print("gammas:", gammas)
q, k, v = (torch.randn(B, H, T, d) for _ in range(3))
par = retention_parallel(q, k, v, gammas)
rec = retention_recurrent(q, k, v, gammas)
chk = retention_chunkwise(q, k, v, gammas, chunk=4)
print("parallel vs recurrent:", torch.allclose(par, rec, atol=1e-4),
      "vs chunkwise:", torch.allclose(par, chk, atol=1e-4))
print("decay mask head 0:\n", decay_mask(4, gammas)[0])


class MultiScaleRetention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.gate = nn.Linear(dim, dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)
        self.norm = nn.GroupNorm(heads, dim, affine=False)
        self.register_buffer("gammas", 1 - 2.0 ** (-5 - torch.arange(heads, dtype=torch.float)))
        self.register_buffer("theta", 1.0 / 10000 ** torch.linspace(0, 1, self.dh // 2))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        pos = torch.arange(T, dtype=torch.float)
        q, k = rotate(q, pos, self.theta), rotate(k, pos, self.theta) / math.sqrt(self.dh)
        y = retention_parallel(q, k, v, self.gammas).transpose(1, 2).reshape(B * T, C)
        y = self.norm(y).view(B, T, C)
        return self.out(F.silu(self.gate(x)) * y)


class RetNetLM(nn.Module):
    def __init__(self, vocab, dim=32, heads=4, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(
            nn.ModuleDict({"ln1": nn.LayerNorm(dim), "msr": MultiScaleRetention(dim, heads),
                           "ln2": nn.LayerNorm(dim),
                           "ffn": nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))})
            for _ in range(layers))
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx):
        x = self.emb(idx)
        for blk in self.blocks:
            x = x + blk["msr"](blk["ln1"](x))
            x = x + blk["ffn"](blk["ln2"](x))
        return self.head(x)


pattern = torch.tensor([1, 2, 3, 4, 5, 3, 2, 6, 7, 0])
data = pattern.repeat(20)
model = RetNetLM(8)
opt = torch.optim.AdamW(model.parameters(), lr=5e-3)
for step in range(40):
    starts = torch.randint(0, len(data) - 17, (8,))
    xb = torch.stack([data[s:s + 16] for s in starts])
    yb = torch.stack([data[s + 1:s + 17] for s in starts])
    loss = F.cross_entropy(model(xb).flatten(0, 1), yb.flatten())
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1} loss {loss.item():.4f}")
with torch.no_grad():
    logits = model(pattern[None, :9])
print("next-token predictions:", logits.argmax(-1)[0], "target", pattern[1:])
