# Models: a probabilistic-programming blog post on TransformedDistribution: LogNormal as
# exp of a Normal, affine and sigmoid transforms, ComposeTransform, inverse and
# log_abs_det_jacobian, cdf/icdf through monotone transforms, and change-of-variables checks.
import torch
from torch.distributions import (
                                 LogNormal,
                                 Normal,
                                 TransformedDistribution,
                                 Uniform,
                                 constraints,
                                 transforms,
)

torch.manual_seed(9)
base = Normal(torch.tensor(0.5), torch.tensor(0.8))
ln1 = TransformedDistribution(base, [transforms.ExpTransform()])
ln2 = LogNormal(0.5, 0.8)
x = ln2.sample((5,))
print("samples", x)
print("log_prob", ln1.log_prob(x), ln2.log_prob(x), sep="\n")
print("cdf", ln1.cdf(x))
print("icdf", ln1.icdf(torch.tensor([0.1, 0.5, 0.9])))
print("mean var", ln2.mean, ln2.variance)
aff = transforms.AffineTransform(loc=2.0, scale=-3.0)
t = TransformedDistribution(base, [aff])
y = t.sample((3,))
print("affine log_prob", t.log_prob(y), Normal(2 + -3 * 0.5, 3 * 0.8).log_prob(y))
comp = transforms.ComposeTransform([transforms.AffineTransform(0.0, 2.0),
                                    transforms.SigmoidTransform()])
z = torch.tensor([-1.0, 0.0, 0.7])
print("compose", comp(z), comp.inv(comp(z)))
print("ladj", comp.log_abs_det_jacobian(z, comp(z)))
print("domain", comp.domain, "codomain", comp.codomain)
logit_normal = TransformedDistribution(Normal(0.0, 1.0), [transforms.SigmoidTransform()])
u = torch.tensor([0.1, 0.5, 0.95])
print("logit-normal log_prob", logit_normal.log_prob(u))
print("by hand", Normal(0.0, 1.0).log_prob(torch.logit(u)) - torch.log(u * (1 - u)))
print("support", logit_normal.support, constraints.unit_interval.check(u))
tanh_t = transforms.TanhTransform(cache_size=1)
s = tanh_t(torch.tensor([0.3, -2.0]))
print("tanh inv cached", tanh_t.inv(s))
print(transforms.ExpTransform().inv, transforms.PowerTransform(2.0).sign)
uni = TransformedDistribution(Uniform(0.0, 1.0), [transforms.PowerTransform(torch.tensor(0.5))])
print("power", uni.log_prob(torch.tensor([0.25, 0.81])))
