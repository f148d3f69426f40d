# Models: N-BEATS (Oreshkin et al. 2020) for univariate forecasting as in the public PyTorch
# ports: doubly residual stacks of fully connected blocks whose backcast is subtracted from
# the input and whose forecasts are summed; an interpretable trend block (polynomial basis
# from linspace powers) and seasonality block (Fourier basis), a generic block, sliding
# windows made with Tensor.unfold, and sMAPE/MASE on a held-out horizon.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

L_IN, H = 24, 8


class Block(nn.Module):
    def __init__(self, theta_dim, basis_b=None, basis_f=None, hidden=64):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(L_IN, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                                nn.ReLU())
        self.theta = nn.Linear(hidden, 2 * theta_dim, bias=False)
        self.basis_b, self.basis_f = basis_b, basis_f
        if basis_b is None:
            self.theta = nn.Linear(hidden, L_IN + H)

    def forward(self, x):
        th = self.theta(self.fc(x))
        if self.basis_b is None:
            return th[:, :L_IN], th[:, L_IN:]
        tb, tf = th.chunk(2, -1)
        return tb @ self.basis_b, tf @ self.basis_f


def trend_basis(p=3):
    tb = torch.linspace(0, 1, L_IN + H)[:L_IN]
    tf = torch.linspace(0, 1, L_IN + H)[L_IN:]
    return (torch.stack([tb ** i for i in range(p)]), torch.stack([tf ** i for i in range(p)]))


def seasonality_basis(harmonics=3, period=12):
    t = torch.arange(L_IN + H, dtype=torch.float32)
    rows = [torch.ones(L_IN + H)]
    for k in range(1, harmonics + 1):
        rows += [torch.cos(2 * math.pi * k * t / period), torch.sin(2 * math.pi * k * t / period)]
    B = torch.stack(rows)
    return B[:, :L_IN], B[:, L_IN:]


class NBeats(nn.Module):
    def __init__(self):
        super().__init__()
        tb, tf = trend_basis()
        sb, sf = seasonality_basis()
        self.blocks = nn.ModuleList([Block(3, tb, tf), Block(7, sb, sf), Block(0)])

    def forward(self, x):
        level = x[:, -1:].detach()
        residual, forecast = x - level, 0
        parts = []
        for blk in self.blocks:
            b, f = blk(residual)
            residual = residual - b
            forecast = forecast + f
            parts.append(f)
        return forecast + level, parts


torch.manual_seed(0)
T = 300
t = torch.arange(T, dtype=torch.float32)
y = 0.02 * t + 2 * torch.sin(2 * math.pi * t / 12) + 0.3 * torch.randn(T)
windows = y.unfold(0, L_IN + H, 1)
print("windows", tuple(windows.shape), "first target", windows[0, L_IN:].tolist()[:3])
train, test = windows[:200], windows[250:]
model = NBeats()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(20):
    perm = torch.randperm(len(train))
    for i in range(0, len(train), 32):
        w = train[perm[i:i + 32]]
        pred, _ = model(w[:, :L_IN])
        loss = F.l1_loss(pred, w[:, L_IN:])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch:2d} train MAE {loss.item():.5f}")

with torch.no_grad():
    pred, parts = model(test[:, :L_IN])
    target = test[:, L_IN:]
    smape = 200 * ((pred - target).abs() / (pred.abs() + target.abs())).mean()
    naive = (y[12:250] - y[:238]).abs().mean()
    mase = (pred - target).abs().mean() / naive
print(f"test sMAPE {smape.item():.4f} MASE {mase.item():.4f}")
print("trend part of first forecast", parts[0][0])
print("seasonal part of first forecast", parts[1][0])
