# Models: score-based generative modelling tutorials (Song & Ermon's NCSN notebooks, Yang Song's
# blog colab): a score network on 2-D data, denoising score matching at several noise levels
# (noise-conditional via an embedding of the level), sliced score matching with Jacobian-vector
# products from autograd.grad, annealed Langevin dynamics sampling, and an exact-score check
# for a Gaussian.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


def two_moons(n):
    t = torch.rand(n) * math.pi
    upper = torch.rand(n) > 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2)


data = two_moons(512)
print("data mean/std:", data.mean(0), data.std(0))
sigmas = torch.exp(torch.linspace(math.log(1.0), math.log(0.05), 6))
print("noise levels:", sigmas)


class ScoreNet(nn.Module):
    def __init__(self, n_levels, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(n_levels, hidden)
        self.inp = nn.Linear(2, hidden)
        self.net = nn.Sequential(
            nn.Softplus(), nn.Linear(hidden, hidden), nn.Softplus(), nn.Linear(hidden, 2)
        )

    def forward(self, x, level):
        h = self.inp(x) + self.embed(level)
        return self.net(h) / sigmas[level][:, None]


def dsm_loss(model, x):
    level = torch.randint(0, len(sigmas), (x.shape[0],))
    sigma = sigmas[level][:, None]
    noise = torch.randn_like(x) * sigma
    target = -noise / sigma**2
    score = model(x + noise, level)
    return (0.5 * ((score - target) ** 2).sum(1) * sigma.squeeze(1) ** 2).mean()


model = ScoreNet(len(sigmas))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(200):
    idx = torch.randint(0, len(data), (128,))
    loss = dsm_loss(model, data[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 49:
        print(f"dsm step {step + 1} loss {loss.item():.4f}")


def sliced_score_matching(score_fn, x, n_proj=1):
    x = x.clone().requires_grad_(True)
    v = torch.randn(n_proj, *x.shape)
    s = score_fn(x)
    losses = []
    for k in range(n_proj):
        sv = (s * v[k]).sum()
        grad = torch.autograd.grad(sv, x, create_graph=True)[0]
        losses.append((grad * v[k]).sum(1) + 0.5 * (s * v[k]).sum(1) ** 2)
    return torch.stack(losses).mean()


# exact score of N(mu, diag(var)): -(x - mu) / var
mu, var = torch.tensor([1.0, -1.0]), torch.tensor([0.5, 2.0])
gauss = mu + var.sqrt() * torch.randn(256, 2)
lin = nn.Linear(2, 2)
opt = torch.optim.Adam(lin.parameters(), lr=0.05)
for step in range(150):
    loss = sliced_score_matching(lin, gauss, n_proj=2)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"ssm loss {loss.item():.4f}")
print("learned score weight (expect diag -1/var):", lin.weight.detach())
print("learned bias (expect mu/var):", lin.bias.detach(), mu / var)


@torch.no_grad()
def annealed_langevin(model, n=200, steps_per_level=20, eps=2e-5):
    x = torch.rand(n, 2) * 4 - 2
    for i, sigma in enumerate(sigmas):
        step = eps * (sigma / sigmas[-1]) ** 2
        level = torch.full((n,), i, dtype=torch.long)
        for _ in range(steps_per_level):
            x = x + 0.5 * step * model(x, level) + step.sqrt() * torch.randn_like(x)
    return x


samples = annealed_langevin(model)
print("sample mean/std:", samples.mean(0), samples.std(0))
d_to_data = torch.cdist(samples, data).min(1).values
print(
    "median distance to data:",
    d_to_data.median(),
    "fraction within 0.2:",
    (d_to_data < 0.2).float().mean().item(),
)
