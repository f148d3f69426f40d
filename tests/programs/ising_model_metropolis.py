# Models: statistical-physics notebooks written with tensors: a 2D Ising model on a periodic
# lattice, neighbour sums by torch.roll and by a circular-padded conv2d, checkerboard Metropolis
# updates at several temperatures, energy/magnetisation/specific heat estimates, and the exact
# Onsager critical temperature for comparison.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
L = 16
checker = (torch.arange(L)[:, None] + torch.arange(L)[None, :]) % 2 == 0
kernel = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)


def neighbours_roll(s):
    return s.roll(1, 0) + s.roll(-1, 0) + s.roll(1, 1) + s.roll(-1, 1)


def neighbours_conv(s):
    padded = F.pad(s[None, None], (1, 1, 1, 1), mode="circular")
    return F.conv2d(padded, kernel)[0, 0]


def energy(s):
    return -(s * neighbours_roll(s)).sum() / 2


s0 = torch.randint(0, 2, (L, L)).float() * 2 - 1
print("roll == conv neighbours:", torch.equal(neighbours_roll(s0), neighbours_conv(s0)))
print("initial energy/site:", energy(s0).item() / L ** 2, "magnetisation:", s0.mean().item())
print(s0[:4, :8])


def sweep(s, beta, gen):
    for colour in (checker, ~checker):
        dE = 2 * s * neighbours_roll(s)
        accept = torch.rand(L, L, generator=gen) < torch.exp(-beta * dE)
        flip = accept & colour
        s = torch.where(flip, -s, s)
    return s


t_c = 2 / math.log(1 + math.sqrt(2))
print(f"Onsager T_c = {t_c:.5f}")
gen = torch.Generator().manual_seed(1)
results = []
for T in [1.5, 2.0, 2.269, 2.6, 3.5]:
    beta = 1 / T
    s = torch.ones(L, L)
    for _ in range(60):
        s = sweep(s, beta, gen)
    es, ms = [], []
    for _ in range(80):
        s = sweep(s, beta, gen)
        es.append(energy(s))
        ms.append(s.mean().abs())
    es, ms = torch.stack(es) / L ** 2, torch.stack(ms)
    heat = beta ** 2 * L ** 2 * es.var(unbiased=False)
    chi = beta * L ** 2 * ms.var(unbiased=False)
    results.append([T, es.mean().item(), ms.mean().item(), heat.item(), chi.item()])
    print(f"T={T:5.3f} E/N={es.mean():+.4f} |M|={ms.mean():.4f} C={heat:.4f} chi={chi:.4f}")
table = torch.tensor(results)
print(table)
print("T of max specific heat:", table[table[:, 3].argmax(), 0].item())
print("final lattice at T=3.5 (rows 0-3):")
print(s[:4].int())
