# Models: a Neural ODE trained with a hand-written fixed-step RK4 solver (as in torchdiffeq's
# ode_demo.py, spiral dynamics dy/dt = A y^3): backpropagation through the solver steps,
# Euler vs RK4 error on a known linear ODE, the learned field evaluated on a grid.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)

true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])


def true_f(t, y):
    return (y**3) @ true_A


def rk4_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def euler_step(f, t, y, h):
    return y + h * f(t, y)


def odeint(f, y0, t, step=rk4_step, substeps=2):
    ys = [y0]
    y = y0
    for i in range(len(t) - 1):
        h = (t[i + 1] - t[i]) / substeps
        for s in range(substeps):
            y = step(f, t[i] + s * h, y, h)
        ys.append(y)
    return torch.stack(ys)


# solver accuracy on dy/dt = -y, y(0)=1
f_lin = lambda t, y: -y  # noqa: E731
tt = torch.linspace(0, 2, 11, dtype=torch.float64)
y0 = torch.ones(1, dtype=torch.float64)
exact = torch.exp(-tt)
for name, step in [("euler", euler_step), ("rk4", rk4_step)]:
    sol = odeint(f_lin, y0, tt, step=step, substeps=1).squeeze(1)
    print(f"{name} max err {(sol - exact).abs().max().item():.3e}")

t = torch.linspace(0.0, 2.0, 20)
y_start = torch.tensor([[2.0, 0.0]])
with torch.no_grad():
    true_y = odeint(true_f, y_start, t)
print("true trajectory shape", tuple(true_y.shape))
print("true y at t=2", true_y[-1])


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
        for m in self.net.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, mean=0, std=0.1)
                nn.init.constant_(m.bias, val=0)
        self.nfe = 0

    def forward(self, t, y):
        self.nfe += 1
        return self.net(y**3)


func = ODEFunc()
opt = torch.optim.RMSprop(func.parameters(), lr=1e-3)
batch_time = 8
gen = torch.Generator().manual_seed(1)
for it in range(1, 31):
    s = torch.randint(0, len(t) - batch_time, (4,), generator=gen)
    batch_y0 = true_y[s]
    batch_t = t[:batch_time]
    batch_y = torch.stack([true_y[s + i] for i in range(batch_time)], dim=0)
    opt.zero_grad()
    pred_y = odeint(func, batch_y0, batch_t)
    loss = torch.mean(torch.abs(pred_y - batch_y))
    loss.backward()
    opt.step()
    if it % 10 == 0:
        with torch.no_grad():
            full = odeint(func, y_start, t)
            total = torch.mean(torch.abs(full - true_y))
        print(f"iter {it:3d} batch loss {loss.item():.4f} total loss {total.item():.4f}")
print("function evaluations", func.nfe)

grid = torch.stack(
    torch.meshgrid(torch.linspace(-2, 2, 3), torch.linspace(-2, 2, 3), indexing="xy"), -1
).reshape(-1, 2)
with torch.no_grad():
    field = func(0, grid)
print("learned field on grid:")
print(field.round(decimals=3))
print("norm of field", field.norm(dim=1).round(decimals=3))
print("angle", math.degrees(torch.atan2(field[0, 1], field[0, 0]).item()) > -180)
