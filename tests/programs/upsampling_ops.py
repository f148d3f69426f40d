# Models: a segmentation/super-resolution course cell: interpolate modes, pixel shuffle,
# transposed, grouped and dilated convolutions, unfold/fold.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
x = torch.randn(2, 4, 5, 6, requires_grad=True)
for mode, ac in (
    ("nearest", None),
    ("bilinear", False),
    ("bilinear", True),
    ("bicubic", False),
    ("nearest-exact", None),
    ("area", None),
):
    y = F.interpolate(x, scale_factor=2 if mode != "area" else 0.5, mode=mode, align_corners=ac)
    (g,) = torch.autograd.grad(y.pow(2).sum(), x)
    print(mode, ac, tuple(y.shape), f"{y.sum().item():.5f}", f"{g.abs().sum().item():.5f}")
print(F.interpolate(x, size=(7, 3), mode="bilinear", align_corners=False)[0, 0])
up = nn.Upsample(scale_factor=1.5, mode="bilinear")
print(up(x).shape)
ps = nn.PixelShuffle(2)
print(ps(x).shape, nn.PixelUnshuffle(2)(ps(x)).sub(x).abs().max())
ct = nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1)
out = ct(x)
out.mean().backward()
print(out.shape, out.sum(), ct.weight.grad.norm())
gc = nn.Conv2d(4, 8, 3, groups=2, dilation=2, padding=2, bias=False)
o = gc(x)
print(o.shape, o.std())
u = F.unfold(x, kernel_size=2, stride=1)
print(u.shape, u.sum())
f = F.fold(u, output_size=(5, 6), kernel_size=2)
print(f.shape, (f / F.fold(F.unfold(torch.ones_like(x), 2), (5, 6), 2)).sub(x).abs().max())
x1 = torch.randn(1, 2, 9)
print(F.interpolate(x1, scale_factor=3, mode="linear"), F.interpolate(x1, size=4, mode="nearest"))
print(F.adaptive_avg_pool2d(x, (2, 3)).sum(), F.adaptive_max_pool2d(x, 3).sum())
print(
    F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False).sum(),
    F.max_pool2d(x, 2, ceil_mode=True).shape,
)
print(F.pad(x, (1, 2, 0, 1), mode="reflect").shape, F.pad(x, (1, 1, 1, 1), mode="replicate").sum())
print(F.grid_sample(x, torch.rand(2, 3, 3, 2) * 2 - 1, align_corners=False).sum())
