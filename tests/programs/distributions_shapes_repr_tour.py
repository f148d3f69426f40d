# Models: the torch.distributions docs and Pyro-style shape tutorials: batch_shape vs
# event_shape vs sample_shape for Normal, MultivariateNormal, LowRankMultivariateNormal,
# Independent, Categorical, OneHotCategorical, RelaxedOneHotCategorical, ContinuousBernoulli,
# Kumaraswamy, expand(), reprs of distributions, entropy/mean/variance/mode, cdf/icdf, and
# the validation errors for bad parameters and out-of-support values.
import torch
import torch.distributions as D

torch.manual_seed(0)
dists = [
    D.Normal(torch.zeros(3), torch.ones(3)),
    D.Independent(D.Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1),
    D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]])),
    D.LowRankMultivariateNormal(torch.zeros(3), torch.tensor([[1.0], [0.5], [0.2]]), torch.ones(3)),
    D.Categorical(logits=torch.tensor([[0.1, 0.2, 0.7], [1.0, 0.0, -1.0]])),
    D.OneHotCategorical(probs=torch.tensor([0.2, 0.3, 0.5])),
    D.RelaxedOneHotCategorical(torch.tensor(0.5), probs=torch.tensor([0.2, 0.3, 0.5])),
    D.ContinuousBernoulli(probs=torch.tensor([0.2, 0.7])),
    D.Kumaraswamy(torch.tensor([2.0]), torch.tensor([3.0])),
    D.Binomial(10, torch.tensor([0.3, 0.6])),
    D.Geometric(torch.tensor([0.3])),
    D.LogNormal(torch.tensor(0.0), torch.tensor(0.5)),
    D.HalfCauchy(torch.tensor([1.0])),
    D.Uniform(torch.tensor([0.0, 1.0]), torch.tensor([2.0, 3.0])),
]
for d in dists:
    s = d.sample((4,))
    print(repr(d))
    print("  batch", d.batch_shape, "event", d.event_shape, "sample", s.shape,
          "log_prob", d.log_prob(s).shape)
for d in dists[:4] + dists[7:]:
    print(type(d).__name__, "mean", d.mean, "var", d.variance)
for d in (dists[0], dists[2], dists[4], dists[7], dists[9], dists[13]):
    print(type(d).__name__, "entropy", d.entropy())
for d in (dists[0], dists[2], dists[4], dists[9], dists[10], dists[11]):
    print(type(d).__name__, "mode", d.mode)
n = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n.cdf(torch.tensor([0.5, 0.5])), n.icdf(torch.tensor([0.1, 0.9])))
e = n.expand(torch.Size([3, 2]))
print(e, e.batch_shape, e.sample().shape)
print(dists[7].cdf(torch.tensor([0.3, 0.3])), dists[7].icdf(torch.tensor([0.5, 0.5])))
print(dists[8].cdf(torch.tensor([0.5])) if hasattr(dists[8], "cdf") else None)
for bad in (lambda: D.Normal(torch.tensor(0.0), torch.tensor(-1.0)),
            lambda: D.Categorical(probs=torch.tensor([[-0.1, 1.1]])),
            lambda: D.Bernoulli(probs=torch.tensor(1.5)),
            lambda: D.Normal(0.0, 1.0).log_prob(torch.tensor(float("nan"))),
            lambda: D.Exponential(torch.tensor(1.0)).log_prob(torch.tensor(-1.0)),
            lambda: D.Categorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor(2)),
            lambda: D.MultivariateNormal(torch.zeros(2)),
            lambda: D.Binomial(total_count=torch.tensor(-2.0), probs=torch.tensor(0.5))):
    try:
        bad()
        print("no error")
    except (ValueError, TypeError) as err:
        print(type(err).__name__ + ":", err)
D.Distribution.set_default_validate_args(False)
print(D.Exponential(torch.tensor(1.0)).log_prob(torch.tensor(-1.0)))
D.Distribution.set_default_validate_args(True)
print(D.kl_divergence(dists[0], D.Normal(torch.ones(3), 2 * torch.ones(3))))
print(D.kl_divergence(dists[4], D.Categorical(logits=torch.zeros(2, 3))))
print(D.kl_divergence(dists[2], D.MultivariateNormal(torch.ones(2), torch.eye(2))))
print(D.kl_divergence(dists[3], D.MultivariateNormal(torch.zeros(3), torch.eye(3))))
