# Models: the policy heads of continuous/discrete RL agents (SAC, PPO, Gumbel-softmax agents)
# built on torch.distributions: tanh-squashed Normal via TransformedDistribution(TanhTransform)
# with log_prob vs the SAC correction formula, a Beta policy on [0, 1] actions,
# MultivariateNormal with scale_tril, Independent(Normal) vs Normal.log_prob.sum, Bernoulli
# and OneHotCategorical heads, RelaxedOneHotCategorical rsample gradients, and kl_divergence
# between successive policies as a trust-region check.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import (
    Bernoulli,
    Beta,
    Categorical,
    Independent,
    MultivariateNormal,
    Normal,
    OneHotCategorical,
    RelaxedOneHotCategorical,
    TanhTransform,
    TransformedDistribution,
    kl_divergence,
)

torch.manual_seed(0)
obs = torch.randn(4, 3)
head = nn.Linear(3, 4)
mu, log_std = head(obs).chunk(2, dim=-1)
log_std = log_std.clamp(-5, 2)
base = Normal(mu, log_std.exp())
squashed = TransformedDistribution(base, [TanhTransform(cache_size=1)])
u = base.rsample()
a = torch.tanh(u)
lp_sac = (base.log_prob(u) - 2 * (math.log(2) - u - F.softplus(-2 * u))).sum(-1)
lp_lib = squashed.log_prob(a).sum(-1)
print("sac log_prob", lp_sac)
print("library matches:", torch.allclose(lp_sac, lp_lib, atol=1e-4))
act = squashed.rsample()
print("squashed action range ok:", bool((act.abs() < 1).all()), act.requires_grad)
(-lp_lib.mean()).backward()
print("head grad norm", head.weight.grad.norm().item())

alpha_beta = F.softplus(torch.randn(4, 2)) + 1
beta = Beta(alpha_beta[:, 0], alpha_beta[:, 1])
s = beta.sample()
print("beta", s, beta.log_prob(s), beta.entropy(), beta.mean)

L = torch.tensor([[1.0, 0.0], [0.5, 0.8]])
mvn = MultivariateNormal(torch.zeros(2), scale_tril=L)
z = mvn.sample((3,))
print("mvn", z, mvn.log_prob(z), mvn.covariance_matrix, mvn.entropy())
ind = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
v = ind.sample((2,))
print(ind.log_prob(v), Normal(torch.zeros(3), torch.ones(3)).log_prob(v).sum(-1))
print(ind.batch_shape, ind.event_shape, ind)

bern = Bernoulli(logits=torch.tensor([-1.0, 0.0, 2.0]))
b = bern.sample((4,))
print("bernoulli", b, bern.log_prob(b).sum(0), bern.entropy(), bern.probs)
oh = OneHotCategorical(logits=torch.tensor([0.1, 1.0, -0.5]))
o = oh.sample((3,))
print("one-hot", o, oh.log_prob(o), oh.entropy())

logits = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
relaxed = RelaxedOneHotCategorical(torch.tensor(0.5), logits=logits)
r = relaxed.rsample()
print("relaxed", r, r.sum().item())
(r * torch.tensor([1.0, -1.0, 2.0])).sum().backward()
print("gumbel grad", logits.grad)
hard = F.gumbel_softmax(torch.tensor([[1.0, 2.0, 0.5]]), tau=0.5, hard=True)
print("gumbel hard", hard)

old = Categorical(logits=torch.tensor([[1.0, 0.0, -1.0], [0.0, 0.0, 0.0]]))
new = Categorical(logits=torch.tensor([[1.2, -0.1, -1.0], [0.5, 0.0, -0.5]]))
print(
    "kl cat",
    kl_divergence(old, new),
    "kl normal",
    kl_divergence(Normal(0.0, 1.0), Normal(0.5, 2.0)),
)
print("kl mvn", kl_divergence(mvn, MultivariateNormal(torch.ones(2), torch.eye(2))))
print(
    "kl beta",
    kl_divergence(
        Beta(torch.tensor(2.0), torch.tensor(3.0)), Beta(torch.tensor(1.0), torch.tensor(1.0))
    ),
)
