# Models: a dimensionality-reduction notebook: PCA by torch.linalg.svd of centred data, by
# torch.pca_lowrank (randomised, niter), torch.svd_lowrank on a low-rank-plus-noise matrix,
# explained variance ratios, reconstruction error vs rank, whitening, and sign-invariant
# comparisons of components.
import torch

torch.manual_seed(50)
n, d, r = 200, 10, 3
U = torch.randn(n, r, dtype=torch.float64)
V = torch.linalg.qr(torch.randn(d, r, dtype=torch.float64)).Q
X = U @ torch.diag(torch.tensor([5.0, 3.0, 1.5], dtype=torch.float64)) @ V.T + 0.1 * torch.randn(
    n, d, dtype=torch.float64
)
Xc = X - X.mean(0)
Uf, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
ev = S**2 / (n - 1)
print("explained variance ratio", (ev / ev.sum())[:5].numpy().round(5).tolist())
print("cumulative", (ev.cumsum(0) / ev.sum())[:4].numpy().round(5).tolist())
for k in [1, 2, 3, 5]:
    recon = Uf[:, :k] @ torch.diag(S[:k]) @ Vh[:k]
    print(
        f"rank {k} relative reconstruction error "
        f"{(torch.linalg.norm(Xc - recon) / torch.linalg.norm(Xc)).item():.5f}"
    )
for niter in [0, 2, 4]:
    torch.manual_seed(1)
    u, s, v = torch.pca_lowrank(X, q=5, center=True, niter=niter)
    align = (v[:, :3].T @ Vh[:3].T).abs().diagonal()
    print(
        f"pca_lowrank niter={niter} singular values {s[:3].numpy().round(4).tolist()} |cos| "
        f"with svd {align.numpy().round(6).tolist()}"
    )
torch.manual_seed(2)
u, s, v = torch.svd_lowrank(X, q=4, niter=3)
print(
    "svd_lowrank (uncentred) top values",
    s.numpy().round(4).tolist(),
    "exact",
    torch.linalg.svdvals(X)[:4].numpy().round(4).tolist(),
)
print("svd_lowrank shapes", tuple(u.shape), tuple(s.shape), tuple(v.shape))
torch.manual_seed(3)
u2, s2, v2 = torch.svd_lowrank(X, q=3, niter=3, M=X.mean(0, keepdim=True))
print(
    "svd_lowrank with the mean as M",
    s2.numpy().round(4).tolist(),
    "vs centred svd",
    S[:3].numpy().round(4).tolist(),
)
Z = Xc @ Vh[:3].T / S[:3] * (n - 1) ** 0.5
print("whitened covariance\n", torch.cov(Z.T).round(decimals=6))
old = torch.svd(Xc)
print(
    "legacy torch.svd V vs linalg Vh.T",
    torch.allclose(old.V.abs()[:, :3], Vh[:3].T.abs()),
    "some=True shapes",
    tuple(old.U.shape),
)
print("components\n", Vh[:2].abs())
