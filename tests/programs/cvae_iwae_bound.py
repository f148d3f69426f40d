# Models: a conditional VAE on toy "digits" (class-conditioned 2-D blobs), with KL annealing,
# the reparameterisation trick through torch.distributions (Normal, Independent, kl_divergence),
# and the importance-weighted (IWAE) bound via logsumexp over K samples, compared with the ELBO.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Independent, Normal, kl_divergence

torch.manual_seed(21)
n_cls, d_x, d_z = 4, 6, 2
centers = torch.randn(n_cls, d_x) * 2
y = torch.randint(0, n_cls, (320,))
x = centers[y] + 0.4 * torch.randn(320, d_x)


class CVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_x + n_cls, 32), nn.ELU(), nn.Linear(32, 2 * d_z))
        self.dec = nn.Sequential(nn.Linear(d_z + n_cls, 32), nn.ELU(), nn.Linear(32, d_x))
        self.log_sigma = nn.Parameter(torch.zeros(d_x))

    def q(self, x, c):
        mu, log_var = self.enc(torch.cat([x, c], -1)).chunk(2, -1)
        return Independent(Normal(mu, (0.5 * log_var).exp()), 1)

    def p_x(self, z, c):
        return Independent(Normal(self.dec(torch.cat([z, c], -1)), self.log_sigma.exp()), 1)


model = CVAE()
prior = Independent(Normal(torch.zeros(d_z), torch.ones(d_z)), 1)
print(prior, prior.batch_shape, prior.event_shape)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
c_all = F.one_hot(y, n_cls).float()
for epoch in range(12):
    beta = min(1.0, (epoch + 1) / 6)
    perm = torch.randperm(len(x))
    tot_rec = tot_kl = 0.0
    for idx in perm.split(64):
        xb, cb = x[idx], c_all[idx]
        q = model.q(xb, cb)
        z = q.rsample()
        rec = model.p_x(z, cb).log_prob(xb)
        kl = kl_divergence(q, prior)
        loss = -(rec - beta * kl).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot_rec += rec.sum().item()
        tot_kl += kl.sum().item()
    print(f"epoch {epoch:2d} beta {beta:.3f} rec {tot_rec / len(x):.4f} kl {tot_kl / len(x):.4f}")


def iwae_bound(xb, cb, K):
    q = model.q(xb, cb)
    z = q.rsample((K,))
    log_w = model.p_x(z, cb.expand(K, -1, -1)).log_prob(xb) + prior.log_prob(z) - q.log_prob(z)
    return (torch.logsumexp(log_w, 0) - math.log(K)), log_w


with torch.no_grad():
    torch.manual_seed(0)
    xb, cb = x[:32], c_all[:32]
    for K in (1, 5, 50):
        b, lw = iwae_bound(xb, cb, K)
        print(f"K={K:2d} bound {b.mean().item():.4f} log_w shape {tuple(lw.shape)}")
    w = F.softmax(lw, 0)
    ess = 1.0 / (w ** 2).sum(0)
    print("ESS", ess[:6])
    z = torch.randn(n_cls, d_z)
    gen = model.dec(torch.cat([z, torch.eye(n_cls)], -1))
    print("generated vs centers", (gen - centers).norm(dim=1))
    q = model.q(x[:3], c_all[:3])
    print(q.mean, q.stddev, q.entropy())
    print(q.base_dist.loc.shape, q.reinterpreted_batch_ndims)
print(model.log_sigma.exp())
