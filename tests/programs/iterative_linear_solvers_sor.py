# Models: the iterative-methods chapter of a numerical linear algebra course: Jacobi,
# Gauss-Seidel and successive over-relaxation on a diagonally dominant system and on the 1-D
# Poisson matrix, iteration counts to a residual tolerance, spectral radii of the iteration
# matrices from torch.linalg.eigvals, the optimal SOR omega against its formula, and a
# vectorised red-black Gauss-Seidel sweep on a 2-D grid.
import math

import torch

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


def jacobi(A, b, tol=1e-10, max_iter=5000):
    D = torch.diagonal(A)
    R = A - torch.diag(D)
    x = torch.zeros_like(b)
    for k in range(max_iter):
        x = (b - R @ x) / D
        if torch.linalg.vector_norm(A @ x - b) < tol * torch.linalg.vector_norm(b):
            return x, k + 1
    return x, max_iter


def sor(A, b, omega=1.0, tol=1e-10, max_iter=5000):
    n = len(b)
    x = torch.zeros_like(b)
    for k in range(max_iter):
        for i in range(n):
            sigma = A[i, :i] @ x[:i] + A[i, i + 1:] @ x[i + 1:]
            x[i] = (1 - omega) * x[i] + omega * (b[i] - sigma) / A[i, i]
        if torch.linalg.vector_norm(A @ x - b) < tol * torch.linalg.vector_norm(b):
            return x, k + 1
    return x, max_iter


n = 8
A = torch.randn(n, n)
A = A + torch.diag(A.abs().sum(1) + 1)
b = torch.randn(n)
exact = torch.linalg.solve(A, b)
for name, (x, its) in [("jacobi", jacobi(A, b)), ("gauss-seidel", sor(A, b, 1.0)),
                       ("sor 1.1", sor(A, b, 1.1))]:
    print(f"{name:<13} iterations {its:4d} error {(x - exact).abs().max().item():.2e}")


def poisson(n):
    return 2 * torch.eye(n) - torch.diag(torch.ones(n - 1), 1) - torch.diag(torch.ones(n - 1), -1)


m = 10
P = poisson(m)
rhs = torch.ones(m) / (m + 1) ** 2
D = torch.diag(torch.diagonal(P))
L = torch.tril(P, -1)
U = torch.triu(P, 1)


def rho(M):
    return torch.linalg.eigvals(M).abs().max().item()


rho_j = rho(-torch.linalg.solve(D, L + U))
rho_gs = rho(-torch.linalg.solve(D + L, U))
print(f"spectral radius jacobi {rho_j:.6f} (cos(pi/(m+1)) = {math.cos(math.pi / (m + 1)):.6f})")
print(f"spectral radius gauss-seidel {rho_gs:.6f} = rho_j^2 {rho_j ** 2:.6f}")
omega_opt = 2 / (1 + math.sqrt(1 - rho_j ** 2))
print(f"optimal omega {omega_opt:.6f}")
for omega in (1.0, 1.5, round(omega_opt, 4), 1.95):
    T = torch.linalg.solve(D + omega * L, (1 - omega) * D - omega * U)
    _, its = sor(P, rhs, omega, tol=1e-6)
    print(f"omega {omega:<7} rho {rho(T):.6f} iterations {its}")

# red-black Gauss-Seidel for -laplace(u) = 1 on the unit square, u = 0 on the boundary
N = 17
h = 1.0 / (N - 1)
u = torch.zeros(N, N)
f = torch.ones(N, N)
ii, jj = torch.meshgrid(torch.arange(N), torch.arange(N), indexing="ij")
interior = (ii > 0) & (ii < N - 1) & (jj > 0) & (jj < N - 1)
red = interior & ((ii + jj) % 2 == 0)
black = interior & ((ii + jj) % 2 == 1)
for sweep in range(400):
    for mask in (red, black):
        nb = torch.zeros_like(u)
        nb[1:-1, 1:-1] = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        u = torch.where(mask, (nb + h * h * f) / 4, u)
    if sweep % 100 == 99:
        res = torch.zeros_like(u)
        res[1:-1, 1:-1] = f[1:-1, 1:-1] - (4 * u[1:-1, 1:-1] - u[:-2, 1:-1] - u[2:, 1:-1]
                                           - u[1:-1, :-2] - u[1:-1, 2:]) / h ** 2
        centre = u[N // 2, N // 2].item()
        print(f"sweep {sweep + 1} residual {res.abs().max().item():.3e} centre {centre:.6f}")
