# Models: probabilistic modelling with torch.distributions as in Pyro-free tutorials and
# public VAE/RL code -- MultivariateNormal with scale_tril, Independent over a diagonal Normal,
# kl_divergence (analytic and Monte Carlo), MixtureSameFamily of Gaussians fitted by maximum
# likelihood, TransformedDistribution with affine/exp/sigmoid transforms, rsample
# reparameterisation gradients, Dirichlet/Beta/Gamma/Categorical/OneHotCategorical draws,
# entropy, cdf/icdf, and batch/event shapes.
import torch
import torch.distributions as D
from torch.distributions import constraints, transforms

torch.manual_seed(0)
loc = torch.tensor([0.5, -1.0])
tril = torch.tensor([[1.0, 0.0], [0.6, 0.8]])
mvn = D.MultivariateNormal(loc, scale_tril=tril)
x = mvn.sample((4,))
print(x)
print("log_prob", mvn.log_prob(x))
print("cov", mvn.covariance_matrix, "entropy", mvn.entropy())
mvn2 = D.MultivariateNormal(torch.zeros(2), covariance_matrix=torch.eye(2) * 2)
print("kl mvn", D.kl_divergence(mvn, mvn2))
print("precision", mvn2.precision_matrix)

diag = D.Independent(D.Normal(torch.zeros(3, 2), torch.ones(3, 2) * 0.5), 1)
print("independent", diag.batch_shape, diag.event_shape, diag.log_prob(torch.zeros(3, 2)))
q = D.Normal(torch.tensor([0.3, -0.2]), torch.tensor([0.9, 1.4]))
p = D.Normal(torch.zeros(2), torch.ones(2))
print("kl analytic", D.kl_divergence(q, p))
z = q.rsample((20000,))
print("kl monte carlo close", torch.allclose((q.log_prob(z) - p.log_prob(z)).mean(0),
                                             D.kl_divergence(q, p), atol=0.05))
print("kl categorical", D.kl_divergence(D.Categorical(probs=torch.tensor([0.2, 0.8])),
                                        D.Categorical(logits=torch.tensor([0.0, 0.0]))))
print("kl bernoulli", D.kl_divergence(D.Bernoulli(0.3), D.Bernoulli(0.6)))
print("kl beta", D.kl_divergence(D.Beta(2.0, 3.0), D.Beta(1.0, 1.0)))

# mixture of Gaussians fitted by maximum likelihood
data = torch.cat([torch.randn(150) * 0.5 - 2, torch.randn(100) * 0.8 + 1.5])
logits = torch.zeros(2, requires_grad=True)
means = torch.tensor([-1.0, 1.0], requires_grad=True)
log_scales = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([logits, means, log_scales], lr=0.05)
for step in range(150):
    mix = D.MixtureSameFamily(D.Categorical(logits=logits),
                              D.Normal(means, log_scales.exp()))
    nll = -mix.log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} nll {nll.item():.5f}")
print("weights", logits.softmax(0), "means", means, "scales", log_scales.exp())
print("mixture mean/var", mix.mean, mix.variance)

base = D.Normal(torch.zeros(2), torch.ones(2))
lognormal = D.TransformedDistribution(base, [transforms.AffineTransform(1.0, 0.5),
                                             transforms.ExpTransform()])
s = lognormal.sample((3,))
print("transformed", s, lognormal.log_prob(s))
print("vs LogNormal", D.LogNormal(1.0, 0.5).log_prob(s))
logistic = D.TransformedDistribution(D.Uniform(0.0, 1.0), [transforms.SigmoidTransform().inv])
print("logistic", logistic.log_prob(torch.tensor([0.0, 1.0])))
t = transforms.ComposeTransform([transforms.AffineTransform(0.0, 2.0),
                                 transforms.TanhTransform()])
y = t(torch.tensor([0.1, -0.3]))
print("compose", y, t.inv(y), t.log_abs_det_jacobian(torch.tensor([0.1, -0.3]), y))
print(constraints.positive.check(torch.tensor([1.0, -1.0])), D.Normal.arg_constraints)

mu = torch.tensor([1.0], requires_grad=True)
sigma = torch.tensor([2.0], requires_grad=True)
sample = D.Normal(mu, sigma).rsample((5,))
(sample ** 2).mean().backward()
print("reparam grads", mu.grad, sigma.grad)
print("has_rsample", D.Normal.has_rsample, D.Categorical.has_rsample, D.Gamma.has_rsample)

print("dirichlet", D.Dirichlet(torch.tensor([1.0, 2.0, 3.0])).sample((2,)))
print("beta", D.Beta(torch.tensor([2.0]), torch.tensor([5.0])).sample((3,)).flatten())
print("gamma", D.Gamma(torch.tensor([2.0, 0.5]), torch.tensor([1.0, 2.0])).sample())
print("onehot", D.OneHotCategorical(probs=torch.tensor([0.1, 0.6, 0.3])).sample((3,)))
print("poisson", D.Poisson(torch.tensor([3.0, 10.0])).sample((2,)))
print("binomial", D.Binomial(10, torch.tensor([0.2, 0.7])).sample())
print("geometric", D.Geometric(torch.tensor([0.3])).sample((4,)).flatten())
print("laplace", D.Laplace(0.0, 1.0).sample((3,)), D.Laplace(0.0, 2.0).entropy())
print("studentT", D.StudentT(3.0).log_prob(torch.tensor(0.5)))
print("exponential", D.Exponential(2.0).cdf(torch.tensor(1.0)), D.Exponential(2.0).mean)
n01 = D.Normal(0.0, 1.0)
print("cdf/icdf", n01.cdf(torch.tensor([-1.0, 0.0, 1.96])), n01.icdf(torch.tensor([0.025,
                                                                                  0.975])))
print("entropies", D.Categorical(logits=torch.tensor([1.0, 2.0, 3.0])).entropy(),
      D.Uniform(0.0, 4.0).entropy(), D.Bernoulli(logits=torch.tensor(0.3)).entropy())
cat = D.Categorical(probs=torch.tensor([[0.2, 0.8], [0.5, 0.5]]))
print(cat.batch_shape, cat.event_shape, cat.sample((3,)).shape, cat.enumerate_support().shape)
print(D.Normal(torch.zeros(2, 3), 1.0).expand((4, 2, 3)).batch_shape)
print(mvn, D.Normal(0.0, 1.0), D.Categorical(probs=torch.tensor([0.5, 0.5])))
