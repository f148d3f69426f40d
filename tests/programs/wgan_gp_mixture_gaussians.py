# Models: WGAN-GP on a 2-D mixture of Gaussians (Gulrajani et al. recipe): critic without
# normalisation, gradient penalty through torch.autograd.grad(create_graph=True) on random
# interpolates, n_critic=5 critic steps per generator step, Adam(0.5, 0.9), printing the
# Wasserstein estimate and gradient norms.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


def sample_real(n):
    k = torch.randint(0, 8, (n,))
    ang = k.float() * (2 * math.pi / 8)
    centers = torch.stack([ang.cos(), ang.sin()], dim=1) * 2.0
    return centers + 0.05 * torch.randn(n, 2)


G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
D = nn.Sequential(
    nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1)
)
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
LAMBDA = 10.0


def gradient_penalty(D, real, fake):
    alpha = torch.rand(real.size(0), 1)
    alpha = alpha.expand(real.size())
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_int = D(interpolates)
    grads = torch.autograd.grad(
        outputs=d_int,
        inputs=interpolates,
        grad_outputs=torch.ones_like(d_int),
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA, grads.norm(2, dim=1).mean()


for it in range(25):
    for p in D.parameters():
        p.requires_grad_(True)
    for _ in range(5):
        real = sample_real(64)
        noise = torch.randn(64, 4)
        with torch.no_grad():
            fake = G(noise)
        D.zero_grad()
        d_real = D(real).mean()
        d_fake = D(fake).mean()
        gp, gnorm = gradient_penalty(D, real, fake)
        d_cost = d_fake - d_real + gp
        d_cost.backward()
        opt_d.step()
    w_dist = (d_real - d_fake).item()
    for p in D.parameters():
        p.requires_grad_(False)
    G.zero_grad()
    g_cost = -D(G(torch.randn(64, 4))).mean()
    g_cost.backward()
    opt_g.step()
    if it % 5 == 0:
        print(
            f"iter {it:2d} D {d_cost.item():.4f} G {g_cost.item():.4f} W {w_dist:.4f} gp "
            f"{gp.item():.4f} |grad| {gnorm.item():.4f}"
        )

with torch.no_grad():
    s = G(torch.randn(200, 4))
print("generated mean", s.mean(0), "std", s.std(0))
print("D grads are None after freeze:", all(p.grad is not None for p in D.parameters()))
