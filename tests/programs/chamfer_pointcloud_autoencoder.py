# Models: point-cloud autoencoder code (Achlioptas et al., FoldingNet-lite): a PointNet
# encoder (shared per-point MLP by Conv1d, max-pooled global feature), an MLP decoder
# emitting N points, the Chamfer distance computed with torch.cdist and min over both
# directions, an earth-mover approximation by sorting along a random projection (sliced
# Wasserstein), on synthetic spheres, cubes and tori, with latent interpolation.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
N = 64


def shape(kind, g):
    u = torch.rand(N, generator=g) * 2 * math.pi
    v = torch.rand(N, generator=g) * 2 * math.pi
    if kind == 0:                                    # sphere
        p = torch.randn(N, 3, generator=g)
        p = p / p.norm(dim=1, keepdim=True)
    elif kind == 1:                                  # cube surface
        p = torch.rand(N, 3, generator=g) * 2 - 1
        face = torch.randint(0, 3, (N,), generator=g)
        p[torch.arange(N), face] = torch.sign(p[torch.arange(N), face])
    else:                                            # torus
        p = torch.stack([(1 + 0.4 * torch.cos(v)) * torch.cos(u),
                         (1 + 0.4 * torch.cos(v)) * torch.sin(u), 0.4 * torch.sin(v)], 1)
    return p * (0.8 + 0.4 * torch.rand(1, generator=g))


def batch(n, g):
    kinds = torch.randint(0, 3, (n,), generator=g)
    return torch.stack([shape(int(k), g) for k in kinds]), kinds


def chamfer(a, b):
    d = torch.cdist(a, b).pow(2)
    return d.min(2).values.mean(1) + d.min(1).values.mean(1)


def sliced_w(a, b, g, n_proj=16):
    dirs = torch.randn(3, n_proj, generator=g)
    dirs = dirs / dirs.norm(dim=0, keepdim=True)
    pa, pb = (a @ dirs).sort(1).values, (b @ dirs).sort(1).values
    return (pa - pb).pow(2).mean((1, 2))


class PointAE(nn.Module):
    def __init__(self, latent=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(3, 32, 1), nn.ReLU(), nn.Conv1d(32, 64, 1),
                                 nn.ReLU(), nn.Conv1d(64, latent, 1))
        self.dec = nn.Sequential(nn.Linear(latent, 128), nn.ReLU(), nn.Linear(128, N * 3))

    def encode(self, pts):
        return self.enc(pts.transpose(1, 2)).max(2).values

    def forward(self, pts):
        return self.dec(self.encode(pts)).view(-1, N, 3)


a, b = torch.rand(2, 5, 3), torch.rand(2, 7, 3)
brute = torch.stack([((a[i][:, None] - b[i][None]) ** 2).sum(-1) for i in range(2)])
ref = brute.min(2).values.mean(1) + brute.min(1).values.mean(1)
print("chamfer via cdist matches brute force:", torch.allclose(chamfer(a, b), ref, atol=1e-5))
g = torch.Generator().manual_seed(6)
model = PointAE()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(120):
    pts, _ = batch(16, g)
    rec = model(pts)
    loss = chamfer(rec, pts).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 30 == 29:
        print(f"step {step + 1} chamfer {loss.item():.6f} "
              f"sliced-W {sliced_w(rec, pts, g).mean().item():.6f}")
test, kinds = batch(9, g)
with torch.no_grad():
    rec = model(test)
    cd = chamfer(rec, test)
    z = model.encode(test)
print("kinds:", kinds.tolist())
print("per-shape chamfer:", cd)
for k in range(3):
    print(f"class {k} mean chamfer {cd[kinds == k].mean().item():.6f}")
with torch.no_grad():
    mid = model.dec(0.5 * (z[0] + z[1])).view(N, 3)
print("interpolated cloud radius stats:", mid.norm(dim=1).mean().item() > 0,
      f"{mid.norm(dim=1).std().item():.5f}")
