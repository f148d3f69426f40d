# Models: a numerical-calculus worksheet: finite-difference derivatives with torch.diff and
# torch.gradient (uneven spacing, edge orders), trapezoid, Simpson and Gauss-Legendre
# quadrature, cumulative integrals and Richardson extrapolation, checked against autograd.
import math

import torch

dt = torch.float64
x = torch.linspace(0, math.pi, 33, dtype=dt)
f = torch.sin(x)
h = (x[1] - x[0]).item()
print("forward difference", (torch.diff(f) / h)[:4])
g1 = torch.gradient(f, spacing=h)[0]
g2 = torch.gradient(f, spacing=h, edge_order=2)[0]
print("gradient edge_order=1 ends", g1[[0, -1]], "edge_order=2 ends", g2[[0, -1]])
print("max error interior", (g1 - torch.cos(x))[1:-1].abs().max().item())
xu = torch.tensor([0.0, 0.1, 0.3, 0.7, 1.2, 2.0], dtype=dt)
gu = torch.gradient(xu**2, spacing=(xu,))[0]
print("uneven spacing d(x^2)/dx", gu)
Z = torch.outer(torch.arange(4.0, dtype=dt), torch.arange(5.0, dtype=dt) ** 2)
dz0, dz1 = torch.gradient(Z, spacing=[0.5, 1.0])
print("2-D gradient\n", dz0, "\n", dz1)
print(
    "diff n=2 prepend", torch.diff(torch.tensor([1, 4, 9, 16, 25]), n=2, prepend=torch.tensor([0]))
)

exact = 2.0
for n in (4, 8, 16, 32):
    xs = torch.linspace(0, math.pi, n + 1, dtype=dt)
    ys = torch.sin(xs)
    trap = torch.trapezoid(ys, xs).item()
    w = torch.ones(n + 1, dtype=dt)
    w[1:-1:2], w[2:-1:2] = 4, 2
    simpson = (w * ys).sum().item() * (xs[1] - xs[0]).item() / 3
    print(f"n={n:2d} trapezoid err {abs(trap - exact):.3e} simpson err {abs(simpson - exact):.3e}")


def gauss_legendre(n):
    i = torch.arange(1, n, dtype=dt)
    beta = i / torch.sqrt(4 * i**2 - 1)
    J = torch.diag(beta, 1) + torch.diag(beta, -1)
    nodes, vecs = torch.linalg.eigh(J)
    return nodes, 2 * vecs[0] ** 2


for n in (2, 3, 5, 8):
    nodes, weights = gauss_legendre(n)
    a, b = 0.0, math.pi
    val = ((b - a) / 2 * weights * torch.sin((b - a) / 2 * nodes + (a + b) / 2)).sum().item()
    print(f"gauss-legendre {n}: {val:.12f} err {abs(val - exact):.2e}")
print("weights(3)", gauss_legendre(3)[1], "nodes(3)", gauss_legendre(3)[0])

xs = torch.linspace(0, 2, 21, dtype=dt)
F_cum = torch.cumulative_trapezoid(torch.exp(xs), xs)
print(
    "cumulative integral of exp at 1, 2:",
    F_cum[9].item(),
    F_cum[-1].item(),
    "exact",
    math.e - 1,
    math.exp(2) - 1,
)


def central(fn, x0, h):
    return (fn(x0 + h) - fn(x0 - h)) / (2 * h)


x0 = torch.tensor(0.7, dtype=dt)
for hh in (0.1, 0.05, 0.025):
    d1 = central(torch.exp, x0, hh)
    d2 = central(torch.exp, x0, hh / 2)
    rich = (4 * d2 - d1) / 3
    e1, e2 = abs(d1.item() - math.exp(0.7)), abs(rich.item() - math.exp(0.7))
    print(f"h={hh}: central err {e1:.3e} richardson err {e2:.3e}")
xg = x0.clone().requires_grad_()
(gx,) = torch.autograd.grad(torch.exp(xg) * torch.sin(xg), xg)
print(
    "autograd d/dx e^x sin x",
    gx.item(),
    "central",
    central(lambda t: torch.exp(t) * torch.sin(t), x0, 1e-5).item(),
)
