# Models: a RealNVP normalizing flow on 2-d "two moons"-style data (the normalizing-flow
# tutorials): affine coupling layers with alternating binary masks, scale/translation MLPs with
# tanh-bounded log-scales, the change-of-variables log-likelihood under a standard normal base
# (log_prob from torch.distributions), training with Adam and gradient clipping, and sampling by
# inverting the couplings.
import math

import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal

torch.manual_seed(42)


def two_moons(n):
    t = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], 1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], 1)
    pick = (torch.rand(n) < 0.5).unsqueeze(1)
    return torch.where(pick, upper, lower) + 0.05 * torch.randn(n, 2)


class Coupling(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2), nn.Tanh())
        self.t = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x):
        xm = x * self.mask
        s = self.s(xm) * (1 - self.mask)
        t = self.t(xm) * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)

    def inverse(self, y):
        ym = y * self.mask
        s = self.s(ym) * (1 - self.mask)
        t = self.t(ym) * (1 - self.mask)
        return ym + (1 - self.mask) * ((y - t) * torch.exp(-s))


class RealNVP(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0])
                 for i in range(n_layers)]
        self.layers = nn.ModuleList(Coupling(m) for m in masks)
        self.base = MultivariateNormal(torch.zeros(2), torch.eye(2))

    def log_prob(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return self.base.log_prob(x) + log_det

    def sample(self, n):
        z = self.base.sample((n,))
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z


flow = RealNVP()
opt = torch.optim.Adam(flow.parameters(), lr=5e-3)
for step in range(101):
    x = two_moons(128)
    loss = -flow.log_prob(x).mean()
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(flow.parameters(), max_norm=5.0)
    opt.step()
    if step % 20 == 0:
        print(f"step {step:3d} nll {loss.item():.4f}")

with torch.no_grad():
    test = two_moons(512)
    print("test nll", round(-flow.log_prob(test).mean().item(), 4))
    samples = flow.sample(6)
    print("samples", samples)
    x = two_moons(4)
    y = x
    for layer in flow.layers:
        y, _ = layer(y)
    for layer in reversed(flow.layers):
        y = layer.inverse(y)
    print("round trip error", (y - x).abs().max().item() < 1e-5)
