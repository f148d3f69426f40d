# Models: the "Monte Carlo with PyTorch" notebook: estimating pi from uniform points in the unit
# square with a torch.Generator, the 1/sqrt(n) error law, Monte Carlo integrals with standard
# errors and confidence intervals, importance sampling and antithetic variates for variance
# reduction, Buffon's needle, and a high-dimensional ball volume.
import math

import torch

g = torch.Generator().manual_seed(2024)
for n in (100, 1000, 10000, 100000):
    pts = torch.rand(n, 2, generator=g)
    inside = (pts.pow(2).sum(1) <= 1).sum().item()
    est = 4 * inside / n
    print(f"n={n:6d} inside={inside:6d} pi~{est:.5f} error {abs(est - math.pi):.5f}")

torch.manual_seed(0)
# E[f(U)] for f(u) = exp(u), U ~ U(0,1): exact e - 1
u = torch.rand(20000, dtype=torch.float64)
fx = torch.exp(u)
mean, se = fx.mean().item(), (fx.std() / math.sqrt(len(fx))).item()
print(f"plain MC   {mean:.6f} +- {se:.6f}  (exact {math.e - 1:.6f})")
print(f"95% CI [{mean - 1.96 * se:.5f}, {mean + 1.96 * se:.5f}]")
anti = 0.5 * (torch.exp(u[:10000]) + torch.exp(1 - u[:10000]))
print(f"antithetic {anti.mean().item():.6f} +- {(anti.std() / 100).item():.6f}")

# importance sampling for P(Z > 4), Z ~ N(0, 1)
z = torch.randn(100000, dtype=torch.float64)
print("naive P(Z>4):", (z > 4).double().mean().item())
shifted = z + 4
w = torch.exp(-4 * shifted + 8)
est = ((shifted > 4).double() * w).mean().item()
print(f"importance sampling {est:.4e} exact {0.5 * math.erfc(4 / math.sqrt(2)):.4e}")

# Buffon's needle (l = t = 1): P(cross) = 2 / pi
n = 50000
x = torch.rand(n) * 0.5
theta = torch.rand(n) * (math.pi / 2)
crosses = (x <= 0.5 * torch.sin(theta)).sum().item()
print(f"buffon crosses {crosses} -> pi ~ {2 * n / crosses:.4f}")

# volume of the unit ball in d dimensions
for d in (2, 3, 5, 8):
    pts = torch.rand(200000, d) * 2 - 1
    frac = (pts.pow(2).sum(1) <= 1).float().mean().item()
    exact_v = math.pi ** (d / 2) / math.gamma(d / 2 + 1)
    print(f"d={d}: MC volume {frac * 2 ** d:.4f} exact {exact_v:.4f}")

# error shrinks like 1/sqrt(n): 200 repeats at each n
for n in (100, 400, 1600):
    ests = 4 * (torch.rand(200, n, 2).pow(2).sum(-1) <= 1).float().mean(1)
    print(f"n={n:5d} std of estimates {ests.std().item():.4f} "
          f"theory {math.sqrt(math.pi * (4 - math.pi) / n):.4f}")
