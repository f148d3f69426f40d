# Models: a conditional GAN (cGAN) on 2-D class-conditional data: generator and discriminator
# conditioned through nn.Embedding of the label concatenated with the input, BCEWithLogitsLoss
# with one-sided label smoothing, discriminator/generator alternation with detach(), a fixed
# noise batch for monitoring, and per-class means of generated samples.
import torch
import torch.nn as nn

torch.manual_seed(0)
centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.0]])


def real_batch(n):
    y = torch.randint(0, 3, (n,))
    return centers[y] + 0.2 * torch.randn(n, 2), y


class G(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(3, 4)
        self.net = nn.Sequential(nn.Linear(8, 32), nn.LeakyReLU(0.2), nn.Linear(32, 2))

    def forward(self, z, y):
        return self.net(torch.cat([z, self.emb(y)], 1))


class D(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(3, 4)
        self.net = nn.Sequential(nn.Linear(6, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x, y):
        return self.net(torch.cat([x, self.emb(y)], 1)).squeeze(1)


g, d = G(), D()
opt_g = torch.optim.Adam(g.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(d.parameters(), lr=2e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
fixed_z = torch.randn(6, 4)
fixed_y = torch.tensor([0, 0, 1, 1, 2, 2])
for it in range(60):
    x, y = real_batch(32)
    z = torch.randn(32, 4)
    fake = g(z, y)
    d_loss = bce(d(x, y), torch.full((32,), 0.9)) + bce(d(fake.detach(), y), torch.zeros(32))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(d(fake, y), torch.ones(32))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    if it % 15 == 0:
        with torch.no_grad():
            s = g(fixed_z, fixed_y)
        print(f"it {it} D {d_loss.item():.4f} G {g_loss.item():.4f} sample0 {s[0].tolist()}")

with torch.no_grad():
    for c in range(3):
        s = g(torch.randn(100, 4), torch.full((100,), c))
        print(
            "class", c, "mean", s.mean(0), "dist to center", (s.mean(0) - centers[c]).norm().item()
        )
    print(d(centers, torch.arange(3)).sigmoid())
