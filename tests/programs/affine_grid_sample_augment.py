# Models: geometric data augmentation with F.affine_grid + F.grid_sample (random rotation,
# scale and translation matrices per sample from a seeded generator), padding modes and
# align_corners variants, nearest vs bilinear vs bicubic, gradient through the sampling grid,
# and a 3-D affine warp of a volume.
import math

import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(7)
img = torch.arange(2 * 1 * 6 * 6, dtype=torch.float32).view(2, 1, 6, 6) / 71


def random_affine(n, max_deg=30, scale=(0.8, 1.2), translate=0.1):
    ang = (torch.rand(n, generator=g) * 2 - 1) * math.radians(max_deg)
    s = torch.empty(n).uniform_(*scale, generator=g)
    t = (torch.rand(n, 2, generator=g) * 2 - 1) * translate
    cos, sin = torch.cos(ang) / s, torch.sin(ang) / s
    theta = torch.stack(
        [torch.stack([cos, -sin, t[:, 0]], 1), torch.stack([sin, cos, t[:, 1]], 1)], 1
    )
    return theta


theta = random_affine(2)
print(theta)
for ac in (False, True):
    grid = F.affine_grid(theta, img.shape, align_corners=ac)
    print(grid.shape, grid[0, 0, :2])
    for mode in ("bilinear", "nearest", "bicubic"):
        for pm in ("zeros", "border", "reflection"):
            out = F.grid_sample(img, grid, mode=mode, padding_mode=pm, align_corners=ac)
            print(ac, mode, pm, f"{out.sum().item():.5f}", f"{out[1, 0, 2, 3].item():.5f}")
ident = torch.tensor([[[1.0, 0, 0], [0, 1, 0]]]).expand(2, 2, 3)
same = F.grid_sample(img, F.affine_grid(ident, img.shape, align_corners=False), align_corners=False)
print(torch.allclose(same, img, atol=1e-6))
hflip = torch.tensor([[[-1.0, 0, 0], [0, 1, 0]]])
print(
    torch.allclose(
        F.grid_sample(
            img[:1], F.affine_grid(hflip, (1, 1, 6, 6), align_corners=False), align_corners=False
        ),
        img[:1].flip(-1),
        atol=1e-6,
    )
)

th = theta.clone().requires_grad_(True)
x = img.clone().requires_grad_(True)
out = F.grid_sample(x, F.affine_grid(th, img.shape, align_corners=False), align_corners=False)
out.pow(2).sum().backward()
print(th.grad)
print(x.grad[0, 0, :2])
try:
    F.affine_grid(theta[:, :1], img.shape, align_corners=False)
except ValueError as e:
    print(e)
vol = torch.rand(1, 1, 3, 4, 4, generator=g)
th3 = torch.eye(3, 4)[None]
th3 = (th3 + 0.1 * torch.randn(1, 3, 4, generator=g)).requires_grad_(True)
grid3 = F.affine_grid(th3, vol.shape, align_corners=True)
print(grid3.shape, grid3[0, 1, 2])
grid3.square().sum().backward()
print(th3.grad)
vol_out = F.grid_sample(vol, grid3, mode="bilinear", padding_mode="border", align_corners=True)
print(vol_out.shape, vol_out[0, 0, 1])
vol_out.sum().backward()
print(th3.grad)
ident3 = F.affine_grid(torch.eye(3, 4)[None], vol.shape, align_corners=True)
print(torch.allclose(F.grid_sample(vol, ident3, align_corners=True), vol, atol=1e-6))
