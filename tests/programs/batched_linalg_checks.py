# Models: a numerical linear-algebra lab on batched problems: solving many small systems at
# once (solve with left=False, solve_ex/inv_ex/cholesky_ex info codes), batched det/slogdet
# signs, eig/eigvals of non-symmetric matrices (complex results), matrix_exp, multi_dot,
# vecdot, batched cross with broadcasting, pinv(hermitian=True), matrix_rank tolerances,
# cond for several p, and the error messages for singular or non-PD batch elements.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4, sci_mode=False)


def show(title, fn):
    try:
        print(f"[ok] {title}: {fn()}")
    except Exception as e:
        print(f"[{type(e).__name__}] {title}: {e}")


A = torch.randn(3, 4, 4, dtype=torch.float64) + 4 * torch.eye(4, dtype=torch.float64)
B = torch.randn(3, 4, 2, dtype=torch.float64)
X = torch.linalg.solve(A, B)
print("batched solve residual small", (A @ X - B).abs().max().item() < 1e-12)
Xr = torch.linalg.solve(A, B.mT, left=False)
print("left=False residual small", (Xr @ A - B.mT).abs().max().item() < 1e-12)
print("det", torch.linalg.det(A))
sign, logabs = torch.linalg.slogdet(-A[:2])
print("slogdet", sign, logabs)

S = A.clone()
S[1] = 0.0
S[1, 0, 0] = 1.0
res = torch.linalg.solve_ex(S, B)
print("solve_ex info", res.info)
inv, info = torch.linalg.inv_ex(S)
print("inv_ex info", info)
show("inv singular batch", lambda: torch.linalg.inv(S))
show("solve singular batch", lambda: torch.linalg.solve(S, B))
P = A @ A.mT
P[2] = -P[2]
L, info = torch.linalg.cholesky_ex(P)
print("cholesky_ex info", info)
show("cholesky non-PD batch", lambda: torch.linalg.cholesky(P))
show(
    "cholesky upper",
    lambda: torch.allclose(
        torch.linalg.cholesky(P[:2], upper=True).mT @ torch.linalg.cholesky(P[:2], upper=True),
        P[:2],
    ),
)
show(
    "solve shape mismatch", lambda: torch.linalg.solve(A, torch.randn(2, 4, 1, dtype=torch.float64))
)
show("solve dtype mismatch", lambda: torch.linalg.solve(A, B.float()))

R = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
vals, vecs = torch.linalg.eig(R)
print("rotation eigvals", vals, vals.dtype)
print("eigvals", torch.linalg.eigvals(torch.tensor([[2.0, 1.0], [0.0, 3.0]])))
print(
    "reconstruct",
    torch.allclose((vecs @ torch.diag(vals) @ torch.linalg.inv(vecs)).real, R, atol=1e-6),
)
print("matrix_exp rotation", torch.linalg.matrix_exp(R * torch.pi / 2))
print("matrix_power -1", torch.linalg.matrix_power(torch.tensor([[2.0, 0.0], [0.0, 4.0]]), -1))

mats = [torch.randn(2, 5), torch.randn(5, 3), torch.randn(3, 4), torch.randn(4, 1)]
md = torch.linalg.multi_dot(mats)
print("multi_dot", md.shape, torch.allclose(md, mats[0] @ mats[1] @ mats[2] @ mats[3], atol=1e-5))
show("multi_dot one", lambda: torch.linalg.multi_dot([torch.randn(2, 2)]))
show("multi_dot 3-D", lambda: torch.linalg.multi_dot([torch.randn(2, 2), torch.randn(2, 2, 2)]))
u = torch.randn(5, 3)
v = torch.randn(3)
print("vecdot", torch.linalg.vecdot(u, v))
print("cross broadcast", torch.linalg.cross(u, v[None]).shape, torch.linalg.cross(u, v[None])[0])
show("cross dim size", lambda: torch.linalg.cross(torch.randn(4, 2), torch.randn(4, 2)))

H = torch.randn(4, 2)
H = H @ H.T
print(
    "rank",
    torch.linalg.matrix_rank(H),
    torch.linalg.matrix_rank(H, hermitian=True),
    torch.linalg.matrix_rank(H, rtol=0.5),
)
print(
    "pinv hermitian ok",
    torch.allclose(torch.linalg.pinv(H, hermitian=True), torch.linalg.pinv(H), atol=1e-4),
)
M = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
for p in [None, "fro", "nuc", float("inf"), -float("inf"), 1, -1, 2, -2]:
    print(f"cond p={p}: {torch.linalg.cond(M, p=p).item():.4f}")
show("cond p=3", lambda: torch.linalg.cond(M, p=3))
show("norm str", lambda: torch.linalg.norm(M, "fro"))
show("norm bad ord vector", lambda: torch.linalg.norm(torch.ones(3), "fro"))
show(
    "lstsq drivers",
    lambda: [
        torch.linalg.lstsq(torch.randn(5, 2), torch.randn(5, 1), driver=d).solution.shape
        for d in ["gelsy", "gelsd", "gelss", "gels"]
    ],
)
show(
    "lstsq bad driver",
    lambda: torch.linalg.lstsq(torch.randn(5, 2), torch.randn(5, 1), driver="qr"),
)
show("householder", lambda: torch.linalg.householder_product(*torch.geqrf(torch.randn(4, 3))).shape)
show("eigh uplo", lambda: torch.linalg.eigvalsh(H, UPLO="U"))
show("eigh bad uplo", lambda: torch.linalg.eigvalsh(H, UPLO="X"))
