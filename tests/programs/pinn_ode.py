# Models: a physics-informed neural network (the PINN tutorials): an MLP u(t) fitted so that
# its derivative, taken with torch.autograd.grad(create_graph=True), satisfies the ODE
# u'' + u = 0 with u(0) = 1, u'(0) = 0 at collocation points; the loss mixes the residual and
# the initial conditions; Adam, then a check against cos(t) and a trapezoid integral.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(),
                                    nn.Linear(20, 1))

    def forward(self, t):
        return self.layers(t)


def derivative(y, x):
    return torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]


net = Net()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
t_col = torch.linspace(0, math.pi, 40).unsqueeze(1).requires_grad_(True)
t0 = torch.zeros(1, 1, requires_grad=True)

for it in range(301):
    opt.zero_grad()
    u = net(t_col)
    du = derivative(u, t_col)
    d2u = derivative(du, t_col)
    residual = d2u + u
    u0 = net(t0)
    du0 = derivative(u0, t0)
    loss = residual.pow(2).mean() + (u0 - 1).pow(2).sum() + du0.pow(2).sum()
    loss.backward()
    opt.step()
    if it % 50 == 0:
        print(f"iter {it:3d} loss {loss.item():.6f} residual {residual.abs().max().item():.5f}")

t_test = torch.linspace(0, math.pi, 7).unsqueeze(1)
with torch.no_grad():
    pred = net(t_test).squeeze(1)
print("prediction", pred)
print("cos(t)    ", torch.cos(t_test.squeeze(1)))
print("max error", round((pred - torch.cos(t_test.squeeze(1))).abs().max().item(), 4))
with torch.no_grad():
    dense = torch.linspace(0, math.pi / 2, 101)
    area = torch.trapezoid(net(dense.unsqueeze(1)).squeeze(1), dense)
print("integral of u over [0, pi/2] (sin(pi/2) = 1):", round(area.item(), 4))
