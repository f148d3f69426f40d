# Models: a probabilistic-modelling course notebook: a Gaussian mixture fitted by gradient
# descent with MixtureSameFamily, a tour of distributions, KL divergences and special functions.
import torch
import torch.distributions as D

torch.manual_seed(0)
data = torch.cat([torch.randn(200) * 0.5 - 2, torch.randn(300) * 0.8 + 1.5])
logits = torch.zeros(2, requires_grad=True)
locs = torch.tensor([-1.0, 1.0], requires_grad=True)
log_scales = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([logits, locs, log_scales], lr=0.05)
for step in range(150):
    mix = D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(locs, log_scales.exp()))
    nll = -mix.log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 50 == 0:
        print(step, round(nll.item(), 5))
print(torch.softmax(logits, 0), locs, log_scales.exp())
print(mix.sample((4,)), mix.mean, mix.variance)
for d in (
    D.Beta(2.0, 3.0),
    D.Gamma(2.0, 1.5),
    D.Poisson(3.0),
    D.Binomial(10, 0.3),
    D.LogNormal(0.0, 0.5),
    D.Laplace(0.0, 1.0),
    D.StudentT(4.0),
    D.Exponential(2.0),
    D.Geometric(0.3),
    D.Cauchy(0.0, 1.0),
    D.HalfNormal(1.0),
    D.Chi2(3.0),
):
    s = d.sample((3,))
    print(type(d).__name__, s, d.log_prob(s), d.mean, d.variance)
dir_ = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
print(dir_.sample(), dir_.entropy(), dir_.log_prob(torch.tensor([0.2, 0.3, 0.5])))
mn = D.Multinomial(5, probs=torch.tensor([0.2, 0.3, 0.5]))
print(mn.sample((2,)), mn.log_prob(torch.tensor([1.0, 1.0, 3.0])))
mvn = D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 0.8]]))
print(mvn.rsample((2,)), mvn.entropy(), mvn.covariance_matrix)
p, q = D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)
print(D.kl_divergence(p, q), D.kl_divergence(D.Bernoulli(0.3), D.Bernoulli(0.6)))
print(
    D.kl_divergence(
        D.Categorical(probs=torch.tensor([0.1, 0.9])), D.Categorical(logits=torch.zeros(2))
    )
)
ind = D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.ones(3)))
tr = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.ExpTransform()])
print(tr.log_prob(torch.tensor(2.0)), D.LogNormal(0.0, 1.0).log_prob(torch.tensor(2.0)))
x = torch.linspace(0.1, 3.0, 5)
print(torch.special.gammaln(x), torch.special.digamma(x), torch.special.polygamma(1, x))
print(
    torch.special.erfcx(x),
    torch.special.ndtr(x),
    torch.special.ndtri(torch.tensor([0.1, 0.5, 0.9])),
)
print(
    torch.special.log_ndtr(-x), torch.special.i0(x), torch.special.i1e(x), torch.special.xlogy(x, x)
)
print(torch.special.entr(torch.tensor([0.0, 0.5, 1.0])), torch.special.multigammaln(x + 2, 2))
print(
    torch.special.logit(torch.tensor([0.2, 0.7]), eps=1e-6), torch.special.sinc(x), torch.lgamma(x)
)
