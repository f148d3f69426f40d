# Models: a course notebook on multivariate normals: MultivariateNormal from covariance,
# precision and scale_tril, their agreement, conditioning a joint Gaussian on observed
# coordinates by the Schur complement, Mahalanobis distances, entropy and KL.
import torch
from torch.distributions import MultivariateNormal, kl_divergence

torch.manual_seed(7)
A = torch.randn(4, 4, dtype=torch.float64)
cov = A @ A.T + 4 * torch.eye(4, dtype=torch.float64)
mu = torch.tensor([1.0, -1.0, 0.5, 2.0], dtype=torch.float64)
m1 = MultivariateNormal(mu, covariance_matrix=cov)
m2 = MultivariateNormal(mu, precision_matrix=torch.linalg.inv(cov))
m3 = MultivariateNormal(mu, scale_tril=torch.linalg.cholesky(cov))
x = m1.sample((3,))
print("samples\n", x)
print("log_probs", m1.log_prob(x), m2.log_prob(x), m3.log_prob(x), sep="\n")
print("entropy", m1.entropy(), "scale_tril\n", m1.scale_tril)
print("covariance from precision\n", m2.covariance_matrix)
idx_a, idx_b = [0, 1], [2, 3]
xb = torch.tensor([0.0, 1.5], dtype=torch.float64)
Saa = cov[idx_a][:, idx_a]
Sab = cov[idx_a][:, idx_b]
Sbb = cov[idx_b][:, idx_b]
cond_mu = mu[idx_a] + Sab @ torch.linalg.solve(Sbb, xb - mu[idx_b])
cond_cov = Saa - Sab @ torch.linalg.solve(Sbb, Sab.T)
print("conditional mean", cond_mu)
print("conditional cov\n", cond_cov)
cond = MultivariateNormal(cond_mu, cond_cov)
print("cond log_prob at mean", cond.log_prob(cond_mu))
diff = x - mu
maha = (diff @ torch.linalg.inv(cov) * diff).sum(-1)
print("mahalanobis^2", maha)
other = MultivariateNormal(torch.zeros(4, dtype=torch.float64),
                           torch.eye(4, dtype=torch.float64))
print("KL", kl_divergence(m1, other), kl_divergence(other, m1))
batch = MultivariateNormal(torch.zeros(2, 3), torch.eye(3).expand(2, 3, 3))
print(batch.batch_shape, batch.event_shape, batch.sample((4,)).shape)
r = m3.rsample((2,))
print("rsample grad_fn", type(r.grad_fn).__name__ if r.grad_fn else None)
try:
    MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except ValueError as e:
    print("ValueError:", str(e)[:120])
