# Models: a kernel methods lecture: RBF/Laplacian/polynomial Gram matrices with cdist, kernel ridge
# regression in closed form with leave-one-out error via the hat matrix, kernel PCA with centering,
# random Fourier features approximating the RBF kernel, and an MMD two-sample test with a
# permutation p-value.
import math

import torch

torch.manual_seed(49)
X = torch.rand(60, 2, dtype=torch.float64) * 4 - 2
y = torch.sin(X[:, 0]) * torch.cos(X[:, 1]) + 0.05 * torch.randn(60, dtype=torch.float64)


def rbf(a, b, gamma):
    return torch.exp(-gamma * torch.cdist(a, b) ** 2)


def laplacian(a, b, gamma):
    return torch.exp(-gamma * torch.cdist(a, b, p=1))


def poly(a, b, degree):
    return (a @ b.T + 1) ** degree


for name, k in [
    ("rbf", lambda a, b: rbf(a, b, 1.0)),
    ("laplacian", lambda a, b: laplacian(a, b, 0.5)),
    ("poly3", lambda a, b: poly(a, b, 3)),
]:
    K = k(X, X)
    for lam in [1e-3, 1e-1]:
        Hm = K @ torch.linalg.inv(K + lam * torch.eye(60, dtype=torch.float64))
        resid = y - Hm @ y
        loo = ((resid / (1 - Hm.diagonal())) ** 2).mean()
        print(
            f"{name:9s} lambda={lam:<6} train mse {(resid**2).mean().item():.6f} LOO mse "
            f"{loo.item():.6f}"
        )
K = rbf(X, X, 0.5)
n = K.shape[0]
one = torch.full((n, n), 1.0 / n, dtype=torch.float64)
Kc = K - one @ K - K @ one + one @ K @ one
vals, vecs = torch.linalg.eigh(Kc)
vals, vecs = vals.flip(0), vecs.flip(1)
print("kernel PCA top eigenvalues", vals[:4].numpy().round(5).tolist())
proj = vecs[:, :2] * vals[:2].sqrt()
print(
    "projection variance",
    proj.var(0, unbiased=False).numpy().round(5).tolist(),
    "vs eig/n",
    (vals[:2] / n).numpy().round(5).tolist(),
)
D = 2000
gamma = 0.5
Wf = torch.randn(2, D, dtype=torch.float64) * math.sqrt(2 * gamma)
bf = torch.rand(D, dtype=torch.float64) * 2 * math.pi
Z = math.sqrt(2.0 / D) * torch.cos(X @ Wf + bf)
print("random features max abs error", round((Z @ Z.T - K).abs().max().item(), 3))
P = torch.randn(50, 2, dtype=torch.float64)
Q = torch.randn(50, 2, dtype=torch.float64) * torch.tensor([1.0, 1.6], dtype=torch.float64)


def mmd2(a, b, g=0.5):
    kaa, kbb, kab = rbf(a, a, g), rbf(b, b, g), rbf(a, b, g)
    m = a.shape[0]
    return (
        (kaa.sum() - kaa.trace()) / (m * (m - 1))
        + (kbb.sum() - kbb.trace()) / (m * (m - 1))
        - 2 * kab.mean()
    )


stat = mmd2(P, Q)
pooled = torch.cat([P, Q])
count = 0
for _ in range(200):
    perm = torch.randperm(100)
    if mmd2(pooled[perm[:50]], pooled[perm[50:]]) >= stat:
        count += 1
print(f"MMD^2 {stat.item():.6f} permutation p-value {(count + 1) / 201:.4f}")
print("same distribution MMD^2", round(mmd2(P[:25], P[25:]).item(), 6))
