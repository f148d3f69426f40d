# Models: the UFLDL "PCA and whitening" exercise: covariance by hand, eigh, variance retained,
# PCA whitening and ZCA whitening (identity covariance checks), reconstruction from k
# components, and torch.pca_lowrank on the same data (up to sign).
import torch

torch.manual_seed(5)
mix = torch.tensor([[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 0.2]], dtype=torch.float64)
X = torch.randn(200, 3, dtype=torch.float64) @ mix
Xc = X - X.mean(0)
cov = Xc.T @ Xc / (X.shape[0] - 1)
print("cov\n", cov)
print("torch.cov agrees", torch.allclose(cov, torch.cov(X.T)))
evals, evecs = torch.linalg.eigh(cov)
order = evals.argsort(descending=True)
evals, evecs = evals[order], evecs[:, order]
print("eigenvalues", evals)
print("variance retained", (evals.cumsum(0) / evals.sum()))
eps = 1e-5
pca_white = Xc @ evecs / torch.sqrt(evals + eps)
zca_white = pca_white @ evecs.T
print("pca white cov\n", torch.cov(pca_white.T))
print("zca white cov\n", torch.cov(zca_white.T))
for k in [1, 2, 3]:
    Z = Xc @ evecs[:, :k]
    Xr = Z @ evecs[:, :k].T
    print(k, "components, mse", ((Xr - Xc) ** 2).mean().item())
U, S, V = torch.pca_lowrank(X, q=3, center=True)
print("singular^2/(n-1)", S ** 2 / (X.shape[0] - 1))
print("|cos| with eigh", (V.T @ evecs).abs().diagonal())
