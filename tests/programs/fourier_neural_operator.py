# Models: the Fourier Neural Operator (Li et al. 2021, the neuraloperator repository's
# SpectralConv1d / SpectralConv2d) learning a solution operator: lift with a Linear, spectral
# convolutions (rfft, complex weights multiplied on the lowest modes with einsum, irfft with
# n=) plus pointwise 1x1 convolutions, GELU, project back. Trained on the 1D heat equation's
# solution map u0 -> u(t) computed exactly in Fourier space (30 grid points, evaluated
# zero-shot on 60); a 2D layer with rfft2/irfft2.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SpectralConv1d(nn.Module):
    def __init__(self, cin, cout, modes):
        super().__init__()
        self.modes = modes
        scale = 1 / (cin * cout)
        self.weights = nn.Parameter(scale * torch.rand(cin, cout, modes, dtype=torch.cfloat))

    def forward(self, x):
        b, n = x.shape[0], x.shape[-1]
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(b, self.weights.shape[1], n // 2 + 1, dtype=torch.cfloat)
        out_ft[:, :, :self.modes] = torch.einsum("bix,iox->box", x_ft[:, :, :self.modes],
                                                 self.weights)
        return torch.fft.irfft(out_ft, n=n)


class FNO1d(nn.Module):
    def __init__(self, modes=6, width=12, layers=2):
        super().__init__()
        self.lift = nn.Linear(2, width)
        self.spectral = nn.ModuleList(SpectralConv1d(width, width, modes) for _ in range(layers))
        self.pointwise = nn.ModuleList(nn.Conv1d(width, width, 1) for _ in range(layers))
        self.proj = nn.Sequential(nn.Linear(width, 32), nn.GELU(), nn.Linear(32, 1))

    def forward(self, u0, grid):
        x = torch.cat([u0.unsqueeze(-1), grid.expand(u0.shape[0], -1).unsqueeze(-1)], -1)
        x = self.lift(x).permute(0, 2, 1)
        for i, (sc, pw) in enumerate(zip(self.spectral, self.pointwise)):
            x = sc(x) + pw(x)
            if i < len(self.spectral) - 1:
                x = F.gelu(x)
        return self.proj(x.permute(0, 2, 1)).squeeze(-1)


def heat_solution(u0, t=0.02, nu=1.0):
    n = u0.shape[-1]
    k = torch.fft.rfftfreq(n, d=1.0 / n)
    decay = torch.exp(-nu * (2 * math.pi * k) ** 2 * t)
    return torch.fft.irfft(torch.fft.rfft(u0) * decay, n=n)


def random_fields(b, n, modes=5):
    xs = torch.linspace(0, 1, n + 1)[:-1]
    coef = torch.randn(b, modes, 2) / torch.arange(1, modes + 1).float().unsqueeze(-1)
    k = torch.arange(1, modes + 1).float()
    phase = 2 * math.pi * k[:, None] * xs[None, :]
    return (coef[..., 0:1] * torch.sin(phase) + coef[..., 1:2] * torch.cos(phase)).sum(1)


torch.manual_seed(0)
n = 30
grid = torch.linspace(0, 1, n + 1)[:-1].unsqueeze(0)
u_train = random_fields(48, n)
v_train = heat_solution(u_train)
u_test = random_fields(8, n)
v_test = heat_solution(u_test)
kept = v_train.pow(2).sum() / u_train.pow(2).sum()
print("data", tuple(u_train.shape), "energy kept", kept.item())

model = FNO1d()
print("parameters", sum(p.numel() for p in model.parameters()),
      "complex", [n_ for n_, p in model.named_parameters() if p.is_complex()])
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=40, gamma=0.5)
for epoch in range(80):
    perm = torch.randperm(48)
    total = 0.0
    for i in range(0, 48, 16):
        idx = perm[i:i + 16]
        pred = model(u_train[idx], grid)
        loss = F.mse_loss(pred, v_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    sched.step()
    if epoch % 16 == 0 or epoch == 79:
        with torch.no_grad():
            rel = ((model(u_test, grid) - v_test).norm(dim=1) / v_test.norm(dim=1)).mean()
        print(f"epoch {epoch:2d} train mse {total / 3:.6f} test rel L2 {rel.item():.5f}")

w = model.spectral[0].weights
print("weight grad dtype", w.grad.dtype, "abs mean", w.grad.abs().mean().item())
print("mode magnitudes", w.detach().abs().mean((0, 1)))

# super-resolution: the same operator evaluated on a finer grid
n2 = 60
grid2 = torch.linspace(0, 1, n2 + 1)[:-1].unsqueeze(0)
u_fine = random_fields(4, n2)
with torch.no_grad():
    exact = heat_solution(u_fine)
    err = (model(u_fine, grid2) - exact).norm(dim=1) / exact.norm(dim=1)
print("zero-shot 60-point rel L2", err)


class SpectralConv2d(nn.Module):
    def __init__(self, cin, cout, m1, m2):
        super().__init__()
        self.m1, self.m2 = m1, m2
        scale = 1 / (cin * cout)
        self.w1 = nn.Parameter(scale * torch.rand(cin, cout, m1, m2, dtype=torch.cfloat))
        self.w2 = nn.Parameter(scale * torch.rand(cin, cout, m1, m2, dtype=torch.cfloat))

    def forward(self, x):
        b, _, h, w = x.shape
        x_ft = torch.fft.rfft2(x)
        out = torch.zeros(b, self.w1.shape[1], h, w // 2 + 1, dtype=torch.cfloat)
        out[:, :, :self.m1, :self.m2] = torch.einsum("bixy,ioxy->boxy",
                                                     x_ft[:, :, :self.m1, :self.m2], self.w1)
        out[:, :, -self.m1:, :self.m2] = torch.einsum("bixy,ioxy->boxy",
                                                      x_ft[:, :, -self.m1:, :self.m2], self.w2)
        return torch.fft.irfft2(out, s=(h, w))


layer = SpectralConv2d(3, 4, 3, 3)
img = torch.randn(2, 3, 12, 12, requires_grad=True)
out = layer(img)
out.pow(2).mean().backward()
print("2D out", tuple(out.shape), out.sum().item(), "input grad", img.grad.abs().sum().item())
print("w1 grad", tuple(layer.w1.grad.shape), "|grad| per mode", layer.w1.grad.abs().sum((0, 1)))
