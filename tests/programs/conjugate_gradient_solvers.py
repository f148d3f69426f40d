# Models: iterative linear solvers for a 2-D Poisson problem: conjugate gradients with and
# without a Jacobi preconditioner, steepest descent, and GMRES-style minimal residual via
# Arnoldi and torch.linalg.lstsq, all checked against a direct solve.
import torch

dt = torch.float64
m = 12
n = m * m
main = 4 * torch.ones(n, dtype=dt)
A = torch.diag(main)
idx = torch.arange(n)
right = idx[(idx % m) != m - 1]
A[right, right + 1] = A[right + 1, right] = -1
A[idx[:-m], idx[:-m] + m] = A[idx[:-m] + m, idx[:-m]] = -1
A = A + torch.diag(torch.linspace(0, 3, n, dtype=dt))
torch.manual_seed(0)
b = torch.randn(n, dtype=dt)
x_direct = torch.linalg.solve(A, b)
ev = torch.linalg.eigvalsh(A)
print(f"n={n} symmetric={torch.equal(A, A.T)} cond={ev[-1] / ev[0]:.4f} nnz={int((A != 0).sum())}")


def cg(A, b, M_inv=None, tol=1e-10, maxiter=500):
    x = torch.zeros_like(b)
    r = b - A @ x
    z = r if M_inv is None else M_inv * r
    p = z.clone()
    rz = r @ z
    history = []
    for k in range(maxiter):
        Ap = A @ p
        alpha = rz / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        history.append(r.norm().item())
        if history[-1] < tol * b.norm():
            return x, k + 1, history
        z = r if M_inv is None else M_inv * r
        rz_new = r @ z
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x, maxiter, history


x_cg, it_cg, h_cg = cg(A, b)
x_pcg, it_pcg, h_pcg = cg(A, b, M_inv=1 / torch.diagonal(A))
print(f"CG iterations {it_cg} error {(x_cg - x_direct).norm().item():.3e}")
print(f"PCG iterations {it_pcg} error {(x_pcg - x_direct).norm().item():.3e}")
print("CG residuals at 1, 5, 10, 20:", [f"{h_cg[i]:.4e}" for i in (0, 4, 9, 19)])

x = torch.zeros(n, dtype=dt)
for k in range(200):
    r = b - A @ x
    x = x + (r @ r) / (r @ (A @ r)) * r
print(f"steepest descent 200 steps error {(x - x_direct).norm().item():.4e}")


def gmres(A, b, k):
    Q = torch.zeros(n, k + 1, dtype=dt)
    H = torch.zeros(k + 1, k, dtype=dt)
    beta = b.norm()
    Q[:, 0] = b / beta
    for j in range(k):
        v = A @ Q[:, j]
        for i in range(j + 1):
            H[i, j] = Q[:, i] @ v
            v = v - H[i, j] * Q[:, i]
        H[j + 1, j] = v.norm()
        Q[:, j + 1] = v / H[j + 1, j]
    e1 = torch.zeros(k + 1, 1, dtype=dt)
    e1[0] = beta
    y = torch.linalg.lstsq(H, e1).solution.squeeze(1)
    return Q[:, :k] @ y, Q


for k in (5, 20, 40):
    xg, Q = gmres(A, b, k)
    orth = (Q.T @ Q - torch.eye(k + 1, dtype=dt)).abs().max().item()
    print(f"GMRES({k}) residual {(b - A @ xg).norm().item():.4e} orthogonality loss {orth < 1e-8}")
L = torch.linalg.cholesky(A)
x_chol = torch.cholesky_solve(b.unsqueeze(1), L).squeeze(1)
print("cholesky_solve agrees:", torch.allclose(x_chol, x_direct))
print("solution corner values", x_direct.view(m, m)[:2, :3])
