# Models: a numerical linear algebra course notebook done in PyTorch: LU with partial pivoting
# (lu_factor, lu_unpack, lu_solve), LDL^T for symmetric indefinite systems (ldl_factor,
# ldl_solve), Cholesky with cholesky_ex info codes and cholesky_inverse, triangular solves,
# tensorsolve/tensorinv, rank and null space from the SVD, pinv least-norm solutions,
# and condition numbers, and the errors singular or non-positive-definite inputs raise.
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5)

A = torch.tensor([[2.0, 1.0, 1.0], [4.0, -6.0, 0.0], [-2.0, 7.0, 2.0]])
b = torch.tensor([5.0, -2.0, 9.0])
LU, piv = torch.linalg.lu_factor(A)
P, L, U = torch.lu_unpack(LU, piv)
print("pivots:", piv.tolist())
print("P:\n", P, "\nL:\n", L, "\nU:\n", U)
x = torch.linalg.lu_solve(LU, piv, b.unsqueeze(1)).squeeze(1)
print("x:", x, "residual:", (A @ x - b).abs().max().item() < 1e-12)
print("det from U:", torch.prod(torch.diagonal(U)) * torch.linalg.det(P), torch.linalg.det(A))
xt = torch.linalg.lu_solve(LU, piv, b.unsqueeze(1), adjoint=True).squeeze(1)
print("A^T x = b:", torch.allclose(A.T @ xt, b))

S = torch.tensor([[4.0, 2.0, -2.0], [2.0, -3.0, 1.0], [-2.0, 1.0, 5.0]])
LD, piv_ldl = torch.linalg.ldl_factor(S)
print("ldl pivots:", piv_ldl.tolist())
x_ldl = torch.linalg.ldl_solve(LD, piv_ldl, b.unsqueeze(1)).squeeze(1)
print("LDL solve:", x_ldl, "check:", torch.allclose(S @ x_ldl, b))
print("eigenvalues of the indefinite S:", torch.linalg.eigvalsh(S))

M = torch.randn(4, 4)
spd = M @ M.T + 4 * torch.eye(4)
Lc, info = torch.linalg.cholesky_ex(spd)
print("cholesky info:", info.item(), "lower:", torch.equal(Lc, Lc.tril()))
print(
    "cholesky_inverse matches inv:",
    torch.allclose(torch.cholesky_inverse(Lc), torch.linalg.inv(spd)),
)
_, info_bad = torch.linalg.cholesky_ex(S)
print("cholesky_ex on indefinite matrix, info:", info_bad.item())
rhs = torch.randn(4, 2)
y = torch.linalg.solve_triangular(Lc, rhs, upper=False)
z = torch.linalg.solve_triangular(Lc.T, y, upper=True)
print("two triangular solves = solve:", torch.allclose(z, torch.linalg.solve(spd, rhs)))
print("cholesky_solve:", torch.allclose(torch.cholesky_solve(rhs, Lc), z))
left = torch.linalg.solve_triangular(Lc, rhs.T, upper=False, left=False)
print("right-side triangular solve shape:", tuple(left.shape))

T = torch.randn(2, 3, 6)
Tinv = torch.linalg.tensorinv(T.reshape(6, 6).reshape(2, 3, 6), ind=2)
print("tensorinv shape:", tuple(Tinv.shape))
B = torch.randn(2, 3)
X = torch.linalg.tensorsolve(T.reshape(2, 3, 2, 3), B)
print(
    "tensorsolve:",
    tuple(X.shape),
    torch.allclose(torch.tensordot(T.reshape(2, 3, 2, 3), X, dims=2), B),
)

R = torch.randn(5, 2) @ torch.randn(2, 4)
print(
    "rank:",
    torch.linalg.matrix_rank(R).item(),
    "with atol=10:",
    torch.linalg.matrix_rank(R, atol=10.0).item(),
    "hermitian:",
    torch.linalg.matrix_rank(R @ R.T, hermitian=True).item(),
)
U_, S_, Vh = torch.linalg.svd(R)
null = Vh[2:].T
print(
    "leading singular values:", S_[:2], "rank-deficient tail < 1e-12:", bool((S_[2:] < 1e-12).all())
)
print("null space residual:", (R @ null).abs().max().item() < 1e-10, tuple(null.shape))
rhs = torch.randn(5)
x_pinv = torch.linalg.pinv(R) @ rhs
x_lstsq = torch.linalg.lstsq(R, rhs.unsqueeze(1), driver="gelsd").solution.squeeze(1)
print("pinv solution norm:", x_pinv.norm(), "lstsq(gelsd) agrees:", torch.allclose(x_pinv, x_lstsq))
H = 1.0 / (torch.arange(1, 7)[:, None] + torch.arange(6)[None, :])
print("Hilbert(6) cond:", torch.linalg.cond(H), "fro:", torch.linalg.cond(H, "fro"))
print(
    "matrix norms:",
    torch.linalg.matrix_norm(A, "nuc"),
    torch.linalg.matrix_norm(A, 1),
    torch.linalg.matrix_norm(A, -2),
)

for name, fn in [
    ("solve singular", lambda: torch.linalg.solve(torch.ones(3, 3), b)),
    ("inv singular", lambda: torch.linalg.inv(torch.zeros(2, 2))),
    ("cholesky indefinite", lambda: torch.linalg.cholesky(S)),
    ("solve shapes", lambda: torch.linalg.solve(A, torch.ones(4))),
    ("lu_factor non-square ok", lambda: torch.linalg.lu_factor(torch.ones(2, 3))[0].shape),
    ("tensorinv bad ind", lambda: torch.linalg.tensorinv(torch.ones(2, 3), ind=1)),
    ("det non-square", lambda: torch.linalg.det(torch.ones(2, 3))),
    ("integer inputs", lambda: torch.linalg.inv(torch.eye(2, dtype=torch.long))),
]:
    try:
        print(f"{name}: ok {fn()}")
    except Exception as e:
        print(f"{name}: {type(e).__name__}: {e}")
