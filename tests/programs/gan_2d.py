# Models: a GAN on 2-d data (the "GAN in 50 lines" and ring-of-Gaussians notebooks): an MLP
# generator and discriminator, BCELoss with real/fake labels, alternating Adam steps.
import math

import torch
import torch.nn as nn

torch.manual_seed(2)


def real_batch(n):
    k = torch.randint(0, 4, (n,)).float()
    angle = k * (math.pi / 2)
    centers = torch.stack([torch.cos(angle), torch.sin(angle)], dim=1) * 2
    return centers + 0.1 * torch.randn(n, 2)


G = nn.Sequential(nn.Linear(4, 32), nn.LeakyReLU(0.2), nn.Linear(32, 2))
D = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid())
criterion = nn.BCELoss()
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
batch = 32
for step in range(60):
    real = real_batch(batch)
    z = torch.randn(batch, 4)
    fake = G(z)
    ones = torch.ones(batch, 1)
    zeros = torch.zeros(batch, 1)
    opt_d.zero_grad()
    loss_d = criterion(D(real), ones) + criterion(D(fake.detach()), zeros)
    loss_d.backward()
    opt_d.step()
    opt_g.zero_grad()
    loss_g = criterion(D(fake), ones)
    loss_g.backward()
    opt_g.step()
    if step % 15 == 14:
        print(f"step {step + 1}: D {loss_d.item():.4f} G {loss_g.item():.4f}")
with torch.no_grad():
    samples = G(torch.randn(200, 4))
print(samples.mean(0), samples.std(0))
print(D(torch.tensor([[2.0, 0.0], [0.0, 0.0]])))
