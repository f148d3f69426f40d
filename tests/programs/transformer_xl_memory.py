# Models: Transformer-XL's segment-level recurrence: each layer attends over the cached
# hidden states of the previous segment (detached, no gradient across segments) plus the
# current segment, with a causal mask shifted by the memory length, sinusoidal relative
# position embeddings with the learned u and v biases and the rel_shift trick, trained on a
# periodic token stream that a single segment cannot see whole.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V, D, H, SEG, MEM = 12, 32, 4, 8, 8


def rel_shift(x):
    """(B, H, Q, K) scores indexed by relative distance -> indexed by key position."""
    b, h, q, k = x.shape
    x = F.pad(x, (1, 0))
    x = x.view(b, h, k + 1, q)[:, :, 1:].view(b, h, q, k)
    return x


class RelLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D, bias=False)
        self.r = nn.Linear(D, D, bias=False)
        self.u = nn.Parameter(torch.zeros(H, D // H))
        self.v = nn.Parameter(torch.zeros(H, D // H))
        self.o = nn.Linear(D, D)
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.ff = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, D))

    def forward(self, x, mem, pos):
        b, q, _ = x.shape
        cat = torch.cat([mem, x], 1) if mem is not None else x
        k_len = cat.shape[1]
        qh, kh, vh = self.qkv(cat).chunk(3, -1)
        qh = qh[:, -q:].view(b, q, H, -1)
        kh, vh = kh.view(b, k_len, H, -1), vh.view(b, k_len, H, -1)
        rk = self.r(pos[-k_len:]).view(k_len, H, -1)
        ac = torch.einsum("bqhd,bkhd->bhqk", qh + self.u, kh)
        bd = rel_shift(torch.einsum("bqhd,khd->bhqk", qh + self.v, rk))
        scores = (ac + bd) / math.sqrt(D // H)
        mask = torch.ones(q, k_len, dtype=torch.bool).triu(1 + k_len - q)
        scores = scores.masked_fill(mask, float("-inf"))
        att = scores.softmax(-1)
        out = torch.einsum("bhqk,bkhd->bqhd", att, vh).reshape(b, q, D)
        x = self.ln1(x + self.o(out))
        return self.ln2(x + self.ff(x))


class TXL(nn.Module):
    def __init__(self, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.layers = nn.ModuleList([RelLayer() for _ in range(n_layers)])
        self.head = nn.Linear(D, V)
        inv = 1 / (10000 ** (torch.arange(0, D, 2.0) / D))
        dist = torch.arange(SEG + MEM - 1, -1, -1.0)
        ang = dist[:, None] * inv[None]
        self.register_buffer("pos", torch.cat([ang.sin(), ang.cos()], -1))

    def forward(self, tokens, mems):
        h = self.emb(tokens) * math.sqrt(D)
        new_mems = []
        for layer, mem in zip(self.layers, mems):
            new_mems.append(h.detach()[:, -MEM:])
            h = layer(h, mem, self.pos)
        return self.head(h), new_mems


PERIOD = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3]  # longer than a segment
stream = torch.tensor([PERIOD[i % len(PERIOD)] % V for i in range(4 * 16 * SEG + 1)])
x = torch.stack([stream[:-1].view(4, -1)[i] for i in range(4)])
y = torch.stack([stream[1:].view(4, -1)[i] for i in range(4)])
model = TXL()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
print("rel_shift check:", rel_shift(torch.arange(12.).view(1, 1, 3, 4))[0, 0])
for epoch in range(3):
    mems = [None, None]
    tot = 0.0
    for s in range(0, x.shape[1], SEG):
        logits, mems = model(x[:, s:s + SEG], mems)
        loss = F.cross_entropy(logits.reshape(-1, V), y[:, s:s + SEG].reshape(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        opt.step()
        tot += loss.item()
    print(f"epoch {epoch} mean loss {tot / (x.shape[1] // SEG):.5f}")
model.eval()
with torch.no_grad():
    mems, accs = [None, None], []
    for s in range(0, 4 * SEG, SEG):
        logits, mems = model(x[:1, s:s + SEG], mems)
        accs.append((logits.argmax(-1) == y[:1, s:s + SEG]).float().mean().item())
print("segment accuracies:", [round(a, 4) for a in accs])
print("memory shapes:", [tuple(m.shape) for m in mems])
print("u bias:", model.layers[0].u[0])
