# Models: a "normalizing flows with torch.distributions" tutorial: TransformedDistribution
# built from AffineTransform/ExpTransform/SigmoidTransform/TanhTransform/ComposeTransform,
# log_prob via change of variables checked by hand, LogNormal equivalence, a learnable planar
# flow fitted to a banana density by reverse KL, plus LowRankMultivariateNormal, Beta and
# Dirichlet with kl_divergence and entropy.
import math

import torch
import torch.distributions as D
import torch.distributions.transforms as T

torch.manual_seed(0)
torch.set_printoptions(precision=4)

base = D.Normal(torch.tensor(0.0), torch.tensor(1.0))
lognormal_flow = D.TransformedDistribution(base, [T.AffineTransform(0.5, 2.0), T.ExpTransform()])
ref = D.LogNormal(0.5, 2.0)
x = torch.tensor([0.3, 1.0, 4.0])
print("log_prob flow", lognormal_flow.log_prob(x))
print("log_prob ref ", ref.log_prob(x))
y = torch.tensor([-1.0, 0.0, 2.0])
t = T.ComposeTransform([T.AffineTransform(1.0, 3.0), T.SigmoidTransform()])
z = t(y)
print("compose", z, t.inv(z), t.log_abs_det_jacobian(y, z))
manual = torch.log(torch.tensor(3.0)) + torch.log(z * (1 - z))
print("manual ladj", manual)
tanh = T.TanhTransform(cache_size=1)
squashed = D.TransformedDistribution(D.Normal(torch.zeros(2), torch.ones(2)), [tanh])
s = squashed.rsample((4,))
print("tanh-squashed samples", s)
print("log_prob", squashed.log_prob(s))
print(T.ExpTransform().domain, T.ExpTransform().codomain, T.SigmoidTransform().sign)
print(t, T.AffineTransform(1.0, 3.0).inv)


class Planar(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(d) * 0.1)
        self.u = torch.nn.Parameter(torch.randn(d) * 0.1)
        self.b = torch.nn.Parameter(torch.zeros(1))

    def forward(self, z):
        wu = self.w @ self.u
        u_hat = self.u + (torch.nn.functional.softplus(wu) - 1 - wu) * self.w / (self.w @ self.w)
        lin = z @ self.w + self.b
        f = z + u_hat * torch.tanh(lin).unsqueeze(-1)
        psi = (1 - torch.tanh(lin) ** 2).unsqueeze(-1) * self.w
        ladj = torch.log((1 + psi @ u_hat).abs() + 1e-8)
        return f, ladj


def banana_log_density(z):
    z1, z2 = z[:, 0], z[:, 1]
    return -0.5 * (z1**2 / 4 + (z2 - 0.5 * z1**2 + 1) ** 2 * 4)


flows = torch.nn.ModuleList([Planar(2) for _ in range(4)])
q0 = D.MultivariateNormal(torch.zeros(2), torch.eye(2))
opt = torch.optim.Adam(flows.parameters(), lr=0.02)
for step in range(150):
    z0 = q0.rsample((128,))
    log_q = q0.log_prob(z0)
    z = z0
    for f in flows:
        z, ladj = f(z)
        log_q = log_q - ladj
    loss = (log_q - banana_log_density(z)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 49:
        print(f"step {step + 1} reverse KL (up to const) {loss.item():.3f}")

lr = D.LowRankMultivariateNormal(
    torch.zeros(3),
    cov_factor=torch.tensor([[1.0], [0.5], [0.0]]),
    cov_diag=torch.tensor([0.5, 0.5, 1.0]),
)
print("lowrank cov\n", lr.covariance_matrix)
full = D.MultivariateNormal(torch.zeros(3), covariance_matrix=lr.covariance_matrix)
v = torch.tensor([[0.2, -0.1, 1.0], [1.0, 1.0, 1.0]])
print(lr.log_prob(v), full.log_prob(v))
print("entropy", lr.entropy(), full.entropy(), "kl", D.kl_divergence(lr, full))
print(lr.sample((2,)), lr.variance)

beta = D.Beta(torch.tensor([2.0, 0.5]), torch.tensor([5.0, 0.5]))
print("beta mean", beta.mean, "var", beta.variance, "entropy", beta.entropy())
print("beta log_prob", beta.log_prob(torch.tensor([0.3, 0.9])))
print("beta kl", D.kl_divergence(beta, D.Beta(torch.ones(2), torch.ones(2))))
dirich = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
smp = dirich.sample((3,))
print("dirichlet samples", smp, smp.sum(-1))
print("dirichlet log_prob", dirich.log_prob(smp), dirich.entropy())
print("kl dirichlet", D.kl_divergence(dirich, D.Dirichlet(torch.ones(3))))
print(f"{math.exp(dirich.log_prob(torch.tensor([1 / 3, 1 / 3, 1 / 3])).item()):.4f}")
