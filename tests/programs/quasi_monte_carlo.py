# Models: a numerical-integration notebook comparing plain Monte Carlo with quasi-Monte Carlo
# (torch.quasirandom.SobolEngine, scrambled and unscrambled, fast_forward, reset), estimating
# pi and a smooth 4-d integral, error decay with sample size, antithetic variates, importance
# sampling with torch.distributions, and inverse-CDF transforms of Sobol points.
import math

import torch
from torch.distributions import Normal, Uniform
from torch.quasirandom import SobolEngine

torch.manual_seed(0)
torch.set_printoptions(precision=6)

eng = SobolEngine(dimension=2)
print(eng)
first = eng.draw(8)
print(first)
eng.reset()
print("reset reproduces", torch.equal(eng.draw(8), first))
eng.reset().fast_forward(4)
print("fast_forward(4) -> rows 4..", torch.equal(eng.draw(4), first[4:]))
print("num_generated", eng.num_generated)

scr = SobolEngine(dimension=3, scramble=True, seed=1234)
pts = scr.draw(16, dtype=torch.float64)
print(pts.dtype, pts[:4])
print("column means", pts.mean(0))
print("draw_base2(3)", SobolEngine(2, scramble=True, seed=7).draw_base2(3))


def f(x):  # integral over [0,1]^4 of prod(1 + (x - 0.5)) * exp(-|x|^2/4): no closed form needed
    return torch.prod(1 + (x - 0.5), dim=1) * torch.exp(-(x ** 2).sum(1) / 4)


ref = f(SobolEngine(4, scramble=True, seed=0).draw(2 ** 14, dtype=torch.float64)).mean()
print(f"reference {ref.item():.8f}")
for m in [6, 8, 10]:
    n = 2 ** m
    mc = f(torch.rand(n, 4, dtype=torch.float64)).mean()
    qmc = f(SobolEngine(4, scramble=True, seed=m).draw(n, dtype=torch.float64)).mean()
    u = torch.rand(n // 2, 4, dtype=torch.float64)
    anti = 0.5 * (f(u) + f(1 - u)).mean()
    print(f"n={n:5d} mc err {abs(mc - ref).item():.2e} qmc err {abs(qmc - ref).item():.2e} "
          f"antithetic err {abs(anti - ref).item():.2e}")

# pi from the quarter circle
for name, pts in [("random", torch.rand(4096, 2)),
                  ("sobol", SobolEngine(2, scramble=True, seed=3).draw(4096))]:
    inside = (pts.pow(2).sum(1) <= 1).float().mean() * 4
    print(f"{name:6s} pi ~ {inside.item():.6f} err {abs(inside.item() - math.pi):.6f}")

# Gaussian expectations: inverse-CDF transform of Sobol points vs importance sampling
normal = Normal(0.0, 1.0)
u = SobolEngine(1, scramble=True, seed=5).draw(1024).squeeze(1).clamp(1e-6, 1 - 1e-6)
z = normal.icdf(u)
print("E[z^2] via icdf", (z ** 2).mean().item(), "E[max(z-1,0)]",
      (z - 1).clamp(min=0).mean().item())
proposal = Normal(2.5, 1.0)
s = proposal.sample((4096,))
w = (normal.log_prob(s) - proposal.log_prob(s)).exp()
print("P(z>2.5) importance", (w * (s > 2.5)).mean().item(), "exact",
      (1 - normal.cdf(torch.tensor(2.5))).item())
uni = Uniform(torch.tensor([0.0, -1.0]), torch.tensor([1.0, 1.0]))
print(uni, uni.sample((3,)), uni.entropy())
