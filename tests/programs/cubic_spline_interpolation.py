# Models: a "write your own interpolation" notebook: piecewise-linear interpolation with
# torch.searchsorted and gather, a natural cubic spline whose second derivatives come from a
# tridiagonal solve (torch.linalg.solve), a clamped spline, evaluation on a fine grid with
# bucketize, the interpolation error against the true function for a refinement ladder,
# Lagrange interpolation's Runge phenomenon at equispaced vs Chebyshev nodes, and the spline's
# derivative checked with autograd.
import math

import torch

torch.set_default_dtype(torch.float64)


def f(x):
    return torch.sin(2 * x) + 0.5 * x


def lin_interp(xk, yk, x):
    i = torch.searchsorted(xk, x, right=True).clamp(1, len(xk) - 1)
    x0, x1, y0, y1 = xk[i - 1], xk[i], yk[i - 1], yk[i]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def spline_coeffs(xk, yk, clamped=None):
    n = len(xk)
    h = xk.diff()
    A = torch.zeros(n, n)
    rhs = torch.zeros(n)
    for i in range(1, n - 1):
        A[i, i - 1], A[i, i], A[i, i + 1] = h[i - 1], 2 * (h[i - 1] + h[i]), h[i]
        rhs[i] = 6 * ((yk[i + 1] - yk[i]) / h[i] - (yk[i] - yk[i - 1]) / h[i - 1])
    if clamped is None:
        A[0, 0] = A[-1, -1] = 1.0
    else:
        d0, dn = clamped
        A[0, 0], A[0, 1] = 2 * h[0], h[0]
        rhs[0] = 6 * ((yk[1] - yk[0]) / h[0] - d0)
        A[-1, -2], A[-1, -1] = h[-1], 2 * h[-1]
        rhs[-1] = 6 * (dn - (yk[-1] - yk[-2]) / h[-1])
    return torch.linalg.solve(A, rhs)


def spline_eval(xk, yk, M, x):
    i = (torch.bucketize(x, xk) - 1).clamp(0, len(xk) - 2)
    h = xk[i + 1] - xk[i]
    a, b = xk[i + 1] - x, x - xk[i]
    return (M[i] * a ** 3 + M[i + 1] * b ** 3) / (6 * h) + \
        (yk[i] / h - M[i] * h / 6) * a + (yk[i + 1] / h - M[i + 1] * h / 6) * b


xk = torch.linspace(0, 3, 7)
yk = f(xk)
M = spline_coeffs(xk, yk)
print("natural spline second derivatives:", M)
xs = torch.linspace(0, 3, 301)
for name, approx in [("linear", lin_interp(xk, yk, xs)), ("natural", spline_eval(xk, yk, M, xs)),
                     ("clamped", spline_eval(xk, yk, spline_coeffs(
                         xk, yk, (2 * math.cos(0.0) + 0.5, 2 * math.cos(6.0) + 0.5)), xs))]:
    err = (approx - f(xs)).abs().max().item()
    print(f"{name:<8} max error {err:.3e}")
print("spline passes through knots:", torch.allclose(spline_eval(xk, yk, M, xk), yk))

for n in (5, 9, 17, 33):
    xk = torch.linspace(0, 3, n)
    Mk = spline_coeffs(xk, f(xk))
    e_spline = (spline_eval(xk, f(xk), Mk, xs) - f(xs)).abs().max().item()
    e_linear = (lin_interp(xk, f(xk), xs) - f(xs)).abs().max().item()
    print(f"n={n:2d} spline error {e_spline:.3e} linear error {e_linear:.3e}")


def lagrange(xk, yk, x):
    L = torch.ones(len(x), len(xk))
    for j in range(len(xk)):
        for m in range(len(xk)):
            if m != j:
                L[:, j] *= (x - xk[m]) / (xk[j] - xk[m])
    return L @ yk


def runge(x):
    return 1 / (1 + 25 * x ** 2)


xt = torch.linspace(-1, 1, 401)
for n in (5, 11, 17):
    equi = torch.linspace(-1, 1, n)
    cheb = torch.cos((2 * torch.arange(n) + 1) * math.pi / (2 * n))
    e1 = (lagrange(equi, runge(equi), xt) - runge(xt)).abs().max().item()
    e2 = (lagrange(cheb, runge(cheb), xt) - runge(xt)).abs().max().item()
    print(f"n={n:2d} equispaced error {e1:.4f} chebyshev error {e2:.4f}")

xk = torch.linspace(0, 3, 9)
M = spline_coeffs(xk, f(xk))
x = torch.tensor([0.4, 1.3, 2.2], requires_grad=True)
s = spline_eval(xk, f(xk), M, x)
s.sum().backward()
print("spline derivative:", x.grad)
print("true derivative:  ", 2 * torch.cos(2 * x.detach()) + 0.5)
