# Models: conditional flow matching / rectified flow (Lipman et al. 2023, Liu et al. 2023) on a
# 2D toy distribution, in the style of the short public tutorials: straight interpolation
# x_t = (1 - t) x0 + t x1 with target velocity x1 - x0, a sinusoidal time embedding, class
# conditioning with label dropout for classifier-free guidance, Euler and midpoint ODE
# sampling under torch.no_grad, and sample statistics per class.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def two_moons(n, noise=0.05):
    half = n // 2
    t = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(t[:half]), torch.sin(t[:half])], 1)
    lower = torch.stack([1 - torch.cos(t[half:]), 0.5 - torch.sin(t[half:])], 1)
    x = torch.cat([upper, lower]) + noise * torch.randn(n, 2)
    y = torch.cat([torch.zeros(half, dtype=torch.long), torch.ones(n - half, dtype=torch.long)])
    return x, y


def time_embedding(t, dim=16):
    half = dim // 2
    freqs = torch.exp(-math.log(1000.0) * torch.arange(half) / half)
    args = t[:, None] * freqs[None] * 100
    return torch.cat([torch.sin(args), torch.cos(args)], -1)


class VelocityNet(nn.Module):
    def __init__(self, classes=2, hidden=64):
        super().__init__()
        self.label = nn.Embedding(classes + 1, 16)  # index `classes` = unconditional
        self.net = nn.Sequential(nn.Linear(2 + 16 + 16, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x, t, y):
        return self.net(torch.cat([x, time_embedding(t), self.label(y)], -1))


torch.manual_seed(0)
data, labels = two_moons(256)
print("data mean", data.mean(0), "std", data.std(0))
model = VelocityNet()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=150, eta_min=1e-4)
p_uncond = 0.2
for step in range(150):
    idx = torch.randint(0, len(data), (64,))
    x1, y = data[idx], labels[idx].clone()
    y[torch.rand(64) < p_uncond] = 2
    x0 = torch.randn_like(x1)
    t = torch.rand(64)
    xt = (1 - t[:, None]) * x0 + t[:, None] * x1
    loss = F.mse_loss(model(xt, t, y), x1 - x0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 30 == 0 or step == 149:
        print(f"step {step:3d} lr {sched.get_last_lr()[0]:.6f} loss {loss.item():.5f}")


@torch.no_grad()
def sample(y, steps=20, guidance=1.0, method="euler"):
    x = torch.randn(len(y), 2)
    dt = 1.0 / steps
    uncond = torch.full_like(y, 2)

    def v(x, t):
        tt = torch.full((len(x),), t)
        vc, vu = model(x, tt, y), model(x, tt, uncond)
        return vu + guidance * (vc - vu)

    for i in range(steps):
        t = i * dt
        if method == "euler":
            x = x + dt * v(x, t)
        else:
            x_mid = x + 0.5 * dt * v(x, t)
            x = x + dt * v(x_mid, t + 0.5 * dt)
    return x


torch.manual_seed(1)
ys = torch.tensor([0] * 100 + [1] * 100)
for method, g in [("euler", 1.0), ("midpoint", 1.0), ("euler", 2.0)]:
    s = sample(ys, method=method, guidance=g)
    m0, m1 = s[:100].mean(0), s[100:].mean(0)
    print(f"{method:8s} w={g} class0 mean {m0.tolist()} class1 mean "
          f"{[round(v, 4) for v in m1.tolist()]}")
    d = torch.cdist(s, data).min(1).values
    print(f"          mean distance to data {d.mean().item():.5f} within 0.1: "
          f"{(d < 0.1).float().mean().item():.3f}")

with torch.no_grad():
    x0 = torch.randn(4, 2)
    t = torch.full((4,), 0.5)
    print("velocity field at t=0.5", model(x0, t, torch.tensor([0, 1, 2, 2])))
