# Models: a Glow (Kingma & Dhariwal 2018) building-block notebook as in public glow-pytorch
# repos: ActNorm with data-dependent initialisation, an invertible 1x1 convolution in its LU
# parametrisation (torch.linalg.lu, triu/tril masks, slogdet), squeeze/unsqueeze, an affine
# coupling layer, log-determinant bookkeeping and exact inversion checks.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ActNorm(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, ch, 1, 1))
        self.logs = nn.Parameter(torch.zeros(1, ch, 1, 1))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    def forward(self, x):
        if self.initialized.item() == 0:
            with torch.no_grad():
                mean = x.mean(dim=(0, 2, 3), keepdim=True)
                std = x.std(dim=(0, 2, 3), keepdim=True)
                self.loc.data.copy_(-mean)
                self.logs.data.copy_(torch.log(1 / (std + 1e-6)))
                self.initialized.fill_(1)
        h, w = x.shape[2:]
        return (x + self.loc) * self.logs.exp(), h * w * self.logs.sum()

    def reverse(self, y):
        return y * torch.exp(-self.logs) - self.loc


class InvConv2dLU(nn.Module):
    def __init__(self, ch):
        super().__init__()
        w = torch.linalg.qr(torch.randn(ch, ch))[0]
        P, L, U = torch.linalg.lu(w)
        s = torch.diag(U)
        self.register_buffer("P", P)
        self.register_buffer("sign_s", torch.sign(s))
        self.register_buffer("l_mask", torch.tril(torch.ones(ch, ch), -1))
        self.register_buffer("eye", torch.eye(ch))
        self.L = nn.Parameter(L)
        self.log_s = nn.Parameter(torch.log(torch.abs(s)))
        self.U = nn.Parameter(torch.triu(U, 1))

    def weight(self):
        L = self.L * self.l_mask + self.eye
        U = self.U * self.l_mask.T + torch.diag(self.sign_s * torch.exp(self.log_s))
        return self.P @ L @ U

    def forward(self, x):
        h, w = x.shape[2:]
        W = self.weight()
        return F.conv2d(x, W.unsqueeze(2).unsqueeze(3)), h * w * self.log_s.sum()

    def reverse(self, y):
        W_inv = torch.linalg.inv(self.weight())
        return F.conv2d(y, W_inv[:, :, None, None])


class AffineCoupling(nn.Module):
    def __init__(self, ch, hidden=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(ch // 2, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv2d(hidden, ch, 3, padding=1))
        self.net[-1].weight.data.zero_()
        self.net[-1].bias.data.zero_()

    def forward(self, x):
        a, b = x.chunk(2, 1)
        log_s, t = self.net(a).chunk(2, 1)
        s = torch.sigmoid(log_s + 2)
        return torch.cat([a, (b + t) * s], 1), torch.log(s).flatten(1).sum(1)

    def reverse(self, y):
        a, b = y.chunk(2, 1)
        log_s, t = self.net(a).chunk(2, 1)
        return torch.cat([a, b / torch.sigmoid(log_s + 2) - t], 1)


def squeeze2d(x):
    b, c, h, w = x.shape
    x = x.view(b, c, h // 2, 2, w // 2, 2).permute(0, 1, 3, 5, 2, 4)
    return x.reshape(b, c * 4, h // 2, w // 2)


def unsqueeze2d(x):
    b, c, h, w = x.shape
    x = x.view(b, c // 4, 2, 2, h, w).permute(0, 1, 4, 2, 5, 3)
    return x.reshape(b, c // 4, h * 2, w * 2)


class FlowStep(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.layers = nn.ModuleList([ActNorm(ch), InvConv2dLU(ch), AffineCoupling(ch)])

    def forward(self, x):
        logdet = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet

    def reverse(self, y):
        for layer in reversed(self.layers):
            y = layer.reverse(y)
        return y


x = torch.rand(8, 1, 4, 4) + 0.2 * torch.arange(16.0).view(1, 1, 4, 4) / 16
sq = squeeze2d(x)
print(sq.shape, torch.equal(unsqueeze2d(sq), x))

flow = nn.ModuleList([FlowStep(4), FlowStep(4)])
conv = flow[0].layers[1]
W = conv.weight()
print("W orthogonal-ish:", torch.allclose(W @ W.T, torch.eye(4), atol=1e-5))
sign, logabs = torch.linalg.slogdet(W)
print("slogdet", sign.item(), round(logabs.item(), 5), round(conv.log_s.sum().item(), 5))


def log_prob(x):
    z, logdet = squeeze2d(x), torch.zeros(x.shape[0])
    for step in flow:
        z, ld = step(z)
        logdet = logdet + ld
    prior = (-0.5 * (z ** 2 + math.log(2 * math.pi))).flatten(1).sum(1)
    return prior + logdet, z


lp, z = log_prob(x)
print("initial log p", lp.detach())
print("actnorm loc", flow[0].layers[0].loc.detach().flatten())
opt = torch.optim.Adam(flow.parameters(), lr=5e-3)
for it in range(25):
    lp, _ = log_prob(x + torch.rand_like(x) / 64)
    loss = -lp.mean() / (16 * math.log(2))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(flow.parameters(), 5.0)
    opt.step()
    if it % 5 == 0:
        print(f"iter {it:2d} bits/dim {loss.item():.5f}")

with torch.no_grad():
    _, z = log_prob(x)
    rec = z
    for step in reversed(flow):
        rec = step.reverse(rec)
    rec = unsqueeze2d(rec)
    print("max reconstruction error < 1e-4:", (rec - x).abs().max().item() < 1e-4)
    samples = unsqueeze2d(flow[1].reverse(flow[0].reverse(0.7 * torch.randn(2, 4, 2, 2))))
    print(samples.shape, samples.mean().item() > -10)
