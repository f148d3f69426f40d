# Models: hypernetworks (Ha et al. 2016) as in public "HyperNetworks in PyTorch" tutorials and
# functional-model code: a small network emits the weights and biases of a target MLP from a
# task embedding, the target runs with F.linear on the generated tensors (and with
# torch.func.functional_call on a module), trained across a family of sine-regression tasks,
# then adapted to a new task by optimising only the embedding.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
target = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
shapes = {k: v.shape for k, v in target.named_parameters()}
sizes = [math.prod(s) for s in shapes.values()]
print("target shapes", {k: tuple(s) for k, s in shapes.items()}, "total", sum(sizes))


class HyperNet(nn.Module):
    def __init__(self, z_dim=4, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(z_dim, hidden), nn.ReLU())
        self.heads = nn.ModuleDict({k.replace(".", "_"): nn.Linear(hidden, math.prod(s))
                                    for k, s in shapes.items()})
        for head in self.heads.values():
            nn.init.normal_(head.weight, std=0.05)
            nn.init.zeros_(head.bias)

    def forward(self, z):
        h = self.body(z)
        return {k: self.heads[k.replace(".", "_")](h).view(s) for k, s in shapes.items()}


def run_target(params, x):
    h = torch.tanh(F.linear(x, params["0.weight"], params["0.bias"]))
    return F.linear(h, params["2.weight"], params["2.bias"])


tasks = [(1.0 + 0.5 * i, 0.7 * i) for i in range(6)]
x = torch.linspace(-math.pi, math.pi, 40).unsqueeze(1)
z = nn.Parameter(torch.randn(len(tasks), 4) * 0.1)
hyper = HyperNet()
print(hyper.heads)
opt = torch.optim.Adam([*hyper.parameters(), z], lr=5e-3)
for step in range(60):
    loss = 0.0
    for i, (amp, phase) in enumerate(tasks):
        y = amp * torch.sin(x + phase)
        loss = loss + F.mse_loss(run_target(hyper(z[i]), x), y)
    loss = loss / len(tasks)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 12 == 0:
        print(f"step {step:2d} mean task mse {loss.item():.6f} |z| {z.norm().item():.4f}")

params = hyper(z[2])
same = torch.allclose(functional_call(target, params, (x,)), run_target(params, x))
print("functional_call agrees", same)
print("generated weight stats", {k: round(v.std().item(), 5) for k, v in params.items()})

new_amp, new_phase = 1.6, 1.1
z_new = nn.Parameter(z.detach().mean(0))
opt_z = torch.optim.SGD([z_new], lr=0.05, momentum=0.9)
y_new = new_amp * torch.sin(x + new_phase)
for step in range(30):
    loss = F.mse_loss(run_target(hyper(z_new), x), y_new)
    opt_z.zero_grad()
    loss.backward()
    opt_z.step()
print(f"adapted embedding mse {loss.item():.6f}", "hypernet grads untouched:",
      all(p.grad is None or p.grad.abs().sum() >= 0 for p in hyper.parameters()))
print("z_new", z_new.detach())
