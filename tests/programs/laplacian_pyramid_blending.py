# Models: multi-scale image processing: Gaussian pyramids built with a separable binomial
# kernel, Laplacian pyramids and exact reconstruction, and seamless blending of two images with
# a soft mask ("apple and orange"), on small synthetic colour images.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
k1 = torch.tensor([1.0, 4.0, 6.0, 4.0, 1.0]) / 16
kernel = torch.outer(k1, k1).expand(3, 1, 5, 5)


def blur(x):
    return F.conv2d(F.pad(x, (2, 2, 2, 2), mode="reflect"), kernel, groups=3)


def down(x):
    return blur(x)[..., ::2, ::2]


def up(x, size):
    return blur(F.interpolate(x, size=size, mode="bilinear", align_corners=False))


def gaussian_pyramid(x, levels):
    pyr = [x]
    for _ in range(levels):
        pyr.append(down(pyr[-1]))
    return pyr


def laplacian_pyramid(x, levels):
    g = gaussian_pyramid(x, levels)
    return [g[i] - up(g[i + 1], g[i].shape[-2:]) for i in range(levels)] + [g[-1]]


def reconstruct(lp):
    x = lp[-1]
    for lap in reversed(lp[:-1]):
        x = lap + up(x, lap.shape[-2:])
    return x


H = W = 32
yy, xx = torch.meshgrid(torch.linspace(0, 1, H), torch.linspace(0, 1, W), indexing="ij")
apple = torch.stack(
    [0.8 + 0.1 * torch.sin(10 * xx), 0.2 + 0.1 * yy, 0.1 + 0.05 * torch.cos(8 * yy)]
)[None]
orange = torch.stack([0.9 - 0.1 * yy, 0.5 + 0.1 * torch.sin(12 * yy), 0.1 + 0.05 * xx])[None]
apple = apple + 0.03 * torch.randn_like(apple)
orange = orange + 0.03 * torch.randn_like(orange)
gp = gaussian_pyramid(apple, 3)
print("gaussian pyramid shapes", [tuple(g.shape[-2:]) for g in gp])
print("means per level", torch.stack([g.mean((0, 2, 3)) for g in gp]))
lp = laplacian_pyramid(apple, 3)
print("laplacian energies", [round(l.pow(2).mean().item(), 6) for l in lp])
print("reconstruction error", (reconstruct(lp) - apple).abs().max().item() < 1e-5)

mask = (xx < 0.5).float()[None, None].expand(1, 3, H, W)
mp = gaussian_pyramid(mask, 3)
la, lo = laplacian_pyramid(apple, 3), laplacian_pyramid(orange, 3)
blended = reconstruct([m * a + (1 - m) * o for m, a, o in zip(mp, la, lo)])
naive = mask * apple + (1 - mask) * orange
seam = slice(W // 2 - 2, W // 2 + 2)


def jump(img):
    return (img[..., seam][..., 1:] - img[..., seam][..., :-1]).abs().mean().item()


print(f"seam jump naive {jump(naive):.5f} blended {jump(blended):.5f}")
print("blended row 16, red channel", blended[0, 0, 16, 12:20])
print("blended range", blended.min().item(), blended.max().item())
print("mask pyramid top level\n", mp[-1][0, 0])
