# Models: a differential-privacy tutorial (DP-SGD, Abadi et al. 2016, Opacus-free): per-sample
# gradients with torch.func (functional_call + vmap(grad)), checked against a loop of
# single-example backward passes, per-sample clipping to a norm bound, Gaussian noise, Poisson
# sampling of batches, and a simple privacy accounting print-out.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)
N, D = 200, 10
w_true = torch.randn(D)
X = torch.randn(N, D)
y = (X @ w_true + 0.3 * torch.randn(N) > 0).long()
print("class balance", torch.bincount(y).tolist())

model = nn.Sequential(nn.Linear(D, 16), nn.Tanh(), nn.Linear(16, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def loss_fn(params, buffers, x, t):
    out = functional_call(model, (params, buffers), (x.unsqueeze(0),))
    return F.cross_entropy(out, t.unsqueeze(0))


per_sample = vmap(grad(loss_fn), in_dims=(None, None, 0, 0))
g = per_sample(params, buffers, X[:4], y[:4])
print({k: tuple(v.shape) for k, v in g.items()})

# the same per-sample gradients from a loop of backward passes
for i in range(4):
    model.zero_grad()
    F.cross_entropy(model(X[i:i + 1]), y[i:i + 1]).backward()
    same = all(torch.allclose(g[k][i], p.grad, atol=1e-6) for k, p in model.named_parameters())
    print(f"sample {i} matches loop: {same}")

C_clip, sigma, lr, q = 1.0, 1.1, 0.5, 0.2
steps = 30
opt_params = {k: v.clone() for k, v in params.items()}
for step in range(steps):
    mask = torch.rand(N) < q
    xb, yb = X[mask], y[mask]
    gs = per_sample(opt_params, buffers, xb, yb)
    norms = torch.sqrt(sum(v.flatten(1).pow(2).sum(1) for v in gs.values()))
    factor = (C_clip / (norms + 1e-6)).clamp(max=1.0)
    for k in opt_params:
        clipped = torch.einsum("i,i...->...", factor, gs[k])
        noise = torch.normal(0.0, sigma * C_clip, size=clipped.shape)
        opt_params[k] = opt_params[k] - lr * (clipped + noise) / max(int(mask.sum()), 1)
    if step % 6 == 0:
        with torch.no_grad():
            logits = functional_call(model, (opt_params, buffers), (X,))
            acc = (logits.argmax(1) == y).float().mean()
            loss = F.cross_entropy(logits, y)
        print(f"step {step:2d} batch {int(mask.sum()):3d} "
              f"clipped {(norms > C_clip).sum().item():3d} "
              f"median norm {norms.median().item():.4f} loss {loss.item():.5f} "
              f"acc {acc.item():.3f}")

# a crude (strong composition) epsilon bound, printed the way tutorials do
delta = 1e-5
eps_step = math.sqrt(2 * math.log(1.25 / delta)) / sigma
eps_total = eps_step * q * math.sqrt(steps * math.log(1 / delta))
print(f"per-step eps {eps_step:.4f} total eps ~ {eps_total:.3f} at delta {delta}")
print("noise multiplier", torch.tensor(sigma), "clip", torch.tensor(C_clip, dtype=torch.float64))
