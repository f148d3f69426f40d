# Models: a beta-VAE on binarised toy "images" with KL annealing: encoder to (mu, logvar),
# reparameterisation with randn_like, Bernoulli decoder via binary_cross_entropy_with_logits
# (reduction="sum"), analytic KL vs torch.distributions.kl_divergence(Independent(Normal)),
# a linear beta warm-up, ELBO and bits-per-dim reporting, and latent interpolation.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Independent, Normal, kl_divergence

torch.manual_seed(0)
patterns = (torch.rand(4, 16) > 0.5).float()
data = patterns.repeat(16, 1)
flip = (torch.rand_like(data) < 0.05).float()
data = (data + flip) % 2


class VAE(nn.Module):
    def __init__(self, d=16, z=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 32), nn.ReLU())
        self.mu = nn.Linear(32, z)
        self.logvar = nn.Linear(32, z)
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def encode(self, x):
        h = self.enc(x)
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar)
        return self.dec(z), mu, logvar


model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
beta_max, warmup = 4.0, 20
for epoch in range(30):
    beta = beta_max * min(1.0, epoch / warmup)
    perm = torch.randperm(64)
    tot_rec = tot_kl = 0.0
    for i in range(0, 64, 16):
        x = data[perm[i : i + 16]]
        logits, mu, logvar = model(x)
        rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum")
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        loss = (rec + beta * kld) / x.size(0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot_rec += rec.item()
        tot_kl += kld.item()
    if epoch % 5 == 0:
        elbo = -(tot_rec + tot_kl) / 64
        print(
            f"epoch {epoch:2d} beta {beta:.2f} rec {tot_rec / 64:.4f} kl {tot_kl / 64:.4f} "
            f"bits/dim {-elbo / 16 / math.log(2):.4f}"
        )

with torch.no_grad():
    mu, logvar = model.encode(data[:4])
    q = Independent(Normal(mu, (0.5 * logvar).exp()), 1)
    p = Independent(Normal(torch.zeros_like(mu), torch.ones_like(mu)), 1)
    kl_lib = kl_divergence(q, p)
    kl_manual = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1)
    print("kl", kl_lib, torch.allclose(kl_lib, kl_manual, atol=1e-5))
    print("q batch/event", q.batch_shape, q.event_shape)
    z0, z1 = mu[0], mu[1]
    for a in torch.linspace(0, 1, 3):
        z = torch.lerp(z0, z1, a)
        img = torch.sigmoid(model.dec(z)) > 0.5
        print(f"alpha {a.item():.1f}", img.int().tolist())
    recon = (torch.sigmoid(model(data)[0]) > 0.5).float()
    print("reconstruction accuracy", (recon == data).float().mean().item())
