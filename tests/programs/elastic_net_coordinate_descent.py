# Models: sparse linear regression by cyclic coordinate descent: lasso and elastic net with
# soft-thresholding, a regularisation path with warm starts, KKT checks and comparison with
# proximal gradient (ISTA/FISTA) and with ridge's closed form.
import torch

torch.manual_seed(0)
dt = torch.float64
n, p = 80, 12
X = torch.randn(n, p, dtype=dt)
X = (X - X.mean(0)) / X.std(0, correction=0)
beta_true = torch.zeros(p, dtype=dt)
beta_true[[0, 3, 7]] = torch.tensor([3.0, -2.0, 1.5], dtype=dt)
y = X @ beta_true + 0.5 * torch.randn(n, dtype=dt)
y = y - y.mean()


def soft(z, t):
    return torch.sign(z) * (z.abs() - t).clamp_min(0)


def coordinate_descent(lam, alpha=1.0, beta=None, iters=200, tol=1e-10):
    beta = torch.zeros(p, dtype=dt) if beta is None else beta.clone()
    col_sq = (X**2).sum(0) / n
    r = y - X @ beta
    for it in range(iters):
        max_change = 0.0
        for j in range(p):
            old = beta[j].item()
            rho = (X[:, j] @ r) / n + col_sq[j] * old
            new = (soft(rho, lam * alpha) / (col_sq[j] + lam * (1 - alpha))).item()
            if new != old:
                r = r - X[:, j] * (new - old)
                beta[j] = new
                max_change = max(max_change, abs(new - old))
        if max_change < tol:
            break
    return beta, it + 1


lam_max = ((X.T @ y).abs() / n).max().item()
print(f"lambda_max {lam_max:.5f}")
path = torch.logspace(0, -3, 8, dtype=dt) * lam_max
beta = None
for lam in path.tolist():
    beta, its = coordinate_descent(lam, beta=beta)
    nz = (beta != 0).sum().item()
    support = beta.nonzero().flatten().tolist()
    print(f"lambda {lam:8.5f} nonzeros {nz:2d} iterations {its:3d} support {support}")
lam = 0.1
b_lasso, _ = coordinate_descent(lam)
grad = X.T @ (y - X @ b_lasso) / n
active = b_lasso != 0
print(
    "KKT active:",
    torch.allclose(grad[active], lam * torch.sign(b_lasso[active]), atol=1e-6),
    "inactive:",
    bool((grad[~active].abs() <= lam + 1e-8).all()),
)
print("lasso", b_lasso)


def objective(b):
    return (0.5 * ((y - X @ b) ** 2).mean() + lam * b.abs().sum()).item()


L = torch.linalg.eigvalsh(X.T @ X / n).max().item()
b_ista = torch.zeros(p, dtype=dt)
b_f, z, t = torch.zeros(p, dtype=dt), torch.zeros(p, dtype=dt), 1.0
for k in range(300):
    b_ista = soft(b_ista + X.T @ (y - X @ b_ista) / (n * L), lam / L)
    b_new = soft(z + X.T @ (y - X @ z) / (n * L), lam / L)
    t_new = (1 + (1 + 4 * t * t) ** 0.5) / 2
    z = b_new + (t - 1) / t_new * (b_new - b_f)
    b_f, t = b_new, t_new
    if k in (9, 49, 299):
        o_ista, o_fista, o_cd = (objective(b) for b in (b_ista, b_f, b_lasso))
        print(f"iter {k + 1:3d} ISTA obj {o_ista:.8f} FISTA obj {o_fista:.8f} CD obj {o_cd:.8f}")
print("FISTA matches CD:", torch.allclose(b_f, b_lasso, atol=1e-5))
b_en, its = coordinate_descent(0.1, alpha=0.5)
print("elastic net", b_en, "iterations", its)
b_ridge_cd, _ = coordinate_descent(0.1, alpha=0.0)
b_ridge = torch.linalg.solve(X.T @ X / n + 0.1 * torch.eye(p, dtype=dt), X.T @ y / n)
print("ridge CD == closed form:", torch.allclose(b_ridge_cd, b_ridge, atol=1e-8))
print(
    "shrinkage ||b||_1: lasso",
    b_lasso.abs().sum().item(),
    "enet",
    b_en.abs().sum().item(),
    "ridge",
    b_ridge.abs().sum().item(),
)
