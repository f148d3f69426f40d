# Models: a linear-algebra notebook ("SVD image compression and least squares with
# torch.linalg"): a synthetic image compressed with truncated SVD, energy captured per rank,
# least squares via lstsq / normal equations / QR / pinv, LU factorisation and lu_solve,
# eigh of a covariance (PCA), and gradients through svdvals and det.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4, sci_mode=False)

xs = torch.linspace(-1, 1, 24)
yy, xx = torch.meshgrid(xs, xs, indexing="ij")
image = torch.sin(3 * xx) * torch.cos(2 * yy) + 0.5 * (xx * yy > 0).float()
image = image + 0.05 * torch.randn(24, 24)
print("image", tuple(image.shape), f"{image.mean().item():.4f} {image.std().item():.4f}")

U, S, Vh = torch.linalg.svd(image, full_matrices=False)
print("shapes", tuple(U.shape), tuple(S.shape), tuple(Vh.shape))
print("top singular values", S[:6])
print(torch.allclose(U @ torch.diag(S) @ Vh, image, atol=1e-4))
energy = S.pow(2).cumsum(0) / S.pow(2).sum()
for k in [1, 2, 4, 8, 16]:
    approx = U[:, :k] @ torch.diag(S[:k]) @ Vh[:k]
    err = torch.linalg.matrix_norm(image - approx) / torch.linalg.matrix_norm(image)
    ratio = k * (24 + 24 + 1) / (24 * 24)
    print(f"rank {k:2d} energy {energy[k - 1]:.4f} rel err {err:.4f} storage {ratio:.3f}")
print("svdvals match", torch.allclose(torch.linalg.svdvals(image), S))
print(
    "rank", torch.linalg.matrix_rank(image).item(), torch.linalg.matrix_rank(image, atol=1.0).item()
)

# least squares: fit a cubic
t = torch.linspace(0, 2, 30, dtype=torch.float64)
y = 1.0 - 2.0 * t + 0.5 * t**3 + 0.01 * torch.randn(30, dtype=torch.float64)
A = torch.vander(t, N=4, increasing=True)
sol = torch.linalg.lstsq(A, y.unsqueeze(1))
print("lstsq coeffs", sol.solution.squeeze(1))
normal = torch.linalg.solve(A.T @ A, A.T @ y)
Q, R = torch.linalg.qr(A)
qr_sol = torch.linalg.solve_triangular(R, (Q.T @ y).unsqueeze(1), upper=True).squeeze(1)
pinv_sol = torch.linalg.pinv(A) @ y
print("agree", torch.allclose(normal, qr_sol), torch.allclose(pinv_sol, qr_sol))
print(
    "residual",
    f"{(A @ qr_sol - y).norm().item():.6f}",
    "cond",
    f"{torch.linalg.cond(A).item():.2f}",
)

# LU factorisation, solve for several right-hand sides
M = torch.randn(4, 4, dtype=torch.float64) + 4 * torch.eye(4, dtype=torch.float64)
B = torch.randn(4, 2, dtype=torch.float64)
LU, pivots = torch.linalg.lu_factor(M)
X = torch.linalg.lu_solve(LU, pivots, B)
print("pivots", pivots, "residual small", (M @ X - B).abs().max().item() < 1e-12)
P, L, Uu = torch.linalg.lu(M)
print(torch.allclose(P @ L @ Uu, M), L.diagonal())
print("det", f"{torch.linalg.det(M).item():.6f}", torch.linalg.slogdet(M))
print("inv ok", torch.allclose(torch.linalg.inv(M) @ M, torch.eye(4, dtype=torch.float64)))

# PCA via eigh on covariance
data = torch.randn(100, 3) @ torch.tensor([[2.0, 0.0, 0.0], [1.0, 0.5, 0.0], [0.0, 0.0, 0.1]])
centered = data - data.mean(0)
cov = centered.T @ centered / (len(data) - 1)
evals, evecs = torch.linalg.eigh(cov)
print("eigenvalues", evals)
print("explained", evals.flip(0) / evals.sum())
proj = centered @ evecs[:, -2:]
print("projected var", proj.var(0))
print("cov vs torch.cov", torch.allclose(cov, torch.cov(data.T), atol=1e-5))

# gradients through spectral quantities
W = torch.randn(3, 3, requires_grad=True)
nuc = torch.linalg.svdvals(W).sum()
nuc.backward()
print(f"nuclear norm {nuc.item():.5f}", torch.allclose(nuc, torch.linalg.matrix_norm(W, "nuc")))
print(W.grad)
W.grad = None
torch.linalg.det(W).backward()
print(
    "d det/dW = det * inv^T",
    torch.allclose(W.grad, (torch.linalg.det(W) * torch.linalg.inv(W).T).detach(), atol=1e-5),
)
