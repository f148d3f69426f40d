# Models: Hamiltonian Neural Networks (Greydanus et al. 2019) as in the public hnn notebooks:
# an ideal pendulum's trajectories from a leapfrog integrator, an MLP H(q, p) whose symplectic
# gradient (torch.autograd.grad with create_graph=True) is fitted to the time derivatives,
# a baseline MLP predicting derivatives directly, and energy drift over long rollouts.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


def true_H(q, p, m=1.0, g=3.0, l=1.0):
    return p ** 2 / (2 * m * l ** 2) + m * g * l * (1 - torch.cos(q))


def dynamics(x):
    q, p = x[..., 0], x[..., 1]
    return torch.stack([p, -3.0 * torch.sin(q)], -1)


def leapfrog(x, dt, steps, f=dynamics):
    out = [x]
    for _ in range(steps):
        q, p = x[..., 0], x[..., 1]
        p_half = p + 0.5 * dt * f(x)[..., 1]
        q_new = q + dt * f(torch.stack([q, p_half], -1))[..., 0]
        p_new = p_half + 0.5 * dt * f(torch.stack([q_new, p_half], -1))[..., 1]
        x = torch.stack([q_new, p_new], -1)
        out.append(x)
    return torch.stack(out)


x0 = torch.rand(12, 2) * torch.tensor([2.0, 1.0]) - torch.tensor([1.0, 0.5])
traj = leapfrog(x0, 0.1, 30)
X = traj.reshape(-1, 2)
dX = dynamics(X) + 0.01 * torch.randn_like(X)
E = true_H(traj[..., 0], traj[..., 1])
print("samples", tuple(X.shape), "max energy drift", (E - E[0]).abs().max().item())


class HNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.H = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(),
                               nn.Linear(32, 1))

    def forward(self, x):
        with torch.enable_grad():
            x = x if x.requires_grad else x.requires_grad_(True)
            H = self.H(x).sum()
            dH = torch.autograd.grad(H, x, create_graph=True)[0]
        return torch.stack([dH[..., 1], -dH[..., 0]], -1)


hnn = HNN()
base = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 2))
for name, model in [("hnn", hnn), ("baseline", base)]:
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-5)
    for step in range(60):
        pred = model(X.detach().clone())
        loss = (pred - dX).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 15 == 0:
            print(f"{name:8s} step {step:2d} loss {loss.item():.8f}")

start = torch.tensor([[0.8, 0.0]])
for name, model in [("hnn", hnn), ("baseline", base)]:
    def f(x, m=model):
        return m(x.detach().clone()).detach()

    roll = leapfrog(start, 0.1, 80, f)
    energy = true_H(roll[..., 0], roll[..., 1]).squeeze(1)
    print(f"{name:8s} energy start {energy[0].item():.6f} end {energy[-1].item():.6f} "
          f"final state {roll[-1, 0].tolist()}")
grid = torch.tensor([[0.0, 0.0], [0.5, 0.5], [-1.0, 0.2]])
learned = hnn.H(grid).detach().squeeze(1)
print("learned H shifted", learned - learned[0])
print("true H", true_H(grid[:, 0], grid[:, 1]))
torch.set_default_dtype(torch.float32)
