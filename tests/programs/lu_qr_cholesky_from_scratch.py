# Models: the "implement the factorizations" assignment of a numerical-methods course: Doolittle
# LU with partial pivoting, forward/back substitution, Cholesky-Banachiewicz, classical vs
# modified Gram-Schmidt and Householder QR, each compared with torch.linalg (lu_factor/lu,
# cholesky, qr, solve_triangular) and with the loss of orthogonality on an ill-conditioned
# Hilbert-like matrix, plus determinants from the LU diagonal.
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


def lu_partial_pivot(A):
    A = A.clone()
    n = A.shape[0]
    perm = torch.arange(n)
    swaps = 0
    for k in range(n - 1):
        p = k + A[k:, k].abs().argmax().item()
        if p != k:
            A[[k, p]] = A[[p, k]]
            perm[[k, p]] = perm[[p, k]]
            swaps += 1
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= torch.outer(A[k + 1:, k], A[k, k + 1:])
    L = torch.tril(A, -1) + torch.eye(n)
    U = torch.triu(A)
    return perm, L, U, swaps


def forward_sub(L, b):
    y = torch.zeros_like(b)
    for i in range(len(b)):
        y[i] = (b[i] - L[i, :i] @ y[:i]) / L[i, i]
    return y


def back_sub(U, y):
    x = torch.zeros_like(y)
    for i in reversed(range(len(y))):
        x[i] = (y[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x


A = torch.randn(5, 5)
b = torch.randn(5)
perm, L, U, swaps = lu_partial_pivot(A)
print("perm", perm.tolist(), "swaps", swaps)
P_t, L_t, U_t = torch.linalg.lu(A)
print("L matches", torch.allclose(L, L_t), "U matches", torch.allclose(U, U_t))
print("P matches", torch.equal(P_t.T.argmax(1), perm))
x = back_sub(U, forward_sub(L, b[perm]))
print("solution", x)
print("vs linalg.solve", torch.allclose(x, torch.linalg.solve(A, b)))
det = (-1) ** swaps * torch.diagonal(U).prod()
print(f"det from LU {det.item():.10f} linalg.det {torch.linalg.det(A).item():.10f}")
LU, piv = torch.linalg.lu_factor(A)
print("lu_factor pivots (1-based)", piv.tolist())
print("lu_solve", torch.linalg.lu_solve(LU, piv, b.unsqueeze(1)).squeeze(1))
print("solve_triangular", torch.allclose(
    torch.linalg.solve_triangular(L, b[perm].unsqueeze(1), upper=False,
                                  unitriangular=True).squeeze(1),
    forward_sub(L, b[perm])))


def cholesky(S):
    n = S.shape[0]
    L = torch.zeros_like(S)
    for i in range(n):
        for j in range(i + 1):
            s = S[i, j] - L[i, :j] @ L[j, :j]
            L[i, j] = torch.sqrt(s) if i == j else s / L[j, j]
    return L


S = A @ A.T + 5 * torch.eye(5)
Lc = cholesky(S)
print("cholesky matches", torch.allclose(Lc, torch.linalg.cholesky(S)))
print("cholesky diag", torch.diagonal(Lc))


def cgs(A):
    Q = torch.zeros_like(A)
    R = torch.zeros(A.shape[1], A.shape[1])
    for j in range(A.shape[1]):
        v = A[:, j].clone()
        R[:j, j] = Q[:, :j].T @ A[:, j]
        v -= Q[:, :j] @ R[:j, j]
        R[j, j] = v.norm()
        Q[:, j] = v / R[j, j]
    return Q, R


def mgs(A):
    V = A.clone()
    n = A.shape[1]
    Q, R = torch.zeros_like(A), torch.zeros(n, n)
    for i in range(n):
        R[i, i] = V[:, i].norm()
        Q[:, i] = V[:, i] / R[i, i]
        R[i, i + 1:] = Q[:, i] @ V[:, i + 1:]
        V[:, i + 1:] -= torch.outer(Q[:, i], R[i, i + 1:])
    return Q, R


def householder(A):
    m, n = A.shape
    R = A.clone()
    Q = torch.eye(m)
    for k in range(n):
        x = R[k:, k]
        e = torch.zeros_like(x)
        e[0] = x.norm() * (1 if x[0] >= 0 else -1)
        v = x + e
        v = v / v.norm()
        R[k:, k:] -= 2 * torch.outer(v, v @ R[k:, k:])
        Q[:, k:] -= 2 * torch.outer(Q[:, k:] @ v, v)
    return Q[:, :n], R[:n]


M = torch.randn(6, 4)
Qt, Rt = torch.linalg.qr(M)
for name, fn in [("classical GS", cgs), ("modified GS", mgs), ("householder", householder)]:
    Q, R = fn(M)
    sign = torch.sign(torch.diagonal(R)) * torch.sign(torch.diagonal(Rt))
    print(f"{name:<13} reconstructs {torch.allclose(Q @ R, M)}, "
          f"matches linalg.qr up to signs {torch.allclose(Q * sign, Qt)}")

i = torch.arange(8, dtype=torch.float64)
Hm = 1 / (i[:, None] + i[None, :] + 1)
print(f"hilbert condition number {torch.linalg.cond(Hm).item():.3e}")
for name, fn in [("classical GS", cgs), ("modified GS", mgs), ("householder", householder)]:
    Q, _ = fn(Hm)
    loss = torch.linalg.matrix_norm(Q.T @ Q - torch.eye(8)).item()
    print(f"{name:<13} orthogonality loss below 1e-3: {loss < 1e-3}")
