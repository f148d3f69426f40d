# Models: a numerical linear algebra course's torch.linalg tour: solve, lstsq (every driver that
# runs on CPU), eig/eigh/eigvals, svd/svdvals, qr modes, cholesky/cholesky_ex, inv/inv_ex, pinv,
# det/slogdet, matrix_norm/vector_norm orders, matrix_rank, cond, matrix_exp and matrix_power,
# with residual checks and the singular-matrix errors.
import torch

torch.manual_seed(21)
A = torch.randn(4, 4, dtype=torch.float64)
S = A @ A.T + 4 * torch.eye(4, dtype=torch.float64)
b = torch.randn(4, 2, dtype=torch.float64)
x = torch.linalg.solve(A, b)
print("solve residual", torch.linalg.norm(A @ x - b).item() < 1e-12)
print("solve left=False", torch.allclose(torch.linalg.solve(A, b.T, left=False) @ A, b.T))
tall = torch.randn(6, 3, dtype=torch.float64)
y = torch.randn(6, dtype=torch.float64)
for driver in ["gels", "gelsy", "gelsd", "gelss"]:
    r = torch.linalg.lstsq(tall, y.unsqueeze(1), driver=driver)
    print(
        driver,
        r.solution.squeeze().numpy().round(8),
        r.rank,
        r.residuals.numpy().round(8),
        r.singular_values.numpy().round(6),
    )
L, Q = torch.linalg.eigh(S)
print("eigh values", L)
print("eigh reconstruct", torch.allclose(Q @ torch.diag(L) @ Q.T, S))
print("eigvalsh UPLO=U", torch.linalg.eigvalsh(S, UPLO="U"))
R = torch.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=torch.float64)
print("eig of a rotation", torch.linalg.eig(R).eigenvalues, torch.linalg.eigvals(R).dtype)
U, s, Vh = torch.linalg.svd(tall, full_matrices=False)
print("svd shapes", U.shape, s, Vh.shape)
print("svd full", torch.linalg.svd(tall).U.shape, "svdvals", torch.linalg.svdvals(tall))
for mode in ["reduced", "complete", "r"]:
    q, r = torch.linalg.qr(tall, mode=mode)
    print("qr", mode, tuple(q.shape), tuple(r.shape), r.diagonal().abs().numpy().round(6))
C = torch.linalg.cholesky(S)
print(
    "cholesky lower",
    torch.allclose(C @ C.T, S),
    "upper",
    torch.allclose(torch.linalg.cholesky(S, upper=True), C.T),
)
bad = torch.tensor([[1.0, 2.0], [2.0, 1.0]], dtype=torch.float64)
Lb, info = torch.linalg.cholesky_ex(bad)
print("cholesky_ex info", info.item())
try:
    torch.linalg.cholesky(bad)
except torch.linalg.LinAlgError as e:
    print("LinAlgError:", e)
sing = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
try:
    torch.linalg.inv(sing)
except torch.linalg.LinAlgError as e:
    print("LinAlgError:", e)
try:
    torch.linalg.solve(sing, torch.ones(2, dtype=torch.float64))
except torch.linalg.LinAlgError as e:
    print("LinAlgError:", e)
print("inv_ex info", torch.linalg.inv_ex(sing).info.item())
print("pinv of singular\n", torch.linalg.pinv(sing))
print("pinv hermitian", torch.allclose(torch.linalg.pinv(S, hermitian=True), torch.linalg.inv(S)))
print("det", torch.linalg.det(A).item().__round__(8), "slogdet", torch.linalg.slogdet(A))
print("det singular", torch.linalg.det(sing).item(), torch.linalg.slogdet(sing))
for ord in ["fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf")]:
    print("matrix_norm", ord, round(torch.linalg.matrix_norm(A, ord=ord).item(), 8))
v = torch.tensor([3.0, -4.0, 0.0, 1.0], dtype=torch.float64)
print(
    "vector norms",
    [
        round(torch.linalg.vector_norm(v, ord=o).item(), 6)
        for o in [0, 1, 2, 3, float("inf"), float("-inf"), -1]
    ],
)
print(
    "matrix_rank",
    torch.linalg.matrix_rank(sing).item(),
    torch.linalg.matrix_rank(A).item(),
    torch.linalg.matrix_rank(tall @ tall.T).item(),
    torch.linalg.matrix_rank(sing, atol=1.0, rtol=0.0).item(),
)
print("cond", round(torch.linalg.cond(S).item(), 6), torch.linalg.cond(sing).item())
print("cond fro", round(torch.linalg.cond(A, "fro").item(), 6))
G = torch.tensor([[0.0, 1.0], [-1.0, 0.0]], dtype=torch.float64)
print("matrix_exp of generator (rotation by 1 rad)\n", torch.linalg.matrix_exp(G))
print(
    "matrix_power",
    torch.linalg.matrix_power(torch.tensor([[1, 1], [1, 0]]), 10),
    torch.linalg.matrix_power(S, -1).allclose(torch.linalg.inv(S)),
)
lu, piv = torch.linalg.lu_factor(A)
print("lu_factor solve", torch.allclose(torch.linalg.lu_solve(lu, piv, b), x), piv)
P, Lm, Um = torch.linalg.lu(A)
print("lu reconstruct", torch.allclose(P @ Lm @ Um, A))
print(
    "multi_dot",
    torch.linalg.multi_dot([A, S, b]).shape,
    "cross",
    torch.linalg.cross(torch.tensor([1.0, 0, 0]), torch.tensor([0.0, 1, 0])),
)
print("householder_product ok", torch.linalg.householder_product(*torch.geqrf(tall)).shape)
print("solve_triangular", torch.allclose(C @ torch.linalg.solve_triangular(C, b, upper=False), b))
print("vander", torch.linalg.vander(torch.tensor([1, 2, 3])))
print("diagonal", torch.linalg.diagonal(A, offset=1))
try:
    torch.linalg.solve(A, torch.ones(3, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.linalg.eigh(torch.randn(2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
