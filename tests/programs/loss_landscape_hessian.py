# Models: loss-landscape and sharpness analysis as in public "visualizing the loss landscape"
# and PyHessian-style notebooks: a small MLP trained on a toy task, the top Hessian
# eigenvalues by power iteration on Hessian-vector products (double backward), the Hessian
# trace by Hutchinson's estimator with Rademacher vectors, and 1-d interpolation and
# filter-normalised random-direction slices of the loss.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(256, 5)
y = (X[:, 0] * X[:, 1] + X[:, 2] > 0).long()
model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 2))
init = copy.deepcopy(model)
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
for epoch in range(60):
    loss = F.cross_entropy(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
acc = (model(X).argmax(1) == y).float().mean()
print(f"trained loss {loss.item():.5f} accuracy {acc.item():.4f}")
params = [p for p in model.parameters()]
print("parameter count", sum(p.numel() for p in params))


def hvp(vs):
    loss = F.cross_entropy(model(X), y)
    grads = torch.autograd.grad(loss, params, create_graph=True)
    dot = sum((g * v).sum() for g, v in zip(grads, vs))
    return torch.autograd.grad(dot, params)


def normalise(vs):
    n = torch.sqrt(sum((v * v).sum() for v in vs))
    return [v / n for v in vs]


eigs, found = [], []
for k in range(2):
    v = normalise([torch.randn_like(p) for p in params])
    for it in range(40):
        for u in found:
            c = sum((a * b).sum() for a, b in zip(v, u))
            v = [a - c * b for a, b in zip(v, u)]
        Hv = hvp(v)
        lam = sum((a * b).sum() for a, b in zip(Hv, v)).item()
        v = normalise(Hv)
    eigs.append(lam)
    found.append(v)
print("top Hessian eigenvalues", [round(e, 4) for e in eigs])

traces = []
for _ in range(30):
    z = [torch.randint_like(p, 2) * 2 - 1 for p in params]
    Hz = hvp(z)
    traces.append(sum((a * b).sum() for a, b in zip(Hz, z)).item())
traces = torch.tensor(traces)
print(f"Hutchinson trace {traces.mean().item():.4f} +- {traces.std().item() / 30**0.5:.4f}")

trained = [p.detach().clone() for p in params]
start = [p.detach().clone() for p in init.parameters()]


def loss_at(ws):
    with torch.no_grad():
        for p, w in zip(params, ws):
            p.copy_(w)
        return F.cross_entropy(model(X), y).item()


for alpha in [0.0, 0.25, 0.5, 0.75, 1.0, 1.25]:
    ws = [(1 - alpha) * s + alpha * t for s, t in zip(start, trained)]
    print(f"interpolation alpha {alpha:4.2f} loss {loss_at(ws):.5f}")

direction = [torch.randn_like(w) for w in trained]
direction = [
    d * (w.norm(dim=-1, keepdim=True) / d.norm(dim=-1, keepdim=True)) if w.dim() > 1 else d * 0
    for d, w in zip(direction, trained)
]
alphas = torch.linspace(-1, 1, 9)
slice_losses = torch.tensor(
    [loss_at([w + a * d for w, d in zip(trained, direction)]) for a in alphas]
)
print("filter-normalised slice", slice_losses)
print(
    "minimum at centre:",
    int(slice_losses.argmin()) == 4,
    "sharpness",
    (slice_losses.max() - slice_losses[4]).item(),
)
loss_at(trained)
