# Models: a numerical linear algebra lab in PyTorch: least squares by normal equations, QR,
# SVD / pinv and lstsq with the gelsd/gelss/gels drivers, LU factor-solve reuse with
# adjoint solves, Cholesky solves, triangular solves, LDL on a symmetric indefinite matrix,
# tensorsolve / tensorinv, multi_dot, matrix_power with negative exponents, condition
# numbers and norms, and a ridge path over regularisation strengths.
import torch

torch.manual_seed(0)
A = torch.randn(12, 4, dtype=torch.float64)
x_true = torch.tensor([1.0, -2.0, 0.5, 3.0], dtype=torch.float64)
b = A @ x_true + 0.01 * torch.randn(12, dtype=torch.float64)
x_ne = torch.linalg.solve(A.T @ A, A.T @ b)
Q, R = torch.linalg.qr(A)
x_qr = torch.linalg.solve_triangular(R, (Q.T @ b).unsqueeze(1), upper=True).squeeze(1)
print(x_ne)
print(x_qr)
for driver in ["gelsd", "gelss", "gels"]:
    sol = torch.linalg.lstsq(A, b.unsqueeze(1), driver=driver)
    print(driver, sol.solution.squeeze(1), sol.rank, sol.residuals)
print(torch.linalg.pinv(A) @ b)
Qc, Rc = torch.linalg.qr(A, mode="complete")
print(Qc.shape, Rc.shape, torch.linalg.qr(A, mode="r").R.shape)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
print(S)
print(torch.linalg.svdvals(A.float()))

M = torch.randn(5, 5, dtype=torch.float64) + 5 * torch.eye(5, dtype=torch.float64)
LU, piv = torch.linalg.lu_factor(M)
rhs = torch.randn(5, 3, dtype=torch.float64)
print(piv)
print(torch.linalg.lu_solve(LU, piv, rhs) - torch.linalg.solve(M, rhs))
print(torch.linalg.lu_solve(LU, piv, rhs, adjoint=True) - torch.linalg.solve(M.T, rhs))
P, L, U2 = torch.linalg.lu(M)
print(torch.dist(P @ L @ U2, M) < 1e-12)
SPD = M @ M.T
Lc = torch.linalg.cholesky(SPD)
print(torch.cholesky_solve(rhs, Lc) - torch.linalg.solve(SPD, rhs))
print(torch.linalg.cholesky(SPD, upper=True)[0])
print(torch.linalg.solve_triangular(Lc, rhs, upper=False)[0])
print(torch.linalg.solve_triangular(Lc.T, rhs.T, upper=True, left=False)[0])
print(torch.linalg.solve_triangular(Lc, rhs, upper=False, unitriangular=True)[-1])
sym = torch.tensor([[2.0, 1.0, 0.0], [1.0, -3.0, 2.0], [0.0, 2.0, 1.0]], dtype=torch.float64)
LD, pivots = torch.linalg.ldl_factor(sym)
print(LD, pivots)
print(torch.linalg.ldl_solve(LD, pivots, torch.eye(3, dtype=torch.float64)) @ sym)

T4 = torch.randn(6, 2, 3, dtype=torch.float64)
B4 = torch.randn(6, dtype=torch.float64)
X4 = torch.linalg.tensorsolve(T4, B4)
print(X4.shape, torch.tensordot(T4, X4, dims=2) - B4)
inv4 = torch.linalg.tensorinv(torch.randn(4, 6, 8, 3, dtype=torch.float64), ind=2)
print(inv4.shape)
mats = [torch.randn(3, 7), torch.randn(7, 2), torch.randn(2, 5), torch.randn(5, 1)]
print(torch.linalg.multi_dot(mats))
print(torch.linalg.matrix_power(M[:3, :3], -2) @ torch.linalg.matrix_power(M[:3, :3], 2))
for p in [None, "fro", "nuc", 1, -1, 2, -2, float("inf")]:
    print("cond", p, f"{torch.linalg.cond(M, p).item():.10f}")
for ord in ["fro", "nuc", 2, -2, 1, float("-inf")]:
    print("matrix_norm", ord, f"{torch.linalg.matrix_norm(A, ord).item():.10f}")
print(torch.linalg.vector_norm(A, ord=3, dim=0), torch.linalg.vector_norm(A, ord=0))
print(torch.linalg.norm(A.float(), dim=(0, 1)), torch.linalg.norm(b.float(), ord=-1))
lams = torch.logspace(-3, 2, 6, dtype=torch.float64)
for lam in lams:
    w = torch.linalg.solve(A.T @ A + lam * torch.eye(4, dtype=torch.float64), A.T @ b)
    rss = ((A @ w - b) ** 2).sum()
    print(f"lambda {lam.item():9.4f} |w| {w.norm().item():.8f} rss {rss.item():.8f}")
