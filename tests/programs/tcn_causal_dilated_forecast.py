# Models: a Temporal Convolutional Network (Bai et al. reference code): causal dilated Conv1d
# with Chomp1d, weight_norm parametrization, residual 1x1 downsample, receptive field, and a
# one-step-ahead forecast of a noisy sine trained for a few epochs.
import math

import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm

torch.manual_seed(0)


class Chomp1d(nn.Module):
    def __init__(self, chomp_size):
        super().__init__()
        self.chomp_size = chomp_size

    def forward(self, x):
        return x[:, :, : -self.chomp_size].contiguous()


class TemporalBlock(nn.Module):
    def __init__(self, n_inputs, n_outputs, kernel_size, stride, dilation, padding, dropout=0.0):
        super().__init__()
        self.conv1 = weight_norm(
            nn.Conv1d(
                n_inputs, n_outputs, kernel_size, stride=stride, padding=padding, dilation=dilation
            )
        )
        self.chomp1 = Chomp1d(padding)
        self.conv2 = weight_norm(
            nn.Conv1d(
                n_outputs, n_outputs, kernel_size, stride=stride, padding=padding, dilation=dilation
            )
        )
        self.chomp2 = Chomp1d(padding)
        self.net = nn.Sequential(
            self.conv1,
            self.chomp1,
            nn.ReLU(),
            nn.Dropout(dropout),
            self.conv2,
            self.chomp2,
            nn.ReLU(),
            nn.Dropout(dropout),
        )
        self.downsample = nn.Conv1d(n_inputs, n_outputs, 1) if n_inputs != n_outputs else None
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.net(x)
        res = x if self.downsample is None else self.downsample(x)
        return self.relu(out + res)


class TCN(nn.Module):
    def __init__(self, channels=(8, 8, 8), k=3):
        super().__init__()
        layers = []
        for i, c in enumerate(channels):
            d = 2**i
            cin = 1 if i == 0 else channels[i - 1]
            layers.append(TemporalBlock(cin, c, k, 1, d, (k - 1) * d))
        self.network = nn.Sequential(*layers)
        self.linear = nn.Linear(channels[-1], 1)
        self.rf = 1 + 2 * (k - 1) * sum(2**i for i in range(len(channels)))

    def forward(self, x):
        return self.linear(self.network(x).transpose(1, 2)).squeeze(-1)


model = TCN()
print(model.network[0])
print("receptive field", model.rf)
t = torch.arange(0, 64, dtype=torch.float32)
series = torch.sin(2 * math.pi * t / 16) + 0.1 * torch.randn(64)
x = series[:-1].view(1, 1, -1)
y = series[1:].view(1, -1)
# causality: changing the future doesn't change past outputs
x2 = x.clone()
x2[..., 40:] += 5
with torch.no_grad():
    print(
        torch.equal(model(x)[:, :40], model(x2)[:, :40]),
        torch.equal(model(x)[:, 40:], model(x2)[:, 40:]),
    )
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for ep in range(25):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if ep % 5 == 0:
        print(f"epoch {ep:2d} mse {loss.item():.6f}")
print(list(dict(model.network[0].conv1.named_parameters())))
print(model.network[0].conv1.parametrizations.weight.original0.shape)
with torch.no_grad():
    print(model(x)[0, -5:], y[0, -5:])
