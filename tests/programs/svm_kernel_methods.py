# Models: a "kernel methods in PyTorch" machine-learning course lab: a linear soft-margin SVM
# trained on the hinge loss by subgradient descent, nn.MultiMarginLoss for the multiclass
# (Crammer-Singer-like) SVM, kernel ridge regression with an RBF kernel from cdist solved by
# Cholesky, and random Fourier features approximating that kernel.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
n = 120
X = torch.cat(
    [
        torch.randn(n // 2, 2) + torch.tensor([1.5, 1.5]),
        torch.randn(n // 2, 2) - torch.tensor([1.5, 1.5]),
    ]
)
y = torch.cat([torch.ones(n // 2), -torch.ones(n // 2)])
print(X.shape, y[:4], y[-4:])

w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
C = 1.0
opt = torch.optim.SGD([w, b], lr=0.05)
for epoch in range(100):
    margins = y * (X @ w + b)
    hinge = torch.clamp(1 - margins, min=0)
    loss = 0.5 * w.dot(w) + C * hinge.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 25 == 0 or epoch == 99:
        acc = ((X @ w + b).sign() == y).float().mean()
        print(
            f"epoch {epoch:3d} loss {loss.item():.5f} acc {acc.item():.3f} "
            f"support {int((margins < 1).sum())}"
        )
print("w", w.data, "b", b.data, "margin width", (2 / w.norm()).item())

Xm = torch.randn(150, 4)
centers = torch.randn(3, 4) * 2
ym = torch.cdist(Xm, centers).argmin(1)
print("multiclass counts", torch.bincount(ym))
model = nn.Linear(4, 3)
crit = nn.MultiMarginLoss(margin=1.0)
crit2 = nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.tensor([1.0, 2.0, 0.5]))
opt = torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=1e-3)
for epoch in range(60):
    out = model(Xm)
    loss = crit(out, ym)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("multi-margin loss", loss.item(), "p=2 weighted", crit2(model(Xm), ym).item())
print("train acc", (model(Xm).argmax(1) == ym).float().mean().item())
print("per-sample", nn.MultiMarginLoss(reduction="none")(model(Xm[:5]), ym[:5]))

xr = torch.linspace(-3, 3, 60, dtype=torch.float64)[:, None]
yr = torch.sin(2 * xr[:, 0]) + 0.1 * torch.randn(60, dtype=torch.float64)


def rbf(a, b, gamma):
    return torch.exp(-gamma * torch.cdist(a, b) ** 2)


xt = torch.linspace(-3, 3, 9, dtype=torch.float64)[:, None]
for gamma, lam in [(0.5, 1e-2), (2.0, 1e-2), (2.0, 1.0)]:
    K = rbf(xr, xr, gamma)
    L = torch.linalg.cholesky(K + lam * torch.eye(60, dtype=torch.float64))
    alpha = torch.cholesky_solve(yr[:, None], L)
    pred = rbf(xt, xr, gamma) @ alpha
    train_mse = ((K @ alpha)[:, 0] - yr).pow(2).mean()
    print(
        f"gamma {gamma} lambda {lam}: train mse {train_mse.item():.6f} "
        f"test mse {(pred[:, 0] - torch.sin(2 * xt[:, 0])).pow(2).mean().item():.6f}"
    )
print("prediction", pred[:, 0])

D, gamma = 300, 2.0
W = torch.randn(1, D, dtype=torch.float64) * math.sqrt(2 * gamma)
phase = torch.rand(D, dtype=torch.float64) * 2 * math.pi
Z = math.sqrt(2.0 / D) * torch.cos(xr @ W + phase)
K_approx = Z @ Z.T
K = rbf(xr, xr, gamma)
print(
    "RFF kernel error",
    (K_approx - K).abs().max().item(),
    (K_approx - K).pow(2).mean().sqrt().item(),
)
theta = torch.linalg.solve(Z.T @ Z + 1e-2 * torch.eye(D, dtype=torch.float64), Z.T @ yr)
Zt = math.sqrt(2.0 / D) * torch.cos(xt @ W + phase)
print("RFF prediction", Zt @ theta)
