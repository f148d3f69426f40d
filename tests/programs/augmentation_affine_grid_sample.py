# Models: data-augmentation code written on tensors (what torchvision.transforms.v2 does for
# geometry and colour): random affine matrices (rotation, scale, shear, translation) applied by
# F.affine_grid + F.grid_sample in bilinear, nearest and bicubic modes with zeros / border /
# reflection padding, horizontal flips, antialiased resizing with F.interpolate, separable
# Gaussian blur by conv2d, colour jitter through a grayscale mix, random erasing, and
# test-time augmentation averaged over flips for a tiny CNN.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=4, sci_mode=False)
yy, xx = torch.meshgrid(torch.linspace(-1, 1, 16), torch.linspace(-1, 1, 16), indexing="ij")
img = torch.stack([(xx > 0).float(), (yy > 0.2).float(), ((xx ** 2 + yy ** 2) < 0.4).float()])
img = img[None] * 0.8 + 0.1
print("image", tuple(img.shape), "channel means", img.mean((0, 2, 3)))


def affine_matrix(angle, scale, shear, tx, ty):
    a, s = math.radians(angle), math.radians(shear)
    rot = torch.tensor([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    sh = torch.tensor([[1.0, math.tan(s)], [0.0, 1.0]])
    lin = rot @ sh / scale
    return torch.cat([lin, torch.tensor([[tx], [ty]])], 1)


theta = torch.stack([affine_matrix(15, 1.1, 5, 0.1, -0.05), affine_matrix(-30, 0.9, 0, 0.0, 0.1)])
batch = img.expand(2, -1, -1, -1)
for align in [False, True]:
    grid = F.affine_grid(theta, batch.shape, align_corners=align)
    for mode in ["bilinear", "nearest", "bicubic"]:
        for pad in ["zeros", "border", "reflection"]:
            out = F.grid_sample(batch, grid, mode=mode, padding_mode=pad, align_corners=align)
            print(f"align={align!s:5s} {mode:8s} {pad:10s} mean {out.mean():.5f} "
                  f"min {out.min():.4f} max {out.max():.4f}")
grid = F.affine_grid(theta, batch.shape, align_corners=False)
warped = F.grid_sample(batch, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
print("warped channel 0, rows 6-8:\n", warped[0, 0, 6:9, 4:12])

# identity grid reproduces the input; flips by grids equal torch.flip
ident = F.affine_grid(torch.eye(2, 3)[None], img.shape, align_corners=False)
print("identity exact:", torch.equal(F.grid_sample(img, ident, align_corners=False), img))
flip_theta = torch.tensor([[[-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
flipped = F.grid_sample(img, F.affine_grid(flip_theta, img.shape, align_corners=False),
                        align_corners=False)
print("flip by grid == torch.flip:", torch.allclose(flipped, img.flip(-1), atol=1e-6))

# resizing with and without antialiasing
for size in [(8, 8), (5, 7)]:
    plain = F.interpolate(img, size=size, mode="bilinear", align_corners=False)
    aa = F.interpolate(img, size=size, mode="bilinear", align_corners=False, antialias=True)
    bic = F.interpolate(img, size=size, mode="bicubic", align_corners=False, antialias=True)
    print(f"resize {size}: plain {plain.mean():.5f} antialias {aa.mean():.5f} bicubic-aa "
          f"{bic.mean():.5f} max |aa - plain| {(aa - plain).abs().max():.4f}")
print("antialiased 5x7, channel 2:\n", bic[0, 2])


def gaussian_blur(x, sigma, k=5):
    t = torch.arange(k, dtype=torch.float) - k // 2
    w = torch.exp(-t ** 2 / (2 * sigma ** 2))
    w = w / w.sum()
    c = x.shape[1]
    x = F.pad(x, (k // 2,) * 4, mode="reflect")
    x = F.conv2d(x, w.view(1, 1, 1, k).expand(c, 1, 1, k), groups=c)
    return F.conv2d(x, w.view(1, 1, k, 1).expand(c, 1, k, 1), groups=c)


blurred = gaussian_blur(img, 1.0)
print("blur keeps the mean:", blurred.mean().item(), img.mean().item())


def color_jitter(x, brightness, contrast, saturation):
    x = (x * brightness).clamp(0, 1)
    gray = (0.299 * x[:, 0] + 0.587 * x[:, 1] + 0.114 * x[:, 2])[:, None]
    mean = gray.mean((2, 3), keepdim=True)
    x = ((x - mean) * contrast + mean).clamp(0, 1)
    gray = (0.299 * x[:, 0] + 0.587 * x[:, 1] + 0.114 * x[:, 2])[:, None]
    return (gray + (x - gray) * saturation).clamp(0, 1)


gen = torch.Generator().manual_seed(3)
factors = 1 + (torch.rand(3, generator=gen) - 0.5) * 0.8
jittered = color_jitter(img, *factors.tolist())
print("jitter factors:", factors, "channel means:", jittered.mean((0, 2, 3)))


def random_erasing(x, gen, scale=(0.05, 0.2)):
    h, w = x.shape[-2:]
    area = h * w * (scale[0] + (scale[1] - scale[0]) * torch.rand(1, generator=gen).item())
    eh = ew = int(round(math.sqrt(area)))
    top = int(torch.randint(0, h - eh + 1, (1,), generator=gen))
    left = int(torch.randint(0, w - ew + 1, (1,), generator=gen))
    out = x.clone()
    out[..., top:top + eh, left:left + ew] = torch.randn(x.shape[:-2] + (eh, ew), generator=gen)
    return out, (top, left, eh, ew)


erased, box = random_erasing(img, gen)
print("erased box:", box, "changed pixels:", int((erased != img).any(1).sum()))

# train a tiny CNN with random affine augmentation, evaluate with flip TTA
torch.manual_seed(4)
labels = torch.randint(0, 2, (64,))
base = torch.rand(64, 1, 16, 16) * 0.2
base[labels == 1, :, 4:12, 7:9] += 0.8
base[labels == 0, :, 7:9, 4:12] += 0.8
net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                    nn.Flatten(), nn.Linear(16, 2))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for epoch in range(8):
    for idx in torch.randperm(64).split(16):
        angles = (torch.rand(len(idx)) - 0.5) * 20
        th = torch.stack([affine_matrix(a.item(), 1.0, 0.0, 0.0, 0.0) for a in angles])
        grid = F.affine_grid(th, (len(idx), 1, 16, 16), align_corners=False)
        xb = F.grid_sample(base[idx], grid, padding_mode="border", align_corners=False)
        loss = F.cross_entropy(net(xb), labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 4 == 3:
        print(f"epoch {epoch + 1} loss {loss.item():.4f}")
with torch.no_grad():
    plain = net(base).softmax(1)
    tta = (net(base).softmax(1) + net(base.flip(-1)).softmax(1) + net(base.flip(-2)).softmax(1)) / 3
print("accuracy plain", (plain.argmax(1) == labels).float().mean().item(),
      "TTA", (tta.argmax(1) == labels).float().mean().item())
print("TTA probabilities:", tta[:4])
