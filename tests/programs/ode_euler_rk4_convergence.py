# Models: the "write your own ODE solver" notebook: explicit Euler, Heun, midpoint and classic
# RK4 on y' = -2ty (exact solution known) with global-error convergence orders, a harmonic
# oscillator system showing Euler's energy drift against symplectic Euler and RK4, and an
# adaptive RK45 (Dormand-Prince embedded pair) step-size controller counting accepted steps.
import math

import torch

torch.set_default_dtype(torch.float64)


def f(t, y):
    return -2 * t * y


def exact(t):
    return math.exp(-t * t)


def euler_step(f, t, y, h):
    return y + h * f(t, y)


def heun_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h, y + h * k1)
    return y + h / 2 * (k1 + k2)


def midpoint_step(f, t, y, h):
    return y + h * f(t + h / 2, y + h / 2 * f(t, y))


def rk4_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def integrate(step, f, y0, t1, n):
    h = t1 / n
    y, t = y0.clone(), 0.0
    for _ in range(n):
        y = step(f, t, y, h)
        t += h
    return y


y0 = torch.tensor([1.0])
for name, step in [("euler", euler_step), ("heun", heun_step), ("midpoint", midpoint_step),
                   ("rk4", rk4_step)]:
    errs = [abs(integrate(step, f, y0, 1.5, n).item() - exact(1.5)) for n in (10, 20, 40, 80)]
    orders = [round(math.log2(errs[i] / errs[i + 1]), 3) for i in range(3)]
    print(f"{name:<8} error(n=80) {errs[-1]:.3e} observed orders {orders}")

# harmonic oscillator q'' = -q as a system
A = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
osc = lambda t, y: A @ y   # noqa: E731
z0 = torch.tensor([1.0, 0.0])
h, n = 0.1, 200
ye, yr = z0.clone(), z0.clone()
q, p = 1.0, 0.0
for i in range(n):
    ye = euler_step(osc, i * h, ye, h)
    yr = rk4_step(osc, i * h, yr, h)
    p = p - h * q
    q = q + h * p
energy = lambda y: 0.5 * (y ** 2).sum().item()   # noqa: E731
print(f"after t=20: euler energy {energy(ye):.6f} rk4 energy {energy(yr):.9f} "
      f"symplectic {0.5 * (q * q + p * p):.6f}")
print("rk4 state", yr, "exact", torch.tensor([math.cos(20.0), -math.sin(20.0)]))

# Dormand-Prince 5(4)
c = torch.tensor([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
a = [[], [1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
     [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
     [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
     [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
b5 = torch.tensor([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
b4 = torch.tensor([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40])


def dopri(f, y, t, t1, h, tol):
    accepted = rejected = 0
    while t < t1 - 1e-12:
        h = min(h, t1 - t)
        ks = []
        for i in range(7):
            yi = y + h * sum(a[i][j] * ks[j] for j in range(i)) if i else y
            ks.append(f(t + c[i].item() * h, yi))
        K = torch.stack(ks)
        y5 = y + h * (b5 @ K)
        y4 = y + h * (b4 @ K)
        err = (y5 - y4).abs().max().item()
        if err <= tol:
            t, y = t + h, y5
            accepted += 1
        else:
            rejected += 1
        h = h * min(5.0, max(0.2, 0.9 * (tol / max(err, 1e-300)) ** 0.2))
    return y, accepted, rejected


for tol in (1e-4, 1e-7, 1e-10):
    y, acc, rej = dopri(f, y0, 0.0, 1.5, 0.1, tol)
    print(f"dopri tol {tol:.0e}: steps {acc} rejected {rej} error {abs(y.item() - exact(1.5)):.2e}")
