# Models: a variational inference notes chapter on torch.distributions.kl_divergence and
# transforms: closed-form KLs between pairs of families compared with Monte Carlo estimates,
# KL for batches, the NotImplementedError for a missing pair, TransformedDistribution with affine,
# exp, sigmoid, tanh, stick-breaking and composed transforms, log_abs_det_jacobian, inverses, and
# constraint registry (biject_to / transform_to).
import torch
import torch.distributions as D
import torch.distributions.transforms as T
from torch.distributions import constraints

torch.manual_seed(31)
pairs = [
    (D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)),
    (D.Bernoulli(0.3), D.Bernoulli(0.6)),
    (D.Categorical(torch.tensor([0.2, 0.3, 0.5])), D.Categorical(torch.tensor([0.4, 0.4, 0.2]))),
    (D.Exponential(1.0), D.Exponential(3.0)),
    (D.Gamma(2.0, 1.0), D.Gamma(3.0, 2.0)),
    (D.Beta(2.0, 3.0), D.Beta(1.0, 1.0)),
    (D.Poisson(2.0), D.Poisson(5.0)),
    (D.Laplace(0.0, 1.0), D.Laplace(1.0, 2.0)),
    (D.Dirichlet(torch.tensor([1.0, 2.0])), D.Dirichlet(torch.tensor([2.0, 2.0]))),
    (D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0)),
    (
        D.MultivariateNormal(torch.zeros(2), torch.eye(2)),
        D.MultivariateNormal(torch.ones(2), 2 * torch.eye(2)),
    ),
    (D.Geometric(0.3), D.Geometric(0.5)),
    (D.Gumbel(0.0, 1.0), D.Gumbel(1.0, 2.0)),
]
for p, q in pairs:
    kl = D.kl_divergence(p, q)
    x = p.sample((20000,))
    mc = (p.log_prob(x) - q.log_prob(x)).mean()
    print(f"KL({type(p).__name__}||{type(q).__name__}) = {kl.item():.5f}   MC ~ {mc.item():.2f}")
print(
    "batched",
    D.kl_divergence(
        D.Normal(torch.zeros(3), torch.ones(3)), D.Normal(torch.arange(3.0), torch.ones(3))
    ),
)
print("KL(U||N) inf?", D.kl_divergence(D.Uniform(0.0, 1.0), D.Normal(0.0, 1.0)))
print("KL(N||U)", D.kl_divergence(D.Normal(0.0, 1.0), D.Uniform(0.0, 1.0)))
try:
    D.kl_divergence(D.VonMises(0.0, 1.0), D.Cauchy(0.0, 1.0))
except NotImplementedError as e:
    print("NotImplementedError:", e)
base = D.Normal(torch.zeros(2), torch.ones(2))
aff = D.TransformedDistribution(base, [T.AffineTransform(loc=3.0, scale=2.0)])
print(
    "affine mean of samples",
    aff.sample((5000,)).mean(0).round(decimals=1),
    "log_prob",
    aff.log_prob(torch.tensor([3.0, 5.0])),
)
lognormal = D.TransformedDistribution(D.Normal(0.0, 1.0), T.ExpTransform())
print(
    "exp(Normal) vs LogNormal",
    lognormal.log_prob(torch.tensor(2.0)),
    D.LogNormal(0.0, 1.0).log_prob(torch.tensor(2.0)),
)
logistic = D.TransformedDistribution(
    D.Uniform(0.0, 1.0), [T.SigmoidTransform().inv, T.AffineTransform(0.0, 1.0)]
)
print("logistic log_prob", logistic.log_prob(torch.tensor([0.0, 2.0])))
tanh_n = D.TransformedDistribution(D.Normal(0.0, 1.0), [T.TanhTransform(cache_size=1)])
s = tanh_n.rsample((3,))
print("tanh-normal samples in (-1,1)", bool((s.abs() < 1).all()), tanh_n.log_prob(s).shape)
sb = T.StickBreakingTransform()
y = torch.tensor([0.3, -0.2, 1.0])
simplex = sb(y)
print(
    "stick breaking",
    simplex,
    simplex.sum(),
    "inverse",
    sb.inv(simplex),
    "ladj",
    sb.log_abs_det_jacobian(y, simplex),
)
comp = T.ComposeTransform([T.AffineTransform(1.0, 2.0), T.ExpTransform()])
z = torch.tensor([0.0, 0.5])
print("compose", comp(z), comp.inv(comp(z)), comp.log_abs_det_jacobian(z, comp(z)))
print(
    "transform reprs", T.ExpTransform(), T.AffineTransform(1.0, 2.0), comp, T.SigmoidTransform().inv
)
print("domains", T.ExpTransform().domain, T.ExpTransform().codomain, sb.codomain)
for c in [
    constraints.positive,
    constraints.unit_interval,
    constraints.simplex,
    constraints.real,
    constraints.interval(-2.0, 5.0),
    constraints.greater_than(1.5),
]:
    t = D.biject_to(c)
    print(f"biject_to({c}) = {t}")
v = torch.tensor([-1.0, 0.0, 2.0])
print(
    "positive",
    D.transform_to(constraints.positive)(v),
    "interval",
    D.transform_to(constraints.interval(-2.0, 5.0))(v),
)
print(
    "check",
    constraints.positive.check(v),
    constraints.simplex.check(torch.tensor([0.2, 0.8])),
    constraints.integer_interval(0, 3).check(torch.tensor([0, 3, 4])),
)
pw = T.PowerTransform(torch.tensor(2.0))
print(
    "power",
    pw(torch.tensor([3.0])),
    pw.inv(torch.tensor([9.0])),
    pw.log_abs_det_jacobian(torch.tensor([3.0]), torch.tensor([9.0])),
)
print("softmax transform", T.SoftmaxTransform()(torch.tensor([1.0, 2.0, 3.0])))
print("abs transform", T.AbsTransform()(torch.tensor([-2.0, 3.0])))
cat = T.CatTransform([T.ExpTransform(), T.identity_transform], dim=0, lengths=[1, 2])
print("cat transform", cat(torch.tensor([0.0, 1.0, 2.0])))
st = T.StackTransform([T.ExpTransform(), T.AffineTransform(0.0, 3.0)], dim=0)
print("stack transform", st(torch.tensor([[0.0, 1.0], [1.0, 2.0]])))
