# Models: a physics-informed neural network tutorial: solve -u'' = pi^2 sin(pi x) on [0, 1] with
# u(0) = u(1) = 0 using second derivatives from autograd.grad(create_graph=True), a weighted
# boundary loss, Adam then LBFGS fine-tuning, and the error against the exact solution.
import math

import torch
import torch.nn as nn

torch.manual_seed(45)
net = nn.Sequential(
    nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1)
).double()
xc = torch.linspace(0, 1, 40, dtype=torch.float64).unsqueeze(1).requires_grad_(True)
xb = torch.tensor([[0.0], [1.0]], dtype=torch.float64)


def residual_loss():
    u = net(xc)
    du = torch.autograd.grad(u, xc, torch.ones_like(u), create_graph=True)[0]
    d2u = torch.autograd.grad(du, xc, torch.ones_like(du), create_graph=True)[0]
    f = math.pi**2 * torch.sin(math.pi * xc)
    return ((-d2u - f) ** 2).mean() + 10 * (net(xb) ** 2).mean()


opt = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(301):
    opt.zero_grad()
    loss = residual_loss()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"adam step {step} loss {loss.item():.6f}")
lbfgs = torch.optim.LBFGS(
    net.parameters(), lr=1.0, max_iter=50, history_size=20, line_search_fn="strong_wolfe"
)


def closure():
    lbfgs.zero_grad()
    l = residual_loss()
    l.backward()
    return l


for outer in range(3):
    l = lbfgs.step(closure)
    print(f"lbfgs round {outer} loss {l.item():.3e}")
xt = torch.linspace(0, 1, 6, dtype=torch.float64).unsqueeze(1)
with torch.no_grad():
    pred = net(xt)
exact = torch.sin(math.pi * xt)
print("x      pred      exact")
for a, b, c in zip(xt.squeeze().tolist(), pred.squeeze().tolist(), exact.squeeze().tolist()):
    print(f"{a:.2f}  {b:+.5f}  {c:+.5f}")
print("max error below 1e-2", (pred - exact).abs().max().item() < 1e-2)
state = lbfgs.state[lbfgs._params[0]]
print(
    "lbfgs state keys",
    sorted(state.keys()),
    "func evals",
    state["func_evals"],
    "n_iter",
    state["n_iter"],
)
