# Models: unsupervised-learning notebooks in PyTorch: PCA by centring + torch.linalg.svd
# (explained variance ratios, sign-fixed components, reconstruction error), torch.pca_lowrank
# compared with the full SVD, PCA by linalg.eigh of the covariance (torch.cov), whitening,
# and spectral clustering of two rings (Gaussian affinities with cdist, the normalised
# Laplacian, eigenvectors, k-means on the embedding).
import math

import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4, sci_mode=False)

latent = torch.randn(200, 2) * torch.tensor([3.0, 1.0])
mixing = torch.linalg.qr(torch.randn(5, 5)).Q[:, :2]
X = latent @ mixing.T + 0.1 * torch.randn(200, 5) + torch.tensor([1.0, -2.0, 0.5, 0.0, 3.0])
print("data:", tuple(X.shape), "mean:", X.mean(0))

Xc = X - X.mean(0)
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
signs = torch.sign(Vh[:, :1].clone())
Vh = Vh * signs
explained = S**2 / (len(X) - 1)
ratio = explained / explained.sum()
print("singular values:", S)
print("explained variance ratio:", ratio, "cumulative:", ratio.cumsum(0))
Z = Xc @ Vh[:2].T
recon = Z @ Vh[:2] + X.mean(0)
print("reconstruction mse (2 comps):", (recon - X).pow(2).mean())
print("projected variance:", Z.var(0), "vs", explained[:2])
print("components orthonormal:", torch.allclose(Vh @ Vh.T, torch.eye(5), atol=1e-5))

cov = torch.cov(X.T)
evals, evecs = torch.linalg.eigh(cov)
print("eigh eigenvalues (ascending):", evals)
print("match svd:", torch.allclose(evals.flip(0), explained, rtol=1e-4, atol=1e-5))
top = evecs[:, -1] * torch.sign(evecs[0, -1])
print("leading component |cos| with svd:", (top @ Vh[0]).abs())
U2, S2, V2 = torch.pca_lowrank(X, q=3, center=True, niter=4)
print("pca_lowrank:", tuple(U2.shape), tuple(S2.shape), tuple(V2.shape))
print("pca_lowrank singular values close:", torch.allclose(S2[:2], S[:2], rtol=1e-3))
print("subspace agreement:", torch.linalg.matrix_norm(V2[:, :2].T @ Vh[:2].T, ord=2))
W = Vh.T[:, :2] / torch.sqrt(explained[:2])
white = Xc @ W
print("whitened covariance:\n", torch.cov(white.T))
print(torch.corrcoef(X.T[:3]))

# ---- spectral clustering of two concentric rings ----------------------------------------------
torch.manual_seed(1)
n = 80
theta = torch.rand(n) * 2 * math.pi
radius = torch.cat([torch.full((n // 2,), 1.0), torch.full((n // 2,), 3.0)])
pts = torch.stack([radius * torch.cos(theta), radius * torch.sin(theta)], 1)
pts = pts + 0.1 * torch.randn_like(pts)
truth = torch.cat([torch.zeros(n // 2), torch.ones(n // 2)]).long()
D = torch.cdist(pts, pts)
knn = D.topk(4, largest=False).values[:, -1]
print("4th-neighbour distances (inner, outer ring):", knn[:3], knn[-3:])
A = torch.exp(-(D**2) / (2 * 0.7**2))
A.fill_diagonal_(0)
deg = A.sum(1)
d_inv_sqrt = torch.diag(deg.rsqrt())
L = torch.eye(n) - d_inv_sqrt @ A @ d_inv_sqrt
vals, vecs = torch.linalg.eigh(L)
print("smallest Laplacian eigenvalues:", vals[:4])
emb = vecs[:, :2]
emb = emb / emb.norm(dim=1, keepdim=True)


def kmeans(x, k, iters=20):
    centers = x[torch.tensor([0, len(x) - 1])]
    for _ in range(iters):
        assign = torch.cdist(x, centers).argmin(1)
        centers = torch.stack([x[assign == j].mean(0) for j in range(k)])
    return assign


assign = kmeans(emb, 2)
acc = max((assign == truth).float().mean(), (assign != truth).float().mean())
print("spectral clustering accuracy:", acc.item(), "cluster sizes:", torch.bincount(assign))
raw = kmeans(pts, 2)
raw_acc = max((raw == truth).float().mean(), (raw != truth).float().mean())
print("k-means on raw points accuracy:", round(raw_acc.item(), 4))
print("eigvalsh equals eigh values:", torch.allclose(torch.linalg.eigvalsh(L), vals, atol=1e-5))
