# Models: a compact class-conditional diffusion model in the style of minimal DDPM/DDIM repos:
# cosine noise schedule (Nichol & Dhariwal), sinusoidal timestep embedding, label dropout for
# classifier-free guidance, an EMA of the weights, and deterministic DDIM sampling with a
# guidance scale, on 2-D points from per-class Gaussians.
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6)
T = 50


def cosine_betas(T, s=0.008):
    steps = torch.arange(T + 1, dtype=torch.float64) / T
    f = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
    abar = f / f[0]
    return (1 - abar[1:] / abar[:-1]).clamp(max=0.999).float()


betas = cosine_betas(T)
alphas_cum = torch.cumprod(1 - betas, 0)
print(betas[:4], betas[-3:], alphas_cum[[0, 24, 49]])


def timestep_embedding(t, dim=16):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.null = n_classes
        self.label_emb = nn.Embedding(n_classes + 1, 16)
        self.net = nn.Sequential(nn.Linear(2 + 16, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(),
                                 nn.Linear(64, 2))

    def forward(self, x, t, y):
        h = timestep_embedding(t) + self.label_emb(y)
        return self.net(torch.cat([x, h], 1))


centers = torch.tensor([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
labels = torch.randint(0, 3, (384,))
data = centers[labels] + 0.3 * torch.randn(384, 2)
model = Denoiser()
ema = copy.deepcopy(model).requires_grad_(False)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(200):
    idx = torch.randint(0, len(data), (64,))
    x0, y = data[idx], labels[idx].clone()
    y[torch.rand(64) < 0.15] = model.null
    t = torch.randint(0, T, (64,))
    noise = torch.randn_like(x0)
    ab = alphas_cum[t][:, None]
    xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
    loss = F.mse_loss(model(xt, t, y), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for pe, pm in zip(ema.parameters(), model.parameters()):
            pe.lerp_(pm, 0.05)
    if step % 40 == 0 or step == 199:
        print(f"step {step:3d} loss {loss.item():.5f}")


@torch.no_grad()
def ddim_sample(net, y, n_steps=10, guidance=2.0, eta=0.0, gen=None):
    x = torch.randn(len(y), 2, generator=gen)
    ts = torch.linspace(T - 1, 0, n_steps).long()
    for i, t in enumerate(ts):
        tt = t.repeat(len(y))
        eps_c = net(x, tt, y)
        eps_u = net(x, tt, torch.full_like(y, net.null))
        eps = eps_u + guidance * (eps_c - eps_u)
        ab = alphas_cum[t]
        ab_prev = alphas_cum[ts[i + 1]] if i + 1 < len(ts) else torch.tensor(1.0)
        x0 = (x - (1 - ab).sqrt() * eps) / ab.sqrt()
        sigma = eta * ((1 - ab_prev) / (1 - ab) * (1 - ab / ab_prev)).sqrt()
        dir_xt = (1 - ab_prev - sigma ** 2).sqrt() * eps
        x = ab_prev.sqrt() * x0 + dir_xt
        if eta > 0:
            x = x + sigma * torch.randn(x.shape, generator=gen)
    return x


y = torch.tensor([0, 0, 1, 1, 2, 2])
for g in (0.0, 1.0, 3.0):
    s = ddim_sample(ema, y, guidance=g, gen=torch.Generator().manual_seed(0))
    err = (s - centers[y]).norm(dim=1)
    print(f"guidance {g}: mean dist to class centre {err.mean().item():.4f}")
print(ddim_sample(model, y, eta=0.5, gen=torch.Generator().manual_seed(1)))
print(timestep_embedding(torch.tensor([0, 10, 49]))[:, :4])
