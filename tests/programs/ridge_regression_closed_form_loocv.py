# Models: a statistics course exercise on ridge regression: the closed-form solution via
# linalg.solve and via Cholesky, the SVD shrinkage form, effective degrees of freedom, the
# leave-one-out CV error from the hat matrix, and a lambda sweep picking the best penalty.
import torch

torch.manual_seed(42)
n, p = 40, 6
X = torch.randn(n, p, dtype=torch.float64)
beta = torch.tensor([1.5, 0.0, -2.0, 0.0, 0.7, 0.0], dtype=torch.float64)
y = X @ beta + 0.5 * torch.randn(n, dtype=torch.float64)
X = X - X.mean(0)
y = y - y.mean()
I = torch.eye(p, dtype=torch.float64)
results = []
for lam in [0.0, 0.1, 1.0, 10.0, 100.0]:
    A = X.T @ X + lam * I
    b_solve = torch.linalg.solve(A, X.T @ y)
    L = torch.linalg.cholesky(A)
    b_chol = torch.cholesky_solve((X.T @ y).unsqueeze(1), L).squeeze(1)
    U, S, Vh = torch.linalg.svd(X, full_matrices=False)
    b_svd = Vh.T @ ((S / (S ** 2 + lam)) * (U.T @ y))
    df = (S ** 2 / (S ** 2 + lam)).sum()
    H = X @ torch.linalg.solve(A, X.T)
    resid = y - H @ y
    loocv = ((resid / (1 - H.diagonal())) ** 2).mean()
    agree = torch.allclose(b_solve, b_chol) and torch.allclose(b_solve, b_svd)
    print(f"lambda {lam:6.1f} df {df.item():.4f} loocv {loocv.item():.6f} agree {agree}")
    print("  coef", b_solve)
    results.append((loocv.item(), lam))
print("best lambda", min(results)[1])
print("trace of hat", torch.trace(H).item())
