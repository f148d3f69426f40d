# Models: a chaos-theory notebook with vectorised tensors: the logistic map iterated for a whole
# grid of r values at once, the bifurcation diagram summarised by the number of distinct
# attractor values per r (unique after rounding), Lyapunov exponents from the mean log|f'(x)|,
# period-doubling points located by bisection, sensitivity to initial conditions, and the
# cobweb fixed point 1 - 1/r.
import torch

torch.set_default_dtype(torch.float64)
r = torch.linspace(2.5, 4.0, 16)
x = torch.full_like(r, 0.2)
for _ in range(1000):
    x = r * x * (1 - x)
orbit = []
for _ in range(64):
    x = r * x * (1 - x)
    orbit.append(x)
orbit = torch.stack(orbit, 1)
for ri, row in zip(r.tolist(), orbit):
    distinct = torch.unique(row.round(decimals=6)).numel()
    print(f"r={ri:.2f} distinct attractor values {distinct:2d} range [{row.min().item():.4f}, "
          f"{row.max().item():.4f}]")


def lyapunov(r, n=2000, burn=500, x0=0.3):
    x = torch.full_like(r, x0)
    acc = torch.zeros_like(r)
    for i in range(n):
        x = r * x * (1 - x)
        if i >= burn:
            acc += torch.log((r * (1 - 2 * x)).abs())
    return acc / (n - burn)


rs = torch.tensor([2.8, 3.2, 3.5, 3.56, 3.7, 3.83, 3.9, 4.0])
lam = lyapunov(rs)
for ri, li in zip(rs.tolist(), lam.tolist()):
    print(f"lyapunov r={ri:.2f}: {li:+.4f} {'chaotic' if li > 0 else 'periodic'}")
print(f"lambda(4) {lam[-1].item():.4f} vs ln 2 {torch.log(torch.tensor(2.0)).item():.4f}")


def period(rv, tol=1e-6):
    x = torch.tensor(0.2)
    for _ in range(800):
        x = rv * x * (1 - x)
    start = x
    for p in range(1, 65):
        x = rv * x * (1 - x)
        if abs(x - start) < tol:
            return p
    return 0


lo, hi = torch.tensor(3.0 + 1e-3), torch.tensor(3.5)
for _ in range(16):
    mid = (lo + hi) / 2
    if period(mid) <= 2:
        lo = mid
    else:
        hi = mid
print(f"period 2 -> 4 transition near r = {lo.item():.4f} (exact 1 + sqrt(6) = 3.4495)")

a = torch.tensor([0.4, 0.4 + 1e-10])
seps = []
for t in range(60):
    a = 3.9 * a * (1 - a)
    if t % 10 == 9:
        seps.append(f"{(a[1] - a[0]).abs().item():.2e}")
print("separation every 10 steps:", seps)
rr = torch.tensor([2.5, 2.8, 2.95])
x = torch.full_like(rr, 0.1)
for _ in range(500):
    x = rr * x * (1 - x)
print("fixed points", x, "theory", 1 - 1 / rr)
print("stability |f'(x*)| =", (rr * (1 - 2 * x)).abs())
