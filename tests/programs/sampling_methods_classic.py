# Models: a Monte Carlo methods lecture: inverse-transform sampling, Box-Muller, rejection
# sampling from a bounded density, importance sampling with self-normalised weights and
# effective sample size, and stratified vs plain estimates of an integral.
import math

import torch
from torch.distributions import Normal, StudentT, Uniform

torch.manual_seed(0)
n = 20000
u = torch.rand(n, dtype=torch.float64)
lam = 1.5
expo = -torch.log1p(-u) / lam
print(
    "inverse transform exponential mean/var",
    expo.mean().item(),
    expo.var().item(),
    "exact",
    1 / lam,
    1 / lam**2,
)
cauchy = torch.tan(math.pi * (u - 0.5))
print(
    "cauchy median",
    cauchy.median().item(),
    "iqr",
    (torch.quantile(cauchy, 0.75) - torch.quantile(cauchy, 0.25)).item(),
)

u1, u2 = torch.rand(n // 2, dtype=torch.float64), torch.rand(n // 2, dtype=torch.float64)
r = torch.sqrt(-2 * torch.log(u1))
z = torch.cat([r * torch.cos(2 * math.pi * u2), r * torch.sin(2 * math.pi * u2)])
print(
    "box-muller mean/std/skew", z.mean().item(), z.std().item(), ((z - z.mean()) ** 3).mean().item()
)
print(
    "normal quantiles vs icdf",
    torch.quantile(z, torch.tensor([0.05, 0.5, 0.95], dtype=torch.float64)),
    Normal(0.0, 1.0).icdf(torch.tensor([0.05, 0.5, 0.95])),
)


def target_density(x):
    return (1 + torch.cos(4 * math.pi * x)) * x * (1 - x) * 6 / 1.0


M = 3.0
proposals = torch.rand(n, dtype=torch.float64)
accept = torch.rand(n, dtype=torch.float64) * M < target_density(proposals)
samples = proposals[accept]
print("rejection acceptance rate", accept.double().mean().item(), "accepted", samples.numel())
grid = torch.linspace(0, 1, 10001, dtype=torch.float64)
Z = torch.trapezoid(target_density(grid), grid)
print("normaliser", Z.item(), "expected acceptance", (Z / M).item())
print(
    "sample mean",
    samples.mean().item(),
    "exact",
    (torch.trapezoid(grid * target_density(grid), grid) / Z).item(),
)

p = StudentT(3.0)
q = Normal(0.0, 2.0)
xs = q.sample((n,))
logw = p.log_prob(xs) - q.log_prob(xs)
w = torch.softmax(logw, 0)
ess = 1 / (w**2).sum()
print("importance E[x^2] under t3", (w * xs**2).sum().item(), "exact", 3.0, "ESS", ess.item())
direct = (p.sample((n,)).abs() > 3).double().mean().item()
print("P(|x|>3) IS", (w * (xs.abs() > 3)).sum().item(), "direct sampling", direct)


def f(x):
    return torch.exp(-x) * torch.sin(3 * x) ** 2


plain = f(torch.rand(1000, dtype=torch.float64))
strata = (torch.arange(1000, dtype=torch.float64) + torch.rand(1000, dtype=torch.float64)) / 1000
strat = f(strata)
exact = torch.trapezoid(f(grid), grid).item()
se = plain.std().item() / math.sqrt(1000)
print(f"integral exact {exact:.6f} plain {plain.mean().item():.6f} +- {se:.6f}")
print(f"stratified {strat.mean().item():.6f}")
anti_u = torch.rand(500, dtype=torch.float64)
anti = 0.5 * (f(anti_u) + f(1 - anti_u))
print("antithetic estimate", anti.mean().item(), "std err", (anti.std() / math.sqrt(500)).item())
d = Uniform(torch.tensor([0.0]), torch.tensor([2.0]))
print(
    "uniform entropy/log_prob",
    d.entropy(),
    d.log_prob(torch.tensor([1.0])),
    d.cdf(torch.tensor([0.5])),
)
