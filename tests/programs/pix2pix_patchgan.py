# Models: pix2pix (conditional GAN for image-to-image translation): a small U-Net-style
# generator with skip connections, a 70x70-style PatchGAN discriminator reduced to toy size
# that sees (input, output) pairs concatenated on channels, BCEWithLogits adversarial loss
# on patch maps plus lambda * L1 reconstruction, Adam with betas (0.5, 0.999), and the
# edge-map -> filled-shape translation task generated on the fly.
import torch
import torch.nn as nn

torch.manual_seed(0)


def pairs(n, g, size=16):
    """Input: outline of a rectangle; target: the filled rectangle with a gradient."""
    a = torch.zeros(n, 1, size, size)
    b = torch.zeros(n, 1, size, size)
    ramp = torch.linspace(0.2, 1.0, size)
    for i in range(n):
        x0, y0 = torch.randint(1, 7, (2,), generator=g).tolist()
        w, h = torch.randint(4, 8, (2,), generator=g).tolist()
        b[i, 0, y0:y0 + h, x0:x0 + w] = ramp[x0:x0 + w]
        a[i, 0, y0:y0 + h, x0] = a[i, 0, y0:y0 + h, x0 + w - 1] = 1
        a[i, 0, y0, x0:x0 + w] = a[i, 0, y0 + h - 1, x0:x0 + w] = 1
    return a * 2 - 1, b * 2 - 1


def down(cin, cout, norm=True):
    layers = [nn.Conv2d(cin, cout, 4, 2, 1, bias=not norm)]
    if norm:
        layers.append(nn.BatchNorm2d(cout))
    layers.append(nn.LeakyReLU(0.2))
    return nn.Sequential(*layers)


def up(cin, cout, dropout=False):
    layers = [nn.ConvTranspose2d(cin, cout, 4, 2, 1, bias=False), nn.BatchNorm2d(cout)]
    if dropout:
        layers.append(nn.Dropout(0.5))
    layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class UNetG(nn.Module):
    def __init__(self):
        super().__init__()
        self.d1, self.d2, self.d3 = down(1, 8, norm=False), down(8, 16), down(16, 32)
        self.u1, self.u2 = up(32, 16, dropout=True), up(32, 8)
        self.out = nn.Sequential(nn.ConvTranspose2d(16, 1, 4, 2, 1), nn.Tanh())

    def forward(self, x):
        d1 = self.d1(x)
        d2 = self.d2(d1)
        d3 = self.d3(d2)
        u1 = self.u1(d3)
        u2 = self.u2(torch.cat([u1, d2], 1))
        return self.out(torch.cat([u2, d1], 1))


class PatchD(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(down(2, 8, norm=False), down(8, 16),
                                 nn.Conv2d(16, 1, 3, 1, 1))

    def forward(self, a, b):
        return self.net(torch.cat([a, b], 1))


def init_weights(m):
    if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
        nn.init.normal_(m.weight, 0.0, 0.02)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.normal_(m.weight, 1.0, 0.02)
        nn.init.zeros_(m.bias)


G, D = UNetG(), PatchD()
G.apply(init_weights)
D.apply(init_weights)
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
bce, l1, LAMBDA = nn.BCEWithLogitsLoss(), nn.L1Loss(), 10.0
g = torch.Generator().manual_seed(3)
test_a, test_b = pairs(6, g)
print("patch map shape:", tuple(D(test_a, test_b).shape))
for step in range(40):
    a, b = pairs(8, g)
    fake = G(a)
    pred_real, pred_fake = D(a, b), D(a, fake.detach())
    loss_d = 0.5 * (bce(pred_real, torch.ones_like(pred_real))
                    + bce(pred_fake, torch.zeros_like(pred_fake)))
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()
    pred_fake = D(a, fake)
    loss_gan = bce(pred_fake, torch.ones_like(pred_fake))
    loss_l1 = l1(fake, b)
    loss_g = loss_gan + LAMBDA * loss_l1
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    if step % 10 == 9:
        print(f"step {step + 1:2d} D {loss_d.item():.5f} G_gan {loss_gan.item():.5f} "
              f"L1 {loss_l1.item():.5f}")
G.eval()
with torch.no_grad():
    out = G(test_a)
    mae = (out - test_b).abs().mean((1, 2, 3))
    d_scores = torch.sigmoid(D(test_a, out)).mean((1, 2, 3))
print("test L1 per image:", mae)
print("D(real-looking) per image:", d_scores)
print("output row:", out[0, 0, 8, :8])
