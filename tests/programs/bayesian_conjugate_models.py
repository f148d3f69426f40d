# Models: a "Bayesian statistics with torch.distributions" course exercise: Beta-Binomial and
# Gamma-Poisson conjugate updates with posterior sampling, Student-t/Cauchy/Laplace robust
# likelihoods, a Gibbs-free Monte Carlo posterior predictive, Gumbel/Weibull/HalfNormal/
# VonMises/Geometric/NegativeBinomial/OneHotCategorical draws, cdf/icdf and special functions
# (lgamma, digamma, erfinv, xlogy, i0) used in the formulas.
import torch
import torch.distributions as D

torch.manual_seed(0)
torch.set_printoptions(precision=4)

# coin flips
flips = D.Bernoulli(probs=0.7).sample((50,))
heads = flips.sum()
print("heads", int(heads), "of", flips.numel())
prior = D.Beta(2.0, 2.0)
post = D.Beta(prior.concentration1 + heads, prior.concentration0 + 50 - heads)
print(
    "posterior mean",
    f"{post.mean.item():.4f}",
    "mode",
    f"{((post.concentration1 - 1) / (post.concentration1 + post.concentration0 - 2)).item():.4f}",
)
draws = post.sample((2000,))
print("posterior sample mean/std", f"{draws.mean().item():.3f} {draws.std().item():.3f}")
print("95% interval", torch.quantile(draws, torch.tensor([0.025, 0.975])))
pred = D.Binomial(10, probs=draws[:5]).sample()
print("predictive draws", pred)
print(
    "binomial log_prob",
    D.Binomial(10, probs=torch.tensor(0.7)).log_prob(torch.arange(0.0, 11.0, 2.0)),
)

# counts
counts = D.Poisson(3.5).sample((30,))
print("counts", counts[:10], counts.sum())
g_post = D.Gamma(1.0 + counts.sum(), 1.0 + len(counts))
print("gamma posterior", f"{g_post.mean.item():.4f} {g_post.stddev.item():.4f}")
lam = g_post.sample((5,))
print("rate draws", lam)
nb = D.NegativeBinomial(total_count=g_post.concentration, probs=1 / (g_post.rate + 1))
print("negbin predictive mean", f"{nb.mean.item():.4f}", nb.sample((6,)))
print("gamma rsample grad")
alpha = torch.tensor([0.5, 2.0, 10.0], requires_grad=True)
s = D.Gamma(alpha, torch.ones(3)).rsample()
s.sum().backward()
print(s, alpha.grad)

# robust likelihoods
data = torch.cat([torch.randn(20) * 0.5 + 1.0, torch.tensor([8.0, -6.0])])
for dist_cls, kwargs in [
    (D.Normal, {}),
    (D.StudentT, {"df": 3.0}),
    (D.Laplace, {}),
    (D.Cauchy, {}),
]:
    loc = torch.zeros(1, requires_grad=True)
    opt = torch.optim.Adam([loc], lr=0.1)
    for _ in range(100):
        opt.zero_grad()
        nll = -dist_cls(loc=loc, scale=torch.tensor(0.5), **kwargs).log_prob(data).mean()
        nll.backward()
        opt.step()
    print(f"{dist_cls.__name__:8s} loc {loc.item():.3f} nll {nll.item():.3f}")

st = D.StudentT(4.0, 0.0, 1.0)
print("student-t", st.sample((3,)), st.variance, st.entropy())
for d in [
    D.Gumbel(0.0, 1.0),
    D.Weibull(1.5, 2.0),
    D.HalfNormal(1.0),
    D.VonMises(0.0, 2.0),
    D.Geometric(0.3),
    D.Exponential(2.0),
]:
    x = d.sample((4,))
    print(f"{type(d).__name__:11s}", x, d.log_prob(x))
print(
    "halfnormal cdf/icdf",
    D.HalfNormal(1.0).cdf(torch.tensor(1.0)),
    D.Normal(0.0, 1.0).icdf(torch.tensor([0.025, 0.5, 0.975])),
)
print("laplace cdf", D.Laplace(0.0, 1.0).cdf(torch.tensor([-1.0, 0.0, 2.0])))
ohc = D.OneHotCategorical(logits=torch.tensor([0.0, 1.0, 2.0]))
print("one-hot", ohc.sample((4,)), ohc.entropy())
print("mean/var", D.Gumbel(0.0, 1.0).mean, D.Weibull(1.5, 2.0).variance, D.Geometric(0.3).mean)

x = torch.tensor([0.5, 1.0, 3.0])
print("lgamma", torch.lgamma(x), "digamma", torch.digamma(x))
print(
    "erfinv",
    torch.erfinv(torch.tensor([-0.5, 0.0, 0.9])),
    "xlogy",
    torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])),
)
print(
    "i0",
    torch.special.i0(x),
    "logit",
    torch.logit(torch.tensor([0.1, 0.5]), eps=1e-6),
    "ndtr",
    torch.special.ndtr(x),
)
print(
    "multigammaln",
    torch.mvlgamma(torch.tensor([2.5, 3.0]), p=2),
    "betaln",
    (torch.lgamma(x[:2]) + torch.lgamma(x[1:]) - torch.lgamma(x[:2] + x[1:])),
)
