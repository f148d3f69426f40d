# Models: StyleGAN2's generator pieces as the rosinality port writes them: equalized-lr linear
# and conv layers, a mapping network, modulated convolution with weight demodulation done as one
# grouped conv (batch folded into groups), noise injection with learned strength, a blur
# (upfirdn-style FIR via padded depthwise conv), fused leaky ReLU with its sqrt(2) gain, the
# minibatch-stddev layer, and the non-saturating loss with R1 penalty for a tiny step.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(130)


class EqualLinear(nn.Module):
    def __init__(self, i, o, lr_mul=1.0, bias_init=0.0):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(o, i).div_(lr_mul))
        self.bias = nn.Parameter(torch.zeros(o).fill_(bias_init))
        self.scale, self.lr_mul = (1 / math.sqrt(i)) * lr_mul, lr_mul

    def forward(self, x):
        return F.linear(x, self.weight * self.scale, bias=self.bias * self.lr_mul)


def fused_leaky_relu(x, bias, slope=0.2, scale=2 ** 0.5):
    shape = [1, -1] + [1] * (x.ndim - 2)
    return F.leaky_relu(x + bias.view(shape), slope) * scale


class ModulatedConv(nn.Module):
    def __init__(self, cin, cout, k, style_dim, demodulate=True):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1, cout, cin, k, k))
        self.scale = 1 / math.sqrt(cin * k * k)
        self.modulation = EqualLinear(style_dim, cin, bias_init=1.0)
        self.demodulate, self.pad, self.cout = demodulate, k // 2, cout

    def forward(self, x, style):
        b, cin, h, w = x.shape
        s = self.modulation(style).view(b, 1, cin, 1, 1)
        weight = self.scale * self.weight * s
        if self.demodulate:
            demod = torch.rsqrt(weight.pow(2).sum([2, 3, 4]) + 1e-8)
            weight = weight * demod.view(b, self.cout, 1, 1, 1)
        weight = weight.view(b * self.cout, cin, *weight.shape[3:])
        out = F.conv2d(x.reshape(1, b * cin, h, w), weight, padding=self.pad, groups=b)
        return out.view(b, self.cout, *out.shape[2:])


class StyledLayer(nn.Module):
    def __init__(self, cin, cout, style_dim):
        super().__init__()
        self.conv = ModulatedConv(cin, cout, 3, style_dim)
        self.noise_strength = nn.Parameter(torch.zeros(1))
        self.bias = nn.Parameter(torch.zeros(cout))

    def forward(self, x, style, noise):
        out = self.conv(x, style) + self.noise_strength * noise
        return fused_leaky_relu(out, self.bias)


def blur(x, kernel=(1, 3, 3, 1)):
    k = torch.tensor(kernel, dtype=torch.float32)
    k = k[None, :] * k[:, None]
    k = (k / k.sum()).expand(x.shape[1], 1, 4, 4)
    return F.conv2d(F.pad(x, (2, 1, 2, 1)), k, groups=x.shape[1])


def minibatch_stddev(x, group=2):
    b, c, h, w = x.shape
    y = x.view(group, -1, 1, c, h, w)
    y = torch.sqrt(y.var(0, unbiased=False) + 1e-8).mean([2, 3, 4], keepdim=True).squeeze(2)
    y = y.repeat(group, 1, h, w)
    return torch.cat([x, y], 1)


style_dim = 16
mapping = nn.Sequential(*[m for _ in range(3) for m in (EqualLinear(style_dim, style_dim,
                                                                     lr_mul=0.01), nn.GELU())])
const = nn.Parameter(torch.randn(1, 8, 4, 4))
layers = nn.ModuleList([StyledLayer(8, 8, style_dim), StyledLayer(8, 4, style_dim)])
to_rgb = ModulatedConv(4, 3, 1, style_dim, demodulate=False)
disc = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2))
disc_head = nn.Linear(9 * 8 * 8, 1)


def generate(z, noises):
    w = mapping(F.normalize(z, dim=1) * math.sqrt(style_dim))
    x = const.expand(len(z), -1, -1, -1)
    x = layers[0](x, w, noises[0])
    x = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
    x = blur(x)
    x = layers[1](x, w, noises[1])
    return to_rgb(x, w), w


def discriminate(img):
    return disc_head(minibatch_stddev(disc(img)).flatten(1))


z = torch.randn(4, style_dim)
noises = [torch.randn(4, 1, 4, 4), torch.randn(4, 1, 8, 8)]
img, w = generate(z, noises)
print(img.shape, img.mean(), img.std(), w.std(0)[:4])
print(blur(torch.ones(1, 2, 4, 4))[0, 0])
print(minibatch_stddev(torch.randn(4, 2, 3, 3)).shape)
g_params = list(mapping.parameters()) + [const] + list(layers.parameters()) + \
    list(to_rgb.parameters())
d_params = list(disc.parameters()) + list(disc_head.parameters())
g_opt = torch.optim.Adam(g_params, lr=2e-3, betas=(0.0, 0.99))
d_opt = torch.optim.Adam(d_params, lr=2e-3, betas=(0.0, 0.99))
real = torch.tanh(torch.randn(4, 3, 8, 8))
for step in range(6):
    fake, _ = generate(torch.randn(4, style_dim), [torch.randn(4, 1, 4, 4),
                                                    torch.randn(4, 1, 8, 8)])
    real_in = real.clone().requires_grad_(True)
    real_pred = discriminate(real_in)
    d_loss = F.softplus(discriminate(fake.detach())).mean() + F.softplus(-real_pred).mean()
    grad_real, = torch.autograd.grad(real_pred.sum(), real_in, create_graph=True)
    r1 = grad_real.pow(2).reshape(4, -1).sum(1).mean()
    d_opt.zero_grad()
    (d_loss + 5.0 * r1).backward()
    d_opt.step()
    g_loss = F.softplus(-discriminate(fake)).mean()
    g_opt.zero_grad()
    g_loss.backward()
    g_opt.step()
    print(f"step {step} d {d_loss.item():.5f} r1 {r1.item():.6f} g {g_loss.item():.5f}")
print(layers[0].noise_strength, layers[1].conv.modulation.bias[:4])
