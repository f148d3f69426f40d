# Models: continuous normalising flows (FFJORD) ingredients: the exact divergence of a vector
# field by torch.func.jacrev + vmap and by a loop of autograd.grad calls, Hutchinson's
# stochastic trace estimator with Rademacher and Gaussian probes (vector-Jacobian products),
# its variance, and maximum-likelihood training of a time-dependent field with RK4 integration
# of the state and the log-density change on a 2D two-moons-like target.
import math

import torch
import torch.nn as nn
from torch.func import jacrev, vmap

torch.manual_seed(0)


class ODEFunc(nn.Module):
    def __init__(self, d=2, h=32):
        super().__init__()
        self.l1 = nn.Linear(d + 1, h)
        self.l2 = nn.Linear(h + 1, h)
        self.l3 = nn.Linear(h + 1, d)

    def forward(self, t, z):
        tt = torch.full_like(z[..., :1], t)
        h = torch.tanh(self.l1(torch.cat([z, tt], -1)))
        h = torch.tanh(self.l2(torch.cat([h, tt], -1)))
        return self.l3(torch.cat([h, tt], -1))


f = ODEFunc()
z = torch.randn(5, 2)
jac = vmap(jacrev(lambda zi: f(0.5, zi)))(z)
exact = jac.diagonal(dim1=-2, dim2=-1).sum(-1)
print("jacobian shape:", tuple(jac.shape))
print("exact divergence (jacrev):", exact)

zz = z.clone().requires_grad_()
out = f(0.5, zz)
div = sum(torch.autograd.grad(out[:, i].sum(), zz, retain_graph=True)[0][:, i] for i in range(2))
print("exact divergence (loop):  ", div)
print("agree:", torch.allclose(exact, div, atol=1e-6))


def hutchinson(f, t, z, n, kind, gen):
    z = z.requires_grad_(True) if not z.requires_grad else z
    out = f(t, z)
    ests = []
    for _ in range(n):
        if kind == "rademacher":
            eps = torch.randint(0, 2, z.shape, generator=gen).float() * 2 - 1
        else:
            eps = torch.randn(z.shape, generator=gen)
        (vjp,) = torch.autograd.grad(out, z, eps, retain_graph=True, create_graph=True)
        ests.append((vjp * eps).sum(-1))
    return torch.stack(ests)


gen = torch.Generator().manual_seed(1)
for kind in ["rademacher", "gaussian"]:
    est = hutchinson(f, 0.5, z.clone(), 200, kind, gen).detach()
    print(f"{kind:10s} mean {est.mean(0)} var {est.var(0).mean():.5f}")


def sample_target(n, g):
    t = torch.rand(n, generator=g) * math.pi
    lab = torch.randint(0, 2, (n,), generator=g)
    x = torch.stack([torch.cos(t) + lab - 0.5,
                     torch.sin(t) * (1 - 2 * lab) + 0.25 * (2 * lab - 1)], 1)
    return x * 1.5 + 0.1 * torch.randn(n, 2, generator=g)


def integrate(f, x, gen, steps=4, exact_trace=False):
    """Integrate from data (t=1) back to noise (t=0), accumulating the log-det term."""
    dt = -1.0 / steps
    logdet = torch.zeros(x.shape[0])
    z = x
    t = 1.0

    def dyn(t, z):
        if not z.requires_grad:
            z = z.requires_grad_()
        dz = f(t, z)
        if exact_trace:
            tr = sum(torch.autograd.grad(dz[:, i].sum(), z, create_graph=True)[0][:, i]
                     for i in range(2))
        else:
            eps = torch.randint(0, 2, z.shape, generator=gen).float() * 2 - 1
            (vjp,) = torch.autograd.grad(dz, z, eps, create_graph=True)
            tr = (vjp * eps).sum(-1)
        return dz, tr

    for _ in range(steps):
        k1, l1 = dyn(t, z)
        k2, l2 = dyn(t + dt / 2, z + dt / 2 * k1)
        k3, l3 = dyn(t + dt / 2, z + dt / 2 * k2)
        k4, l4 = dyn(t + dt, z + dt * k3)
        z = z + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        logdet = logdet + dt / 6 * (l1 + 2 * l2 + 2 * l3 + l4)
        t += dt
    return z, logdet


base = torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2))
torch.manual_seed(2)
flow = ODEFunc()
opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
gen = torch.Generator().manual_seed(3)
for it in range(25):
    x = sample_target(64, gen)
    z0, logdet = integrate(flow, x, gen)
    logp = base.log_prob(z0) + logdet
    loss = -logp.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 5 == 4:
        print(f"iter {it + 1} NLL {loss.item():.4f}")
x = sample_target(128, torch.Generator().manual_seed(4))
z0, logdet = integrate(flow, x, gen, exact_trace=True)
print(f"held-out NLL (exact trace) {-(base.log_prob(z0) + logdet).mean().item():.4f}")
print("latent moments:", z0.mean(0).detach(), z0.std(0).detach())
