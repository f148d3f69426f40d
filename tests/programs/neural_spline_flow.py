# Models: the rational-quadratic spline coupling flow of "Neural Spline Flows" (Durkan et al.)
# as nflows writes it: bin widths/heights from softmax, derivatives from softplus, searchsorted
# to find bins, the closed-form forward and inverse with log|det J|, and a two-layer coupling
# flow fitted to a 2-D two-moons-like density by maximum likelihood.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

MIN_W = MIN_H = MIN_D = 1e-3


def searchsorted(bin_locations, inputs, eps=1e-6):
    bin_locations = bin_locations.clone()
    bin_locations[..., -1] += eps
    return torch.sum(inputs[..., None] >= bin_locations, dim=-1) - 1


def rq_spline(inputs, uw, uh, ud, inverse=False, left=-3.0, right=3.0, tail_bound=3.0):
    inside = (inputs >= -tail_bound) & (inputs <= tail_bound)
    outputs = torch.zeros_like(inputs)
    logabsdet = torch.zeros_like(inputs)
    outputs[~inside] = inputs[~inside]
    ud = F.pad(ud, (1, 1))
    const = math.log(math.exp(1 - MIN_D) - 1)
    ud[..., 0] = const
    ud[..., -1] = const
    x, uw, uh, ud = inputs[inside], uw[inside], uh[inside], ud[inside]
    nb = uw.shape[-1]
    widths = MIN_W + (1 - MIN_W * nb) * F.softmax(uw, dim=-1)
    cumw = F.pad(torch.cumsum(widths, dim=-1), (1, 0), value=0.0)
    cumw = (right - left) * cumw + left
    cumw[..., 0], cumw[..., -1] = left, right
    widths = cumw[..., 1:] - cumw[..., :-1]
    derivs = MIN_D + F.softplus(ud)
    heights = MIN_H + (1 - MIN_H * nb) * F.softmax(uh, dim=-1)
    cumh = F.pad(torch.cumsum(heights, dim=-1), (1, 0), value=0.0)
    cumh = (right - left) * cumh + left
    cumh[..., 0], cumh[..., -1] = left, right
    heights = cumh[..., 1:] - cumh[..., :-1]
    idx = searchsorted(cumh if inverse else cumw, x)[..., None]
    in_cw = cumw.gather(-1, idx)[..., 0]
    in_w = widths.gather(-1, idx)[..., 0]
    in_ch = cumh.gather(-1, idx)[..., 0]
    delta = heights / widths
    in_delta = delta.gather(-1, idx)[..., 0]
    in_d = derivs.gather(-1, idx)[..., 0]
    in_d1 = derivs[..., 1:].gather(-1, idx)[..., 0]
    in_h = heights.gather(-1, idx)[..., 0]
    if inverse:
        a = (x - in_ch) * (in_d + in_d1 - 2 * in_delta) + in_h * (in_delta - in_d)
        b = in_h * in_d - (x - in_ch) * (in_d + in_d1 - 2 * in_delta)
        c = -in_delta * (x - in_ch)
        disc = b.pow(2) - 4 * a * c
        root = (2 * c) / (-b - torch.sqrt(disc))
        out = root * in_w + in_cw
        t1m = root * (1 - root)
        denom = in_delta + (in_d + in_d1 - 2 * in_delta) * t1m
        dnum = in_delta.pow(2) * (in_d1 * root.pow(2) + 2 * in_delta * t1m
                                  + in_d * (1 - root).pow(2))
        lad = -(torch.log(dnum) - 2 * torch.log(denom))
    else:
        theta = (x - in_cw) / in_w
        t1m = theta * (1 - theta)
        num = in_h * (in_delta * theta.pow(2) + in_d * t1m)
        denom = in_delta + (in_d + in_d1 - 2 * in_delta) * t1m
        out = in_ch + num / denom
        dnum = in_delta.pow(2) * (in_d1 * theta.pow(2) + 2 * in_delta * t1m
                                  + in_d * (1 - theta).pow(2))
        lad = torch.log(dnum) - 2 * torch.log(denom)
    outputs[inside] = out
    logabsdet[inside] = lad
    return outputs, logabsdet


class Coupling(nn.Module):
    def __init__(self, flip, bins=6):
        super().__init__()
        self.flip, self.bins = flip, bins
        self.net = nn.Sequential(nn.Linear(1, 24), nn.Tanh(), nn.Linear(24, 3 * bins - 1))

    def forward(self, x, inverse=False):
        a, b = (x[:, 1:], x[:, :1]) if self.flip else (x[:, :1], x[:, 1:])
        p = self.net(a)
        uw, uh, ud = p[:, :self.bins], p[:, self.bins:2 * self.bins], p[:, 2 * self.bins:]
        y, lad = rq_spline(b[:, 0], uw, uh, ud, inverse=inverse)
        y = y[:, None]
        out = torch.cat([y, a], 1) if self.flip else torch.cat([a, y], 1)
        return out, lad


torch.manual_seed(0)
n = 256
t = torch.rand(n) * math.pi
moons = torch.stack([torch.cos(t), torch.sin(t) - 0.25], 1)
moons[n // 2:] = torch.stack([1 - torch.cos(t[n // 2:]), 0.25 - torch.sin(t[n // 2:])], 1)
data = (moons - moons.mean(0)) / moons.std(0) + 0.05 * torch.randn(n, 2)
flows = nn.ModuleList([Coupling(False), Coupling(True), Coupling(False)])
base = torch.distributions.Normal(0.0, 1.0)
opt = torch.optim.Adam(flows.parameters(), lr=5e-3)


def log_prob(x):
    total = torch.zeros(x.shape[0])
    for f in flows:
        x, lad = f(x)
        total = total + lad
    return base.log_prob(x).sum(1) + total


for step in range(50):
    opt.zero_grad()
    loss = -log_prob(data).mean()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 49:
        print(f"step {step:3d} nll {loss.item():.5f}")
with torch.no_grad():
    z = data[:5]
    fwd = z
    lads = []
    for f in flows:
        fwd, lad = f(fwd)
        lads.append(lad)
    back = fwd
    for f in reversed(flows):
        back, _ = f(back, inverse=True)
    print(fwd)
    print(torch.stack(lads))
    print("reconstruction error", (back - z).abs().max().item() < 1e-4)
    torch.manual_seed(3)
    s = torch.randn(6, 2)
    for f in reversed(flows):
        s, _ = f(s, inverse=True)
    print(s)
    grid = torch.linspace(-4, 4, 9)
    u = torch.zeros(9, 5)
    o, ld = rq_spline(grid, u, u, torch.zeros(9, 4))
    print(o, ld)
print(searchsorted(torch.tensor([0.0, 1.0, 2.0, 3.0]), torch.tensor([-1.0, 0.0, 1.5, 3.0])))
