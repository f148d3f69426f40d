# Models: a sparse-regression lecture on proximal gradient descent (ISTA/FISTA) for the lasso:
# soft-thresholding with F.softshrink, a fixed step from the Lipschitz constant (largest
# singular value squared), objective values per iteration, the support recovered, and FISTA's
# momentum.
import torch
import torch.nn.functional as F

torch.manual_seed(5)
n, p = 50, 12
A = torch.randn(n, p, dtype=torch.float64)
true = torch.zeros(p, dtype=torch.float64)
true[[1, 4, 9]] = torch.tensor([2.0, -3.0, 1.5], dtype=torch.float64)
b = A @ true + 0.05 * torch.randn(n, dtype=torch.float64)
lam = 2.0
L = torch.linalg.matrix_norm(A, 2) ** 2
print("Lipschitz", L.item())


def objective(x):
    return 0.5 * ((A @ x - b) ** 2).sum() + lam * x.abs().sum()


x = torch.zeros(p, dtype=torch.float64)
for k in range(60):
    grad = A.T @ (A @ x - b)
    x = F.softshrink(x - grad / L, (lam / L).item())
    if k % 15 == 0:
        print(f"ista {k:2d} obj {objective(x).item():.6f} nnz {int((x != 0).sum())}")
xf = torch.zeros(p, dtype=torch.float64)
yk, t = xf.clone(), 1.0
for k in range(60):
    x_new = F.softshrink(yk - A.T @ (A @ yk - b) / L, (lam / L).item())
    t_new = (1 + (1 + 4 * t * t) ** 0.5) / 2
    yk = x_new + (t - 1) / t_new * (x_new - xf)
    xf, t = x_new, t_new
    if k % 15 == 0:
        print(f"fista {k:2d} obj {objective(xf).item():.6f}")
print("support", torch.nonzero(xf).flatten().tolist())
print("estimate", xf[[1, 4, 9]])
print("softshrink", F.softshrink(torch.tensor([-1.0, -0.2, 0.0, 0.3, 2.0]), 0.5))
print("hardshrink", F.hardshrink(torch.tensor([-1.0, -0.2, 0.0, 0.3, 2.0]), 0.5))
