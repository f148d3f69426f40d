# Models: a probabilistic programming course's tour of torch.distributions: for each continuous
# and discrete family, sample/rsample shapes, log_prob, entropy, mean, variance, stddev, mode, cdf
# and icdf where defined, support and has_rsample, batch/event shapes, and the errors for values
# outside the support with validate_args.
import torch
import torch.distributions as D

torch.manual_seed(30)
families = [
    D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])),
    D.LogNormal(torch.tensor(0.5), torch.tensor(0.8)),
    D.Exponential(torch.tensor([0.5, 2.0])),
    D.Gamma(torch.tensor(2.0), torch.tensor(3.0)),
    D.Beta(torch.tensor([2.0, 0.5]), torch.tensor([3.0, 0.5])),
    D.Uniform(torch.tensor(-1.0), torch.tensor(3.0)),
    D.Laplace(torch.tensor(0.0), torch.tensor(1.5)),
    D.Cauchy(torch.tensor(0.0), torch.tensor(1.0)),
    D.StudentT(torch.tensor(4.0), torch.tensor(0.0), torch.tensor(2.0)),
    D.Gumbel(torch.tensor(1.0), torch.tensor(2.0)),
    D.HalfNormal(torch.tensor(1.0)),
    D.HalfCauchy(torch.tensor(1.0)),
    D.Chi2(torch.tensor(3.0)),
    D.Pareto(torch.tensor(1.0), torch.tensor(3.0)),
    D.Weibull(torch.tensor(2.0), torch.tensor(1.5)),
    D.Kumaraswamy(torch.tensor(2.0), torch.tensor(3.0)),
    D.VonMises(torch.tensor(0.0), torch.tensor(2.0)),
    D.FisherSnedecor(torch.tensor(5.0), torch.tensor(7.0)),
    D.ContinuousBernoulli(probs=torch.tensor(0.3)),
    D.Bernoulli(probs=torch.tensor([0.2, 0.9])),
    D.Binomial(10, probs=torch.tensor(0.3)),
    D.Geometric(probs=torch.tensor(0.25)),
    D.Poisson(torch.tensor([1.0, 4.0])),
    D.NegativeBinomial(5, probs=torch.tensor(0.4)),
    D.Categorical(probs=torch.tensor([0.1, 0.2, 0.7])),
    D.OneHotCategorical(logits=torch.tensor([0.0, 1.0, 2.0])),
    D.Multinomial(6, probs=torch.tensor([0.2, 0.3, 0.5])),
    D.Dirichlet(torch.tensor([1.0, 2.0, 3.0])),
    D.MultivariateNormal(torch.zeros(2), torch.tensor([[2.0, 0.5], [0.5, 1.0]])),
    D.LowRankMultivariateNormal(
        torch.zeros(2), torch.tensor([[1.0], [0.5]]), torch.tensor([0.5, 0.5])
    ),
]


def attempt(d, attr, *args):
    """d.attr (called with args when it is a method), rounded, or why it is unavailable."""
    try:
        v = getattr(d, attr)
        v = v(*args) if callable(v) else v
        return v.detach().numpy().round(4).tolist() if torch.is_tensor(v) else v
    except NotImplementedError:
        return "n/a"
    except (ValueError, RuntimeError) as e:
        return type(e).__name__


for d in families:
    name = type(d).__name__
    s = d.sample((3,))
    print(
        f"{name}: batch={tuple(d.batch_shape)} event={tuple(d.event_shape)} sample{tuple(s.shape)} "
        f"rsample={d.has_rsample} support={d.support}"
    )
    print("   log_prob", attempt(d, "log_prob", s))
    print("   mean", attempt(d, "mean"), "var", attempt(d, "variance"), "std", attempt(d, "stddev"))
    print("   mode", attempt(d, "mode"), "entropy", attempt(d, "entropy"))
    print("   cdf", attempt(d, "cdf", s), "icdf(0.3)", attempt(d, "icdf", torch.tensor(0.3)))
print(D.Normal(0.0, 1.0))
print(D.Categorical(logits=torch.zeros(2, 4)))
print(D.MultivariateNormal(torch.zeros(2), torch.eye(2)))
for bad in [
    lambda: D.Normal(0.0, -1.0),
    lambda: D.Bernoulli(probs=1.5),
    lambda: D.Exponential(0.5).log_prob(torch.tensor(-1.0)),
    lambda: D.Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor(2)),
    lambda: D.Beta(1.0, 1.0).log_prob(torch.tensor(1.5)),
]:
    try:
        bad()
    except ValueError as e:
        print("ValueError:", str(e)[:160])
n = D.Normal(torch.zeros(3), torch.ones(3))
ind = D.Independent(n, 1)
print("Independent", ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(3)))
print("expand", n.expand((2, 3)).batch_shape, "sample_n shape", n.sample((4, 2)).shape)
mu = torch.tensor(0.5, requires_grad=True)
sd = torch.tensor(1.2, requires_grad=True)
D.Normal(mu, sd).rsample((1000,)).pow(2).mean().backward()
print("reparameterised grads", round(mu.grad.item(), 4), round(sd.grad.item(), 4))
