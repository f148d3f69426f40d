# Models: covariance estimation with torch.distributions: a Wishart prior and posterior for a
# precision matrix, LKJCholesky correlation priors, a MultivariateNormal fitted by maximum
# likelihood through a LowerCholeskyTransform parametrisation, and KL divergences between
# Gaussians given by covariance, precision and scale_tril.
import torch
from torch.distributions import (
    LKJCholesky,
    MultivariateNormal,
    Wishart,
    constraints,
    kl_divergence,
    transform_to,
)

torch.manual_seed(0)
d = 3
true_cov = torch.tensor([[2.0, 0.6, 0.2], [0.6, 1.0, -0.3], [0.2, -0.3, 0.5]])
data = MultivariateNormal(torch.zeros(d), covariance_matrix=true_cov).sample((200,))
print(data.shape, data.mean(0))

prior = Wishart(df=torch.tensor(5.0), covariance_matrix=torch.eye(d))
print(prior.mean)
print(prior.variance)
W = prior.sample()
print(W)
print(f"log_prob {prior.log_prob(W).item():.4f} entropy {prior.entropy().item():.4f}")
S = data.T @ data
post = Wishart(df=prior.df + data.shape[0],
               precision_matrix=torch.linalg.inv(torch.eye(d)) + S)
print("posterior mean precision\n", post.mean)
print("posterior mean covariance approx\n", torch.linalg.inv(post.mean))
batch = Wishart(df=torch.tensor([4.0, 6.0]), scale_tril=torch.eye(d).expand(2, d, d))
print(batch.batch_shape, batch.event_shape, batch.sample((2,)).shape)
print(batch.log_prob(torch.eye(d)))

lkj = LKJCholesky(d, concentration=2.0)
L = lkj.sample()
print(L)
print(L @ L.T)
print(f"lkj log_prob {lkj.log_prob(L).item():.4f}")

to_tril = transform_to(constraints.lower_cholesky)
raw = torch.zeros(d, d, requires_grad=True)
loc = torch.zeros(d, requires_grad=True)
opt = torch.optim.Adam([raw, loc], lr=0.05)
for it in range(150):
    mvn = MultivariateNormal(loc, scale_tril=to_tril(raw))
    nll = -mvn.log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if it % 50 == 0 or it == 149:
        print(f"iter {it:3d} nll {nll.item():.5f}")
fitted = MultivariateNormal(loc.detach(), scale_tril=to_tril(raw).detach())
print(fitted.covariance_matrix)
print(torch.cov(data.T))
p = MultivariateNormal(torch.zeros(d), covariance_matrix=true_cov)
q = MultivariateNormal(torch.ones(d) * 0.1, precision_matrix=torch.linalg.inv(true_cov) * 1.5)
r = MultivariateNormal(torch.zeros(d), scale_tril=torch.linalg.cholesky(true_cov))
print(f"KL(p||q) {kl_divergence(p, q).item():.6f} KL(p||r) {kl_divergence(p, r).item():.6f}")
print(q.covariance_matrix)
print(p.entropy(), q.log_prob(torch.ones(d)))
