# Models: Lagrangian Neural Networks (Cranmer et al.) ported from JAX to torch.func: the
# Euler-Lagrange acceleration from the Hessian and Jacobian of a learned Lagrangian, computed
# per sample with vmap(hessian(...)) and jacrev, checked against torch.autograd.functional, and
# fitted to a pendulum's accelerations.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, hessian, jacrev, vmap

torch.set_default_dtype(torch.float64)
torch.manual_seed(4)


def true_lagrangian(qv):
    q, v = qv[..., 0], qv[..., 1]
    return 0.5 * v ** 2 + torch.cos(q)


def accel(L, qv):
    H = hessian(L)(qv)
    J = jacrev(L)(qv)
    return (J[0] - H[1, 0] * qv[1]) / H[1, 1]


qv = torch.tensor([0.3, -0.2])
print("analytic", -torch.sin(qv[0]), "from L", accel(true_lagrangian, qv))
print(hessian(true_lagrangian)(qv), jacrev(true_lagrangian)(qv), grad(true_lagrangian)(qv))
Hf = torch.autograd.functional.hessian(true_lagrangian, qv)
Jf = torch.autograd.functional.jacobian(true_lagrangian, qv, vectorize=True)
print(Hf, Jf)
batch = torch.stack([torch.rand(8) * 2 - 1, torch.randn(8) * 0.8], 1)
targets = -torch.sin(batch[:, 0])
print(vmap(lambda s: accel(true_lagrangian, s))(batch[:4]), targets[:4])


class LNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Softplus(), nn.Linear(32, 32),
                                 nn.Softplus(), nn.Linear(32, 1))

    def forward(self, qv):
        return self.net(qv).squeeze(-1)


model = LNN()
params = dict(model.named_parameters())


def learned_L(p, s):
    return functional_call(model, p, (s,))


def batch_accel(p, xs):
    return vmap(lambda s: accel(lambda z: learned_L(p, z), s))(xs)


opt = torch.optim.Adam(model.parameters(), lr=2e-2)
for step in range(5):
    opt.zero_grad()
    pred = batch_accel(dict(model.named_parameters()), batch)
    loss = ((pred - targets) ** 2).mean()
    loss.backward()
    opt.step()
    print(f"step {step:2d} loss {loss.item():.8f}")
print(model.net[0].weight.grad[:2])
with torch.no_grad():
    test = torch.tensor([[0.5, 0.0], [-0.8, 0.4]])
print(batch_accel(dict(model.named_parameters()), test).detach(), -torch.sin(test[:, 0]))
jac_batch = vmap(jacrev(model))(batch[:3]).detach()
print(jac_batch.shape, jac_batch)
hv = torch.autograd.functional.hvp(true_lagrangian, qv, torch.tensor([1.0, 0.0]))
print(hv)
vj = torch.autograd.functional.vjp(lambda x: x ** 2, torch.tensor([1.0, 2.0]),
                                   torch.tensor([1.0, 1.0]))
print(vj, torch.linalg.pinv(Hf))
