# Models: a computational physics class's N-body simulation: softened gravity with pairwise
# broadcasting, forces from autograd of the potential vs the analytic formula, symplectic
# leapfrog vs explicit Euler, energy and momentum drift, and the centre of mass.
import torch

torch.manual_seed(44)
n = 5
pos = torch.randn(n, 3, dtype=torch.float64)
vel = 0.3 * torch.randn(n, 3, dtype=torch.float64)
mass = torch.rand(n, dtype=torch.float64) + 0.5
vel = vel - (mass[:, None] * vel).sum(0) / mass.sum()
G, soft = 1.0, 0.1


def potential(p):
    d = p[:, None, :] - p[None, :, :]
    r = torch.sqrt((d**2).sum(-1) + soft**2)
    iu = torch.triu_indices(n, n, 1)
    return -(G * mass[iu[0]] * mass[iu[1]] / r[iu[0], iu[1]]).sum()


def forces_analytic(p):
    d = p[None, :, :] - p[:, None, :]
    r2 = (d**2).sum(-1) + soft**2
    inv3 = r2**-1.5
    inv3.fill_diagonal_(0.0)
    return G * mass[:, None] * (mass[None, :, None] * d * inv3[..., None]).sum(1)


def forces_autograd(p):
    p = p.detach().requires_grad_(True)
    (g,) = torch.autograd.grad(potential(p), p)
    return -g


print("autograd forces == analytic", torch.allclose(forces_autograd(pos), forces_analytic(pos)))
print("net force ~ 0", forces_analytic(pos).sum(0).abs().max().item() < 1e-12)


def energy(p, v):
    return (0.5 * mass * (v**2).sum(1)).sum() + potential(p)


def run(method, steps, dt):
    p, v = pos.clone(), vel.clone()
    e0 = energy(p, v)
    for _ in range(steps):
        if method == "euler":
            a = forces_analytic(p) / mass[:, None]
            p, v = p + dt * v, v + dt * a
        else:
            v = v + 0.5 * dt * forces_analytic(p) / mass[:, None]
            p = p + dt * v
            v = v + 0.5 * dt * forces_analytic(p) / mass[:, None]
    e1 = energy(p, v)
    mom = (mass[:, None] * v).sum(0)
    return p, (e1 - e0).abs().item() / e0.abs().item(), mom.abs().max().item()


for method in ["euler", "leapfrog"]:
    for dt in [0.01, 0.005]:
        p, drift, mom = run(method, int(2.0 / dt), dt)
        print(f"{method:8s} dt={dt:<6} relative energy drift {drift:.3e} momentum {mom:.1e}")
p, _, _ = run("leapfrog", 200, 0.01)
com0 = (mass[:, None] * pos).sum(0) / mass.sum()
com1 = (mass[:, None] * p).sum(0) / mass.sum()
print("centre of mass fixed", torch.allclose(com0, com1, atol=1e-10))
print("final positions\n", p)
