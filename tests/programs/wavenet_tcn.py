# Models: a WaveNet / temporal convolutional network (TCN) tutorial: causal Conv1d with left
# padding and growing dilation, gated tanh*sigmoid activations, residual and skip connections,
# weight_norm on the convolutions, receptive-field arithmetic, and next-step prediction of a
# noisy sine wave with teacher forcing and an autoregressive rollout.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import weight_norm

torch.manual_seed(0)


class CausalConv1d(nn.Conv1d):
    def __init__(self, cin, cout, kernel_size, dilation=1):
        super().__init__(cin, cout, kernel_size, dilation=dilation, padding=0)
        self.left = (kernel_size - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))


class GatedBlock(nn.Module):
    def __init__(self, channels, dilation):
        super().__init__()
        self.filt = CausalConv1d(channels, channels, 2, dilation)
        self.gate = CausalConv1d(channels, channels, 2, dilation)
        self.res = nn.Conv1d(channels, channels, 1)
        self.skip = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        h = torch.tanh(self.filt(x)) * torch.sigmoid(self.gate(x))
        return x + self.res(h), self.skip(h)


class WaveNet(nn.Module):
    def __init__(self, channels=8, dilations=(1, 2, 4, 8)):
        super().__init__()
        self.inp = CausalConv1d(1, channels, 2)
        self.blocks = nn.ModuleList(GatedBlock(channels, d) for d in dilations)
        self.out = nn.Sequential(
            nn.ReLU(), nn.Conv1d(channels, channels, 1), nn.ReLU(), nn.Conv1d(channels, 1, 1)
        )
        self.receptive_field = 2 + sum(dilations)

    def forward(self, x):
        x = self.inp(x)
        skips = 0
        for block in self.blocks:
            x, s = block(x)
            skips = skips + s
        return self.out(skips)


model = WaveNet()
print(model.blocks[0])
print("receptive field:", model.receptive_field)
print("params:", sum(p.numel() for p in model.parameters()))

# causality check: changing a future sample must not change earlier outputs
x = torch.randn(1, 1, 32)
y1 = model(x)
x2 = x.clone()
x2[0, 0, 20] += 5.0
y2 = model(x2)
changed = (y1 - y2).abs().squeeze() > 1e-7
print("first changed output index:", changed.nonzero()[0].item(), "shape", tuple(y1.shape))

# receptive field by gradient
x = torch.randn(1, 1, 40, requires_grad=True)
model(x)[0, 0, -1].backward()
print("inputs that influence the last output:", (x.grad[0, 0] != 0).sum().item())

t = torch.arange(0, 200, dtype=torch.float32)
series = torch.sin(2 * math.pi * t / 25) + 0.1 * torch.randn(200)
inputs, targets = series[:-1].view(1, 1, -1), series[1:].view(1, 1, -1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(60):
    opt.zero_grad()
    pred = model(inputs)
    loss = F.mse_loss(pred[..., model.receptive_field :], targets[..., model.receptive_field :])
    loss.backward()
    opt.step()
    if step % 15 == 0 or step == 59:
        print(f"step {step:2d} mse {loss.item():.5f}")

model.eval()
with torch.no_grad():
    context = series[:100].clone()
    for _ in range(10):
        nxt = model(context.view(1, 1, -1))[0, 0, -1]
        context = torch.cat([context, nxt.view(1)])
    rollout = context[100:]
    print("rollout:", rollout)
    print("truth:  ", torch.sin(2 * math.pi * t[100:110] / 25))
    print("rollout mae:", (rollout - torch.sin(2 * math.pi * t[100:110] / 25)).abs().mean())

tcn = weight_norm(nn.Conv1d(4, 4, 3, dilation=2, padding=4))
print(sorted(n for n, _ in tcn.named_parameters()))
print(tcn.weight_g.shape, tcn.weight_v.shape)
out = tcn(torch.randn(2, 4, 10))[..., :-4]
print(out.shape, out.grad_fn.name())
