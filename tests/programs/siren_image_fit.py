# Models: the SIREN colab (implicit neural representations with periodic activations): sine
# layers with omega_0 and the paper's uniform initialisation, fitting a small synthetic image
# from a coordinate grid, image gradients via autograd.grad (the Sobel comparison of the
# paper), the Laplacian by a second grad, and a ReLU+positional-encoding baseline.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SineLayer(nn.Module):
    def __init__(self, in_features, out_features, bias=True, is_first=False, omega_0=30.0):
        super().__init__()
        self.omega_0, self.is_first = omega_0, is_first
        self.linear = nn.Linear(in_features, out_features, bias=bias)
        with torch.no_grad():
            if is_first:
                bound = 1 / in_features
            else:
                bound = math.sqrt(6 / in_features) / omega_0
            self.linear.weight.uniform_(-bound, bound)

    def forward(self, x):
        return torch.sin(self.omega_0 * self.linear(x))


class Siren(nn.Module):
    def __init__(self, hidden=32, layers=2, omega_0=30.0):
        super().__init__()
        net = [SineLayer(2, hidden, is_first=True, omega_0=omega_0)]
        net += [SineLayer(hidden, hidden, omega_0=omega_0) for _ in range(layers)]
        final = nn.Linear(hidden, 1)
        with torch.no_grad():
            bound = math.sqrt(6 / hidden) / omega_0
            final.weight.uniform_(-bound, bound)
        net.append(final)
        self.net = nn.Sequential(*net)

    def forward(self, coords):
        coords = coords.clone().detach().requires_grad_(True)
        return self.net(coords), coords


def get_mgrid(side, dim=2):
    tensors = tuple(dim * [torch.linspace(-1, 1, steps=side)])
    mgrid = torch.stack(torch.meshgrid(*tensors, indexing="ij"), dim=-1)
    return mgrid.reshape(-1, dim)


def gradient(y, x):
    return torch.autograd.grad(y, [x], grad_outputs=torch.ones_like(y), create_graph=True)[0]


def laplace(y, x):
    grad = gradient(y, x)
    div = 0.0
    for i in range(grad.shape[-1]):
        div = (
            div
            + torch.autograd.grad(
                grad[..., i], x, torch.ones_like(grad[..., i]), create_graph=True
            )[0][..., i : i + 1]
        )
    return div


SIDE = 16
coords = get_mgrid(SIDE)
print("grid:", tuple(coords.shape), coords[:3])
xx, yy = coords[:, 0:1], coords[:, 1:2]
image = torch.sin(3 * xx) * torch.cos(2 * yy) + 0.5 * (xx**2 + yy**2 < 0.3).float()
print("image stats:", image.mean(), image.std(), image.min(), image.max())

siren = Siren()
print(siren.net[0].linear.weight.abs().max() <= 0.5, siren.net[1].linear.weight.abs().max())
opt = torch.optim.Adam(siren.parameters(), lr=1e-3)
for step in range(60):
    out, c = siren(coords)
    loss = F.mse_loss(out, image)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0 or step == 59:
        print(f"siren step {step:2d} loss {loss.item():.6f}")

out, c = siren(coords)
g = gradient(out, c)
lap = laplace(out, c)
print("gradient field:", tuple(g.shape), g.grad_fn is not None, g[:2])
print("laplacian:", tuple(lap.shape), lap.abs().mean())
img = image.view(1, 1, SIDE, SIDE)
sobel = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]).view(1, 1, 3, 3) / 8
gx = F.conv2d(F.pad(img, (1, 1, 1, 1), mode="replicate"), sobel)
gy = F.conv2d(F.pad(img, (1, 1, 1, 1), mode="replicate"), sobel.transpose(2, 3))
print("sobel magnitude mean:", torch.sqrt(gx**2 + gy**2).mean())


class PEReLU(nn.Module):
    def __init__(self, n_freqs=4, hidden=32):
        super().__init__()
        self.register_buffer("freqs", math.pi * 2.0 ** torch.arange(n_freqs))
        self.net = nn.Sequential(
            nn.Linear(2 + 4 * n_freqs, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        xf = (x[..., None] * self.freqs).flatten(-2)
        return self.net(torch.cat([x, xf.sin(), xf.cos()], -1))


relu_net = PEReLU()
print("buffers:", [n for n, _ in relu_net.named_buffers()], relu_net.freqs)
opt = torch.optim.Adam(relu_net.parameters(), lr=1e-3)
for step in range(60):
    loss = F.mse_loss(relu_net(coords), image)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"relu+PE final loss {loss.item():.6f}")
with torch.no_grad():
    hi = get_mgrid(24)
    up, _ = siren(hi)
    print("super-resolved:", tuple(up.view(24, 24).shape), up.mean(), up.std())
