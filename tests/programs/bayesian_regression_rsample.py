# Models: variational Bayesian linear regression (the "Bayes by Backprop" / Pyro-free VI
# tutorials): a mean-field Normal posterior over weights trained with rsample
# (reparameterisation), an analytic KL to the prior with kl_divergence, the ELBO, posterior
# predictive sampling, and a comparison with the closed-form Gaussian posterior.
import torch
import torch.distributions as D
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

n, d = 50, 2
X = torch.randn(n, d)
true_w = torch.tensor([1.5, -0.8])
noise = 0.3
y = X @ true_w + 0.4 + noise * torch.randn(n)


class BayesLinear(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.mu = nn.Parameter(torch.zeros(d + 1))
        self.rho = nn.Parameter(torch.full((d + 1,), -3.0))
        self.prior = D.Normal(torch.zeros(d + 1), torch.ones(d + 1))

    def posterior(self):
        return D.Normal(self.mu, F.softplus(self.rho))

    def forward(self, x, n_samples=1):
        q = self.posterior()
        w = q.rsample((n_samples,))
        return x @ w[:, :-1].T + w[:, -1], q


model = BayesLinear(d)
q0 = model.posterior()
print("initial posterior", q0)
print("batch/event shape", q0.batch_shape, q0.event_shape)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
lik_scale = torch.tensor(noise)
for step in range(1, 301):
    opt.zero_grad()
    pred, q = model(X, n_samples=8)
    log_lik = D.Normal(pred, lik_scale).log_prob(y[:, None]).sum(0).mean()
    kl = D.kl_divergence(q, model.prior).sum()
    elbo = log_lik - kl
    (-elbo).backward()
    opt.step()
    if step % 75 == 0:
        print(f"step {step}: elbo {elbo.item():.2f} kl {kl.item():.3f}")

q = model.posterior()
print("posterior mean", q.mean.detach().round(decimals=2))
print("posterior std", q.stddev.detach().round(decimals=3))

Xa = torch.cat([X, torch.ones(n, 1)], 1)
prec = Xa.T @ Xa / noise**2 + torch.eye(d + 1)
cov = torch.linalg.inv(prec)
mean = cov @ Xa.T @ y / noise**2
print("exact mean", mean.round(decimals=2))
print("exact std", cov.diagonal().sqrt().round(decimals=3))
exact = D.MultivariateNormal(mean, covariance_matrix=cov)
print(f"exact log_prob at mean {exact.log_prob(mean).item():.3f}")
print(f"entropy exact {exact.entropy().item():.3f}, mean-field {q.entropy().sum().item():.3f}")

x_new = torch.tensor([[0.0, 0.0], [1.0, 1.0], [2.0, -1.0]])
with torch.no_grad():
    samples, _ = model(x_new, n_samples=2000)
print("predictive mean", samples.mean(1).round(decimals=1))
print("predictive std", samples.std(1).round(decimals=1))
w_s = q.sample((3,))
print("sample shape", tuple(w_s.shape), "requires_grad", w_s.requires_grad)
r_s = q.rsample((3,))
print("rsample requires_grad", r_s.requires_grad, "grad_fn", type(r_s.grad_fn).__name__)
print("has_rsample", D.Normal.has_rsample, D.Bernoulli.has_rsample)
ind = D.Independent(q, 1)
print(
    "independent",
    ind.batch_shape,
    ind.event_shape,
    "log_prob shape",
    tuple(ind.log_prob(w_s).shape),
)
print(f"KL(Independent) {D.kl_divergence(ind, D.Independent(model.prior, 1)).item():.4f}")
try:
    D.Bernoulli(probs=torch.tensor([0.3])).rsample()
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    D.Normal(torch.zeros(2), torch.tensor([1.0, -1.0]))
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0])
