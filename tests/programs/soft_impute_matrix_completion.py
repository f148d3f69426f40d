# Models: matrix completion with Soft-Impute (Mazumder, Hastie & Tibshirani) and its
# gradient-based alternatives, as recommender-systems course notebooks write them: SVD soft
# thresholding of singular values, the observed-entry mask, a regularisation path over lambda,
# nuclear-norm values, RMSE on held-out entries, and a low-rank factorisation fitted by Adam
# for comparison; printed results are invariant to singular-vector signs.
import torch

torch.manual_seed(210)
m, n, r = 20, 15, 3
U = torch.randn(m, r)
V = torch.randn(n, r)
M = U @ V.T
mask = torch.rand(m, n) < 0.5
test = ~mask & (torch.rand(m, n) < 0.6)
print("observed", mask.sum().item(), "held out", test.sum().item())
print("true singular values", torch.linalg.svdvals(M)[:5])


def svt(X, lam):
    Uu, S, Vh = torch.linalg.svd(X, full_matrices=False)
    S_t = (S - lam).clamp(min=0)
    return (Uu * S_t) @ Vh, S_t


def soft_impute(lam, iters=60, Z=None):
    Z = torch.zeros(m, n) if Z is None else Z
    for it in range(iters):
        filled = torch.where(mask, M, Z)
        Z_new, s = svt(filled, lam)
        change = ((Z_new - Z).norm() ** 2 / Z.norm().clamp(min=1e-12) ** 2).item()
        Z = Z_new
        if change < 1e-7:
            break
    return Z, s, it + 1


Z = None
for lam in (8.0, 4.0, 2.0, 1.0, 0.5):
    Z, s, its = soft_impute(lam, Z=Z)
    rmse = ((Z - M)[test] ** 2).mean().sqrt()
    rank = (s > 1e-6).sum().item()
    print(f"lambda {lam:4.1f} iters {its:2d} rank {rank} nuclear {s.sum().item():.4f} "
          f"test rmse {rmse.item():.5f}")
print(torch.linalg.matrix_rank(Z), torch.linalg.norm(Z, "nuc"), torch.linalg.norm(Z, 2))
A = torch.randn(m, r, requires_grad=True)
B = torch.randn(n, r, requires_grad=True)
opt = torch.optim.Adam([A, B], lr=0.05)
for step in range(200):
    pred = A @ B.T
    loss = ((pred - M)[mask] ** 2).mean() + 1e-3 * (A.pow(2).sum() + B.pow(2).sum())
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 49:
        with torch.no_grad():
            rmse = ((A @ B.T - M)[test] ** 2).mean().sqrt()
        print(f"factorisation step {step + 1} loss {loss.item():.5f} test rmse {rmse.item():.5f}")
with torch.no_grad():
    P = A @ B.T
    print(torch.linalg.svdvals(P)[:4])
    Q, R = torch.linalg.qr(P)
    print(R.diagonal().abs()[:4], torch.dist(Q @ R, P) < 1e-4)
