# Models: particle swarm optimisation of the Rastrigin and Rosenbrock functions, vectorised over
# particles, with inertia decay and velocity clamping; compared with plain gradient descent.
import math

import torch

torch.manual_seed(0)


def rastrigin(x):
    return 10 * x.shape[-1] + (x**2 - 10 * torch.cos(2 * math.pi * x)).sum(-1)


def rosenbrock(x):
    return (100 * (x[..., 1:] - x[..., :-1] ** 2) ** 2 + (1 - x[..., :-1]) ** 2).sum(-1)


def pso(f, dim, n=40, iters=200, bound=5.12, seed=0):
    gen = torch.Generator().manual_seed(seed)
    x = (torch.rand(n, dim, generator=gen) * 2 - 1) * bound
    v = torch.zeros_like(x)
    pbest, pbest_val = x.clone(), f(x)
    g_idx = pbest_val.argmin()
    gbest, gbest_val = pbest[g_idx].clone(), pbest_val[g_idx].clone()
    vmax = 0.2 * bound
    for t in range(iters):
        w = 0.9 - 0.5 * t / iters
        r1, r2 = torch.rand(n, dim, generator=gen), torch.rand(n, dim, generator=gen)
        v = w * v + 1.5 * r1 * (pbest - x) + 1.5 * r2 * (gbest - x)
        v = v.clamp(-vmax, vmax)
        x = (x + v).clamp(-bound, bound)
        val = f(x)
        better = val < pbest_val
        pbest = torch.where(better[:, None], x, pbest)
        pbest_val = torch.where(better, val, pbest_val)
        i = pbest_val.argmin()
        if pbest_val[i] < gbest_val:
            gbest, gbest_val = pbest[i].clone(), pbest_val[i].clone()
        if t % 50 == 49:
            print(
                f"  iter {t + 1:3d} best {gbest_val.item():.6f} swarm spread {x.std(0).mean():.5f}"
            )
    return gbest, gbest_val


for name, f, dim, bound in [
    ("rastrigin", rastrigin, 2, 5.12),
    ("rastrigin", rastrigin, 5, 5.12),
    ("rosenbrock", rosenbrock, 2, 2.0),
]:
    print(name, dim)
    best, val = pso(f, dim, bound=bound)
    print("  argmin", best, f"value {val.item():.6f}")

x = torch.full((2,), 0.3, requires_grad=True)
opt = torch.optim.SGD([x], lr=1e-3)
for _ in range(200):
    opt.zero_grad()
    loss = rastrigin(x)
    loss.backward()
    opt.step()
print("gradient descent from 0.3 ends at", x.detach(), f"f={rastrigin(x).item():.6f}")
