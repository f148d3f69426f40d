# Models: a numerical-integration lab: composite midpoint, trapezoid (torch.trapezoid) and
# Simpson rules on a refinement ladder with observed convergence orders, Gauss-Legendre nodes
# from the Golub-Welsch eigenvalue problem (torch.linalg.eigh), Romberg's table, a 2-D integral
# on a meshgrid, and cumulative_trapezoid for an antiderivative.
import math

import torch

torch.set_default_dtype(torch.float64)


def f(x):
    return torch.exp(-x) * torch.cos(3 * x)


exact = (1 - math.exp(-2) * (math.cos(6) - 3 * math.sin(6))) / 10   # integral over [0, 2]
print(f"exact {exact:.15f}")


def midpoint(n):
    h = 2.0 / n
    x = torch.arange(n) * h + h / 2
    return (f(x).sum() * h).item()


def trap(n):
    x = torch.linspace(0, 2, n + 1)
    return torch.trapezoid(f(x), x).item()


def simpson(n):
    x = torch.linspace(0, 2, n + 1)
    y = f(x)
    h = 2.0 / n
    return (h / 3 * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])).item()


for name, rule in [("midpoint", midpoint), ("trapezoid", trap), ("simpson", simpson)]:
    errs = [abs(rule(n) - exact) for n in (8, 16, 32, 64)]
    orders = [math.log2(errs[i] / errs[i + 1]) for i in range(3)]
    print(f"{name:<9} errors {[f'{e:.3e}' for e in errs]} orders {[round(o, 3) for o in orders]}")


def gauss_legendre(n):
    k = torch.arange(1, n, dtype=torch.float64)
    beta = k / torch.sqrt(4 * k * k - 1)
    T = torch.diag(beta, 1) + torch.diag(beta, -1)
    nodes, vecs = torch.linalg.eigh(T)
    weights = 2 * vecs[0] ** 2
    return nodes, weights


nodes, weights = gauss_legendre(5)
print("GL5 nodes  ", nodes)
print("GL5 weights", weights)
for n in (2, 4, 6, 8, 10):
    x, w = gauss_legendre(n)
    val = (w * f(x + 1)).sum().item()          # map [-1, 1] -> [0, 2]
    print(f"gauss-legendre n={n:2d} error {abs(val - exact):.3e}")

# Romberg
R = torch.zeros(6, 6)
for i in range(6):
    R[i, 0] = trap(2 ** i)
    for j in range(1, i + 1):
        R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4 ** j - 1)
torch.set_printoptions(precision=10)
print("romberg diagonal", torch.diagonal(R))
torch.set_printoptions(profile="default")
print(f"romberg error {abs(R[5, 5].item() - exact):.2e}")

# 2-D: integral of exp(-(x^2 + y^2)) over [-3, 3]^2
xs = torch.linspace(-3, 3, 121)
X, Y = torch.meshgrid(xs, xs, indexing="ij")
Z = torch.exp(-(X ** 2 + Y ** 2))
val2 = torch.trapezoid(torch.trapezoid(Z, xs, dim=1), xs)
print(f"2-D gaussian {val2.item():.8f} vs pi*erf(3)^2 {math.pi * math.erf(3) ** 2:.8f}")

x = torch.linspace(0, math.pi, 9)
F = torch.cumulative_trapezoid(torch.sin(x), x)
print("antiderivative of sin:", F)
print("1 - cos(x):           ", (1 - torch.cos(x))[1:])
