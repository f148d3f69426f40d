# Models: a variational-inference reference table: closed-form kl_divergence for many pairs of
# distributions (Normal, Bernoulli, Categorical, Beta, Gamma, Exponential, Uniform, Poisson,
# Laplace, Dirichlet, MultivariateNormal), compared with Monte-Carlo estimates, and the error
# for an unregistered pair.
import torch
import torch.distributions as D

torch.manual_seed(77)
pairs = [
    (D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)),
    (D.Bernoulli(0.3), D.Bernoulli(0.6)),
    (D.Categorical(torch.tensor([0.2, 0.5, 0.3])), D.Categorical(torch.tensor([0.4, 0.4, 0.2]))),
    (D.Beta(2.0, 3.0), D.Beta(1.5, 1.5)),
    (D.Gamma(2.0, 1.0), D.Gamma(3.0, 2.0)),
    (D.Exponential(1.5), D.Exponential(0.5)),
    (D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0)),
    (D.Poisson(3.0), D.Poisson(4.0)),
    (D.Laplace(0.0, 1.0), D.Laplace(0.5, 2.0)),
    (D.Dirichlet(torch.tensor([1.0, 2.0, 3.0])), D.Dirichlet(torch.tensor([2.0, 2.0, 2.0]))),
    (D.MultivariateNormal(torch.zeros(2), torch.eye(2)),
     D.MultivariateNormal(torch.ones(2), torch.tensor([[2.0, 0.3], [0.3, 1.0]]))),
    (D.Uniform(0.0, 1.0), D.Normal(0.0, 1.0)),
    (D.Exponential(1.0), D.Gamma(2.0, 1.0)),
]
for p, q in pairs:
    kl = D.kl_divergence(p, q)
    s = p.sample((20000,))
    mc = (p.log_prob(s) - q.log_prob(s)).mean()
    print(f"{type(p).__name__:>18} || {type(q).__name__:<18} {kl.item():.6f}  mc {mc.item():.3f}")
print("reverse infinite", D.kl_divergence(D.Uniform(-1.0, 2.0), D.Uniform(0.0, 1.0)))
print("batched", D.kl_divergence(D.Normal(torch.zeros(3), 1.0), D.Normal(torch.arange(3.0), 1.0)))
try:
    D.kl_divergence(D.Poisson(1.0), D.Normal(0.0, 1.0))
except NotImplementedError as e:
    print("NotImplementedError:", e)
