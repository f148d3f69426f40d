# Models: "Variational Inference with Normalizing Flows" (Rezende & Mohamed) planar and radial
# flows fitted to the paper's unnormalised 2-D energy functions by reverse KL, with the
# invertibility reparametrisation of u (softplus), log-det terms, and annealed energy (beta).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(23)


def w1(z):
    return torch.sin(2 * math.pi * z[:, 0] / 4)


def U1(z):
    a = 0.5 * ((z.norm(dim=1) - 2) / 0.4) ** 2
    b = torch.exp(-0.5 * ((z[:, 0] - 2) / 0.6) ** 2) + torch.exp(-0.5 * ((z[:, 0] + 2) / 0.6) ** 2)
    return a - torch.log(b)


def U2(z):
    return 0.5 * ((z[:, 1] - w1(z)) / 0.4) ** 2


class Planar(nn.Module):
    def __init__(self, d=2):
        super().__init__()
        self.u = nn.Parameter(torch.randn(d) * 0.1)
        self.w = nn.Parameter(torch.randn(d) * 0.1)
        self.b = nn.Parameter(torch.zeros(1))

    def forward(self, z):
        wu = self.w @ self.u
        u_hat = self.u + (-1 + F.softplus(wu) - wu) * self.w / (self.w @ self.w)
        lin = z @ self.w + self.b
        f = z + u_hat * torch.tanh(lin)[:, None]
        psi = (1 - torch.tanh(lin) ** 2)[:, None] * self.w
        logdet = torch.log((1 + psi @ u_hat).abs() + 1e-8)
        return f, logdet


class Radial(nn.Module):
    def __init__(self, d=2):
        super().__init__()
        self.z0 = nn.Parameter(torch.randn(d) * 0.1)
        self.log_alpha = nn.Parameter(torch.zeros(1))
        self.beta = nn.Parameter(torch.zeros(1))

    def forward(self, z):
        d = z.shape[1]
        alpha = self.log_alpha.exp()
        beta = -alpha + F.softplus(self.beta)
        diff = z - self.z0
        r = diff.norm(dim=1, keepdim=True)
        h = 1 / (alpha + r)
        f = z + beta * h * diff
        hp = -h ** 2
        logdet = (d - 1) * torch.log1p(beta * h) + torch.log1p(beta * h + beta * hp * r)
        logdet = logdet.squeeze(1)
        return f, logdet


def fit(U, flows, steps=60, bs=64):
    opt = torch.optim.RMSprop(flows.parameters(), lr=1e-2, momentum=0.9)
    base = torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2))
    for step in range(steps):
        beta = min(1.0, 0.01 + step / 40)
        z0 = base.sample((bs,))
        log_q = base.log_prob(z0)
        z = z0
        for f in flows:
            z, ld = f(z)
            log_q = log_q - ld
        loss = (log_q + beta * U(z)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0 or step == steps - 1:
            print(f"  step {step:3d} beta {beta:.2f} free energy {loss.item():.5f}")
    return z.detach()


for name, U, maker in (("U1 planar", U1, Planar), ("U2 planar", U2, Planar),
                       ("U1 radial", U1, Radial)):
    print(name)
    flows = nn.ModuleList([maker() for _ in range(4)])
    z = fit(U, flows)
    print("  sample mean", z.mean(0), "std", z.std(0))
    print("  energy of samples", U(z).mean())
p = Planar()
with torch.no_grad():
    p.w.copy_(torch.tensor([1.0, 0.0]))
    p.u.copy_(torch.tensor([-2.0, 0.5]))
z = torch.tensor([[0.0, 0.0], [1.0, -1.0]], requires_grad=True)
f, ld = p(z)
jac = torch.stack([torch.autograd.grad(f[i].sum(), z, retain_graph=True)[0][i] for i in range(2)])
print(f, ld, jac)
J0 = torch.autograd.functional.jacobian(lambda v: p(v[None])[0][0], z[0].detach())
print(J0, torch.linalg.det(J0).abs().log(), ld[0])
