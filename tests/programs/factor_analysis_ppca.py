# Models: latent linear-Gaussian model notebooks: probabilistic PCA in closed form (Tipping &
# Bishop: eigendecomposition of the sample covariance with torch.linalg.eigh, the noise variance
# as the mean discarded eigenvalue), factor analysis fitted by EM, both evaluated as
# torch.distributions.LowRankMultivariateNormal log-likelihoods, posterior latent means, and a
# gradient-based fit of the same low-rank model with Adam for comparison.
import torch
from torch.distributions import LowRankMultivariateNormal, MultivariateNormal

torch.manual_seed(0)
torch.set_printoptions(precision=4, sci_mode=False)
N, D, K = 300, 6, 2
W_true = torch.randn(D, K)
psi_true = torch.rand(D) * 0.5 + 0.1
Z = torch.randn(N, K)
X = Z @ W_true.T + psi_true.sqrt() * torch.randn(N, D) + torch.arange(D, dtype=torch.float)
mu = X.mean(0)
Xc = X - mu
S = Xc.T @ Xc / N
print("sample covariance diag:", S.diagonal())

# probabilistic PCA, closed form
evals, evecs = torch.linalg.eigh(S)
evals, evecs = evals.flip(0), evecs.flip(1)
sigma2 = evals[K:].mean()
W_ppca = evecs[:, :K] * (evals[:K] - sigma2).sqrt()
ppca = LowRankMultivariateNormal(mu, W_ppca, sigma2.expand(D))
print("eigenvalues:", evals)
print(f"PPCA sigma^2 {sigma2:.4f} mean log-lik {ppca.log_prob(X).mean():.4f}")
cov_err = (ppca.covariance_matrix - (W_ppca @ W_ppca.T + sigma2 * torch.eye(D))).abs().max()
print("covariance_matrix matches W W^T + s2 I:", cov_err.item() < 1e-5)

# factor analysis by EM
W = torch.randn(D, K, generator=torch.Generator().manual_seed(1))
psi = S.diagonal().clone()
for it in range(60):
    Psi_inv_W = W / psi[:, None]
    M = torch.eye(K) + W.T @ Psi_inv_W
    Minv = torch.linalg.inv(M)
    Ez = Xc @ Psi_inv_W @ Minv
    Ezz = N * Minv + Ez.T @ Ez
    W = (Xc.T @ Ez) @ torch.linalg.inv(Ezz)
    psi = (S - W @ (Ez.T @ Xc) / N).diagonal().clamp_min(1e-4)
    if it % 20 == 19:
        ll = LowRankMultivariateNormal(mu, W, psi).log_prob(X).mean()
        print(f"FA EM iter {it + 1} mean log-lik {ll:.4f}")
print("FA noise variances:", psi)
print("true noise variances:", psi_true)
fa = LowRankMultivariateNormal(mu, W, psi)
full = MultivariateNormal(mu, fa.covariance_matrix)
print("low-rank vs full log_prob agree:",
      torch.allclose(fa.log_prob(X[:5]), full.log_prob(X[:5]), atol=1e-4))
print("entropy low-rank / full:", fa.entropy().item(), full.entropy().item())

# the subspace found: principal angles between W and W_true
Q1, _ = torch.linalg.qr(W)
Q2, _ = torch.linalg.qr(W_true)
cosines = torch.linalg.svdvals(Q1.T @ Q2)
print("cosines of principal angles:", cosines)

# posterior means of the latent factors
Psi_inv_W = W / psi[:, None]
post = Xc[:4] @ Psi_inv_W @ torch.linalg.inv(torch.eye(K) + W.T @ Psi_inv_W)
print("posterior latent means:\n", post)

# gradient-based maximum likelihood
W_g = torch.nn.Parameter(0.1 * torch.randn(D, K))
log_psi = torch.nn.Parameter(torch.zeros(D))
loc = torch.nn.Parameter(X.mean(0))
opt = torch.optim.Adam([W_g, log_psi, loc], lr=0.05)
for step in range(200):
    dist = LowRankMultivariateNormal(loc, W_g, log_psi.exp())
    loss = -dist.log_prob(X).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 49:
        print(f"Adam step {step + 1} NLL {loss.item():.4f}")
print("learned noise variances:", log_psi.exp().detach())
samples = fa.sample((3,))
print("samples:", samples.shape, samples[0])
