# Models: an energy-based model trained with contrastive divergence and short-run Langevin
# dynamics (Du & Mordatch 2019, "Implicit generation"; Nijkamp et al. short-run MCMC) on 2D
# data: a replay buffer of persistent chains reinitialised with probability 5%, SGLD steps
# x <- x - step/2 * dE/dx + noise computed with torch.autograd.grad on the samples, the
# energy-magnitude regulariser, and the energy landscape's statistics after training.
import torch
import torch.nn as nn


def ring_data(n):
    theta = torch.rand(n) * 2 * torch.pi
    r = 1.0 + 0.1 * torch.randn(n)
    return torch.stack([r * torch.cos(theta), r * torch.sin(theta)], 1)


class Energy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(),
                                 nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def langevin(model, x, steps=20, step_size=0.02, noise=0.01):
    was_training = model.training
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    x = x.clone().requires_grad_(True)
    for _ in range(steps):
        e = model(x).sum()
        grad, = torch.autograd.grad(e, x)
        x.data.add_(-0.5 * step_size * grad + noise * torch.randn_like(x))
        x.data.clamp_(-3, 3)
    for p in model.parameters():
        p.requires_grad_(True)
    model.train(was_training)
    return x.detach()


torch.manual_seed(0)
data = ring_data(512)
model = Energy()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.0, 0.999))
buffer = torch.rand(1000, 2) * 6 - 3
alpha = 0.1
for step in range(60):
    pos = data[torch.randint(0, 512, (64,))]
    idx = torch.randint(0, len(buffer), (64,))
    init = buffer[idx]
    fresh = torch.rand(64) < 0.05
    init[fresh] = torch.rand(int(fresh.sum()), 2) * 6 - 3
    neg = langevin(model, init)
    buffer[idx] = neg
    e_pos, e_neg = model(pos), model(neg)
    cd = e_pos.mean() - e_neg.mean()
    reg = alpha * (e_pos.pow(2).mean() + e_neg.pow(2).mean())
    loss = cd + reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 12 == 0 or step == 59:
        print(f"step {step:2d} cd {cd.item():+.5f} reg {reg.item():.5f} "
              f"E+ {e_pos.mean().item():+.4f} E- {e_neg.mean().item():+.4f} "
              f"neg radius {neg.norm(dim=1).mean().item():.4f}")

with torch.no_grad():
    radii = torch.linspace(0, 2.5, 6)
    pts = torch.stack([radii, torch.zeros(6)], 1)
    print("energy along a ray", model(pts))
    r = buffer.norm(dim=1)
    print("buffer radius mean/std", r.mean().item(), r.std().item())
x = torch.zeros(3, 2, requires_grad=True)
g, = torch.autograd.grad(model(x + torch.tensor([1.0, 0.0])).sum(), x, create_graph=True)
h, = torch.autograd.grad(g[:, 0].sum(), x)
print("score at (1,0)", (-g[0]).tolist(), "curvature", h[0].tolist())
