# Models: physics-informed neural network for the viscous Burgers equation
# u_t + u u_x = nu u_xx on x in [-1, 1], t in [0, 1] (Raissi et al.): collocation points,
# derivatives by torch.autograd.grad with create_graph (second derivative in x), initial
# condition u(0, x) = -sin(pi x) and Dirichlet boundaries, Adam then an L-BFGS polish, and
# the residual and a finite-difference reference solution compared at t = 0.5.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
NU = 0.01 / math.pi


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(),
                                 nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))

    def forward(self, t, x):
        return self.net(torch.cat([t, x], 1))


def residual(model, t, x):
    t.requires_grad_(True)
    x.requires_grad_(True)
    u = model(t, x)
    u_t, u_x = torch.autograd.grad(u.sum(), (t, x), create_graph=True)
    (u_xx,) = torch.autograd.grad(u_x.sum(), x, create_graph=True)
    return u_t + u * u_x - NU * u_xx


g = torch.Generator().manual_seed(3)
tc = torch.rand(400, 1, generator=g)
xc = torch.rand(400, 1, generator=g) * 2 - 1
x0 = torch.linspace(-1, 1, 50)[:, None]
t0 = torch.zeros_like(x0)
u0 = -torch.sin(math.pi * x0)
tb = torch.rand(50, 1, generator=g)
xb = torch.where(torch.rand(50, 1, generator=g) < 0.5, -1.0, 1.0)
model = MLP()


def losses():
    f = residual(model, tc.clone(), xc.clone())
    l_f = f.pow(2).mean()
    l_0 = (model(t0, x0) - u0).pow(2).mean()
    l_b = model(tb, xb).pow(2).mean()
    return l_f, l_0, l_b


opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for it in range(200):
    l_f, l_0, l_b = losses()
    loss = l_f + l_0 + l_b
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 50 == 49:
        print(f"adam {it + 1}: loss {loss.item():.6f} (pde {l_f.item():.6f} "
              f"ic {l_0.item():.6f} bc {l_b.item():.6f})")

lbfgs = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=50, history_size=20,
                          line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    loss = sum(losses())
    loss.backward()
    return loss


print(f"lbfgs: loss {lbfgs.step(closure).item():.6f} -> {sum(losses()).item():.6f}")

# explicit finite differences (upwind convection) as a reference at t = 0.5
nx, dt = 201, 1e-3
xs = torch.linspace(-1, 1, nx, dtype=torch.float64)
dx = (xs[1] - xs[0]).item()
u = -torch.sin(math.pi * xs)
for _ in range(500):
    ux_b = (u[1:-1] - u[:-2]) / dx
    ux_f = (u[2:] - u[1:-1]) / dx
    ux = torch.where(u[1:-1] > 0, ux_b, ux_f)
    uxx = (u[2:] - 2 * u[1:-1] + u[:-2]) / dx ** 2
    u = torch.cat([u[:1] * 0, u[1:-1] + dt * (-u[1:-1] * ux + NU * uxx), u[-1:] * 0])
with torch.no_grad():
    pred = model(torch.full((nx, 1), 0.5), xs.float()[:, None]).squeeze(1)
err = (pred.double() - u).abs()
print(f"t=0.5 max |pinn - fd| {err.max().item():.5f} mean {err.mean().item():.5f}")
print("samples x=-0.5, 0.5 pinn:", pred[[50, 150]], "fd:", u[[50, 150]])
