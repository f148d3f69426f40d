# Models: checking the Matrix Cookbook with autograd: gradients of traces, log-determinants,
# inverses, quadratic forms and Frobenius norms against their closed forms, the Jacobian of
# the matrix inverse, and a Hessian of a quadratic form via torch.autograd.functional.
import torch
from torch.autograd.functional import hessian, jacobian

torch.manual_seed(0)
dt = torch.float64
n = 4
A = torch.randn(n, n, dtype=dt)
B = torch.randn(n, n, dtype=dt)
S = A @ A.T + n * torch.eye(n, dtype=dt)
x = torch.randn(n, dtype=dt)


def check(name, fn, X0, closed):
    X = X0.clone().requires_grad_(True)
    (g,) = torch.autograd.grad(fn(X), X)
    ok = torch.allclose(g, closed, atol=1e-10)
    print(f"{name:28s} ok={ok} max|g|={g.abs().max().item():.6f}")


check("d tr(AX)/dX = A^T", lambda X: torch.trace(A @ X), B, A.T)
check("d tr(X^T A X)/dX", lambda X: torch.trace(X.T @ A @ X), B, (A + A.T) @ B)
check(
    "d log|det X|/dX = X^-T", lambda X: torch.linalg.slogdet(X).logabsdet, S, torch.linalg.inv(S).T
)
check(
    "d logdet via cholesky",
    lambda X: 2 * torch.log(torch.diagonal(torch.linalg.cholesky(X))).sum(),
    S,
    torch.linalg.inv(S),
)
check("d x^T X x/dX = x x^T", lambda X: x @ X @ x, A, torch.outer(x, x))
check("d ||X||_F^2/dX = 2X", lambda X: torch.linalg.matrix_norm(X) ** 2, A, 2 * A)
check(
    "d tr(X^-1 B)/dX",
    lambda X: torch.trace(torch.linalg.inv(X) @ B),
    S,
    -(torch.linalg.inv(S) @ B @ torch.linalg.inv(S)).T,
)
check(
    "d det X/dX = det X X^-T",
    lambda X: torch.linalg.det(X),
    A,
    torch.linalg.det(A) * torch.linalg.inv(A).T,
)
check(
    "d tr(exp X)/dX = exp(X)^T",
    lambda X: torch.trace(torch.linalg.matrix_exp(X)),
    A * 0.3,
    torch.linalg.matrix_exp(A * 0.3).T,
)
check(
    "d ||X||_* (nuclear)",
    lambda X: torch.linalg.matrix_norm(X, ord="nuc"),
    A,
    torch.linalg.svd(A).U @ torch.linalg.svd(A).Vh,
)
J = jacobian(torch.linalg.inv, S)
Sinv = torch.linalg.inv(S)
J_closed = -torch.einsum("ik,lj->ijkl", Sinv, Sinv)
print("jacobian of inverse", tuple(J.shape), torch.allclose(J, J_closed, atol=1e-12))
H = hessian(lambda v: v @ S @ v + torch.sin(v).sum(), x)
print("hessian of quadratic form + sin", torch.allclose(H, 2 * S - torch.diag(torch.sin(x))))
evals = torch.linalg.eigvalsh(S)
X = S.clone().requires_grad_(True)
top = torch.linalg.eigh(X).eigenvalues[-1]
(g,) = torch.autograd.grad(top, X)
v = torch.linalg.eigh(S).eigenvectors[:, -1]
print(
    "d lambda_max/dX = v v^T",
    torch.allclose(g, torch.outer(v, v), atol=1e-10),
    "lambda_max",
    evals[-1].item(),
)
print(
    "gradcheck solve:",
    torch.autograd.gradcheck(
        lambda M, b: torch.linalg.solve(M, b),
        (S.detach().requires_grad_(), x.clone().requires_grad_()),
    ),
)
print(
    "gradgradcheck logdet:",
    torch.autograd.gradgradcheck(lambda M: torch.logdet(M), (S.detach().requires_grad_(),)),
)
