# Models: a shrunken CycleGAN (Zhu et al.) training step as the official repo writes it:
# ReflectionPad2d + InstanceNorm2d residual generators, PatchGAN discriminators with LeakyReLU,
# LSGAN (MSE) adversarial losses, cycle and identity L1 losses, an image pool of past fakes,
# set_requires_grad toggling, and LambdaLR linear decay.
import random

import torch
import torch.nn as nn

random.seed(0)
torch.manual_seed(0)


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.block = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(c, c, 3), nn.InstanceNorm2d(c),
                                   nn.ReLU(True), nn.ReflectionPad2d(1), nn.Conv2d(c, c, 3),
                                   nn.InstanceNorm2d(c))

    def forward(self, x):
        return x + self.block(x)


def generator(c=8):
    return nn.Sequential(
        nn.ReflectionPad2d(2), nn.Conv2d(3, c, 5), nn.InstanceNorm2d(c, affine=True), nn.ReLU(True),
        nn.Conv2d(c, 2 * c, 3, stride=2, padding=1), nn.InstanceNorm2d(2 * c), nn.ReLU(True),
        ResBlock(2 * c),
        nn.ConvTranspose2d(2 * c, c, 3, stride=2, padding=1, output_padding=1),
        nn.InstanceNorm2d(c), nn.ReLU(True),
        nn.ReflectionPad2d(2), nn.Conv2d(c, 3, 5), nn.Tanh())


def discriminator(c=8):
    return nn.Sequential(
        nn.Conv2d(3, c, 4, 2, 1), nn.LeakyReLU(0.2, True),
        nn.Conv2d(c, 2 * c, 4, 2, 1), nn.InstanceNorm2d(2 * c), nn.LeakyReLU(0.2, True),
        nn.Conv2d(2 * c, 1, 3, 1, 1))


class ImagePool:
    def __init__(self, size):
        self.size, self.images = size, []

    def query(self, images):
        out = []
        for im in images:
            im = im[None]
            if len(self.images) < self.size:
                self.images.append(im)
                out.append(im)
            elif random.uniform(0, 1) > 0.5:
                j = random.randint(0, self.size - 1)
                out.append(self.images[j].clone())
                self.images[j] = im
            else:
                out.append(im)
        return torch.cat(out, 0)


def set_requires_grad(nets, flag):
    for net in nets:
        for p in net.parameters():
            p.requires_grad = flag


G_AB, G_BA, D_A, D_B = generator(), generator(), discriminator(), discriminator()
print(G_AB[2], G_AB[7].block[2])
print("G params", sum(p.numel() for p in G_AB.parameters()))
opt_G = torch.optim.Adam(list(G_AB.parameters()) + list(G_BA.parameters()), lr=2e-3,
                         betas=(0.5, 0.999))
opt_D = torch.optim.Adam(list(D_A.parameters()) + list(D_B.parameters()), lr=2e-3,
                         betas=(0.5, 0.999))
n_epochs, decay_start = 6, 3
rule = lambda e: 1.0 - max(0, e + 1 - decay_start) / float(n_epochs - decay_start + 1)  # noqa
sched = [torch.optim.lr_scheduler.LambdaLR(o, rule) for o in (opt_G, opt_D)]
mse, l1 = nn.MSELoss(), nn.L1Loss()
pool_A, pool_B = ImagePool(4), ImagePool(4)
A = torch.rand(8, 3, 16, 16) * 2 - 1
B = (A.flip(-1) * 0.8 + 0.1 * torch.randn_like(A)).clamp(-1, 1)
for epoch in range(n_epochs):
    for real_A, real_B in zip(A.split(4), B.split(4)):
        fake_B, fake_A = G_AB(real_A), G_BA(real_B)
        rec_A, rec_B = G_BA(fake_B), G_AB(fake_A)
        set_requires_grad([D_A, D_B], False)
        opt_G.zero_grad()
        pred_fb, pred_fa = D_B(fake_B), D_A(fake_A)
        loss_gan = mse(pred_fb, torch.ones_like(pred_fb)) + mse(pred_fa, torch.ones_like(pred_fa))
        loss_cyc = (l1(rec_A, real_A) + l1(rec_B, real_B)) * 10
        loss_idt = (l1(G_AB(real_B), real_B) + l1(G_BA(real_A), real_A)) * 5
        loss_G = loss_gan + loss_cyc + loss_idt
        loss_G.backward()
        opt_G.step()
        set_requires_grad([D_A, D_B], True)
        opt_D.zero_grad()
        loss_D = 0
        for D, real, fake, pool in ((D_A, real_A, fake_A, pool_A), (D_B, real_B, fake_B, pool_B)):
            fake = pool.query(fake.detach())
            pr, pf = D(real), D(fake)
            ld = 0.5 * (mse(pr, torch.ones_like(pr)) + mse(pf, torch.zeros_like(pf)))
            ld.backward()
            loss_D = loss_D + ld.item()
        opt_D.step()
    for s in sched:
        s.step()
    print(f"epoch {epoch} G {loss_G.item():.5f} gan {loss_gan.item():.5f} "
          f"cyc {loss_cyc.item():.5f} idt {loss_idt.item():.5f} D {loss_D:.5f} "
          f"lr {sched[0].get_last_lr()[0]:.6f}")
print(D_A[-1].weight.grad.abs().sum())
print(G_AB[2].weight, G_AB[2].bias)
with torch.no_grad():
    out = G_AB(A[:1])
print(out.shape, out.min(), out.max(), out.mean())
print(D_B(out).squeeze())
