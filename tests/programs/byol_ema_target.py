# Models: BYOL (Grill et al. 2020) as in the lucidrains/byol-pytorch and public tutorial
# code: online network with a predictor head, a momentum (EMA) target network made by
# deepcopy with requires_grad off, the normalised-MSE loss 2 - 2 cos(p, z) symmetrised over
# two augmented views, stop-gradient on the target, the EMA update written with
# torch._foreach_mul_/_foreach_add_ and with lerp_, and a cosine momentum schedule.
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(d_in, hidden, d_out):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                         nn.Linear(hidden, d_out))


class Online(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
        self.projector = mlp(16, 32, 8)

    def forward(self, x):
        return self.projector(self.encoder(x))


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    mask = (torch.rand_like(x) > 0.2).float()
    return (x + noise) * mask


def byol_loss(p, z):
    p, z = F.normalize(p, dim=-1), F.normalize(z, dim=-1)
    return 2 - 2 * (p * z).sum(-1)


torch.manual_seed(0)
classes = torch.randint(0, 4, (256,))
protos = torch.randn(4, 16)
data = protos[classes] + 0.5 * torch.randn(256, 16)

online = Online()
predictor = mlp(8, 32, 8)
target = copy.deepcopy(online)
for p in target.parameters():
    p.requires_grad_(False)
opt = torch.optim.AdamW(list(online.parameters()) + list(predictor.parameters()), lr=3e-3,
                        weight_decay=1e-4)
steps, base_tau = 40, 0.99
for step in range(steps):
    x = data[torch.randint(0, 256, (64,))]
    v1, v2 = augment(x), augment(x)
    p1, p2 = predictor(online(v1)), predictor(online(v2))
    with torch.no_grad():
        z1, z2 = target(v1), target(v2)
    loss = (byol_loss(p1, z2) + byol_loss(p2, z1)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    tau = 1 - (1 - base_tau) * (math.cos(math.pi * step / steps) + 1) / 2
    with torch.no_grad():
        o_params = list(online.parameters())
        t_params = list(target.parameters())
        if step % 2 == 0:
            torch._foreach_mul_(t_params, tau)
            torch._foreach_add_(t_params, o_params, alpha=1 - tau)
        else:
            for t_p, o_p in zip(t_params, o_params):
                t_p.lerp_(o_p, 1 - tau)
        for t_b, o_b in zip(target.buffers(), online.buffers()):
            t_b.copy_(o_b)
    if step % 8 == 0 or step == steps - 1:
        drift = sum((a - b).pow(2).sum() for a, b in zip(t_params, o_params)).sqrt()
        print(f"step {step:2d} loss {loss.item():.5f} tau {tau:.5f} "
              f"online-target distance {drift.item():.5f}")

online.eval()
with torch.no_grad():
    feats = F.normalize(online.encoder(data), dim=1)
    sim = feats @ feats.T
    sim.fill_diagonal_(-1)
    nn_label = classes[sim.argmax(1)]
    acc = (nn_label == classes).float().mean()
    std = F.normalize(online(data), dim=1).std(0).mean()
print("1-NN accuracy of the representation", acc.item())
print("projection std per dim (collapse check)", round(std.item(), 5))
print("target requires grad", any(p.requires_grad for p in target.parameters()),
      "bn running mean equal", torch.equal(target.projector[1].running_mean,
                                           online.projector[1].running_mean))
