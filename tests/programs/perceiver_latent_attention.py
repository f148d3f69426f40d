# Models: the Perceiver (Jaegle et al. 2021) in miniature, as in the public perceiver-pytorch
# code: a learned latent array cross-attending to a long input (nn.MultiheadAttention with
# kdim/vdim different from the latent width), Fourier-feature position encodings of the
# input positions, latent self-attention blocks with weight sharing across iterations, and
# the attention maps' entropy; trained to count marked positions in a sequence.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def fourier_features(n, bands=4):
    pos = torch.linspace(-1, 1, n).unsqueeze(-1)
    freqs = torch.linspace(1.0, n / 2, bands)
    ang = pos * freqs * math.pi
    return torch.cat([pos, torch.sin(ang), torch.cos(ang)], -1)


class Perceiver(nn.Module):
    def __init__(self, d_in, n_latents=6, d_latent=24, iterations=2, n_out=5):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(n_latents, d_latent) * 0.2)
        self.cross = nn.MultiheadAttention(d_latent, 1, kdim=d_in, vdim=d_in, batch_first=True)
        self.norm_lat = nn.LayerNorm(d_latent)
        self.norm_in = nn.LayerNorm(d_in)
        self.self_attn = nn.TransformerEncoderLayer(d_latent, 2, 48, dropout=0.0,
                                                    batch_first=True, norm_first=True)
        self.iterations = iterations
        self.head = nn.Linear(d_latent, n_out)

    def forward(self, x):
        lat = self.latents.expand(x.shape[0], -1, -1)
        kv = self.norm_in(x)
        maps = []
        for _ in range(self.iterations):
            a, w = self.cross(self.norm_lat(lat), kv, kv, need_weights=True)
            lat = lat + a
            lat = self.self_attn(lat)
            maps.append(w)
        return self.head(lat.mean(1)), maps


torch.manual_seed(0)
N, L = 96, 40
marks = (torch.rand(N, L) < 0.06).float()
counts = marks.sum(1).clamp(max=4).long()
pos = fourier_features(L)
inputs = torch.cat([marks.unsqueeze(-1), 0.1 * torch.randn(N, L, 1),
                    pos.expand(N, -1, -1)], -1)
print("inputs", tuple(inputs.shape), "count histogram", torch.bincount(counts).tolist())

model = Perceiver(inputs.shape[-1])
print(model.cross)
print("cross-attention weights", [(n, tuple(p.shape)) for n, p in model.cross.named_parameters()])
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(10):
    perm = torch.randperm(N)
    for i in range(0, N, 24):
        idx = perm[i:i + 24]
        logits, maps = model(inputs[idx])
        loss = F.cross_entropy(logits, counts[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 3 == 2 or epoch == 9:
        with torch.no_grad():
            logits, maps = model(inputs)
            acc = (logits.argmax(1) == counts).float().mean()
            ent = -(maps[-1] * maps[-1].clamp_min(1e-9).log()).sum(-1).mean()
        print(f"epoch {epoch} loss {loss.item():.5f} acc {acc.item():.4f} "
              f"attention entropy {ent.item():.4f} (uniform {math.log(L):.4f})")
with torch.no_grad():
    _, maps = model(inputs[:1])
on_marks = maps[-1][0][:, marks[0].bool()].sum(-1)
print("attention mass on marked positions per latent", on_marks)
