# Models: root finding on whole tensors at once, as in "vectorised bisection" answers: bisection
# on many brackets in parallel with torch.where, regula falsi and the secant method, the Kepler
# equation solved for a grid of mean anomalies, inverse CDFs by bisection checked against
# torch.special.ndtri, and the iteration counts each method needs.
import math

import torch

torch.set_default_dtype(torch.float64)


def bisect(f, lo, hi, tol=1e-12, max_iter=200):
    flo = f(lo)
    for it in range(max_iter):
        mid = (lo + hi) / 2
        fmid = f(mid)
        left = torch.sign(fmid) == torch.sign(flo)
        lo = torch.where(left, mid, lo)
        flo = torch.where(left, fmid, flo)
        hi = torch.where(left, hi, mid)
        if (hi - lo).max() < tol:
            return (lo + hi) / 2, it + 1
    return (lo + hi) / 2, max_iter


c = torch.tensor([2.0, 3.0, 5.0, 10.0])
roots, its = bisect(lambda x: x * x - c, torch.zeros(4), c)
print("sqrt by bisection:", roots, "iterations", its)
print("max error vs sqrt:", (roots - c.sqrt()).abs().max().item() < 1e-11)

# Kepler's equation  E - e sin E = M
e = 0.3
M = torch.linspace(0, 2 * math.pi, 7)
E, its = bisect(lambda E: E - e * torch.sin(E) - M, M - 1, M + 1)
print("eccentric anomaly:", E)
print("residual:", (E - e * torch.sin(E) - M).abs().max().item() < 1e-10, its)


def regula_falsi(f, a, b, iters):
    fa, fb = f(a), f(b)
    for _ in range(iters):
        c = b - fb * (b - a) / (fb - fa)
        fc = f(c)
        same = torch.sign(fc) == torch.sign(fa)
        a = torch.where(same, c, a)
        fa = torch.where(same, fc, fa)
        b = torch.where(same, b, c)
        fb = torch.where(same, fb, fc)
    return c


def secant(f, x0, x1, iters):
    for k in range(iters):
        f0, f1 = f(x0), f(x1)
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        x0, x1 = x1, x2
        print(f"  secant {k}: {x1.tolist()}")
    return x1


g = lambda x: x ** 3 - 2 * x - 5   # noqa: E731  (Newton's classic example)
print("regula falsi:", regula_falsi(g, torch.tensor([2.0]), torch.tensor([3.0]), 30))
s = secant(g, torch.tensor([2.0]), torch.tensor([3.0]), 7)

# inverse normal CDF by bisection vs ndtri
p = torch.tensor([0.001, 0.025, 0.16, 0.5, 0.84, 0.975, 0.999])
q, its = bisect(lambda x: torch.special.ndtr(x) - p, torch.full_like(p, -10),
                torch.full_like(p, 10))
print("quantiles:", q)
print("ndtri    :", torch.special.ndtri(p))
print("agree:", torch.allclose(q, torch.special.ndtri(p), atol=1e-9), its)

# float32 bisection stalls once the bracket is one ulp wide
lo32, hi32 = torch.tensor([1.0], dtype=torch.float32), torch.tensor([2.0], dtype=torch.float32)
for it in range(60):
    mid = (lo32 + hi32) / 2
    if mid.item() in (lo32.item(), hi32.item()):
        print("float32 bracket exhausted after", it, "halvings:", lo32.item(), hi32.item())
        break
    if (mid * mid - 2).item() > 0:
        hi32 = mid
    else:
        lo32 = mid
