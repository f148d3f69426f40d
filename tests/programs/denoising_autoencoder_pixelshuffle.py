# Models: an image-denoising autoencoder tutorial on synthetic shapes: noisy inputs, an encoder
# with PixelUnshuffle and strided convs, a decoder upsampling with F.interpolate and
# PixelShuffle (sub-pixel convolution), reflection padding, PSNR and a box-filter SSIM
# computed with avg_pool2d, and a comparison of interpolate modes.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_images(n, size=16):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    imgs = torch.zeros(n, 1, size, size)
    for i in range(n):
        cx, cy = torch.randint(4, size - 4, (2,)).tolist()
        r = torch.randint(2, 5, (1,)).item()
        if i % 2 == 0:
            imgs[i, 0] = (((xx - cx) ** 2 + (yy - cy) ** 2) <= r * r).float()
        else:
            imgs[i, 0] = (((xx - cx).abs() <= r) & ((yy - cy).abs() <= r)).float()
    return imgs


clean = make_images(32)
noisy = (clean + 0.3 * torch.randn_like(clean)).clamp(0, 1)
print("images", tuple(clean.shape), f"mean {clean.mean().item():.4f}")


def psnr(a, b):
    mse = F.mse_loss(a, b)
    return 10 * math.log10(1.0 / mse.item())


def ssim(a, b, k=5, c1=0.01**2, c2=0.03**2):
    pad = k // 2
    a_p, b_p = F.pad(a, (pad,) * 4, mode="reflect"), F.pad(b, (pad,) * 4, mode="reflect")
    mu_a, mu_b = F.avg_pool2d(a_p, k, 1), F.avg_pool2d(b_p, k, 1)
    var_a = F.avg_pool2d(a_p * a_p, k, 1) - mu_a**2
    var_b = F.avg_pool2d(b_p * b_p, k, 1) - mu_b**2
    cov = F.avg_pool2d(a_p * b_p, k, 1) - mu_a * mu_b
    s = ((2 * mu_a * mu_b + c1) * (2 * cov + c2)) / (
        (mu_a**2 + mu_b**2 + c1) * (var_a + var_b + c2)
    )
    return s.mean().item()


print(f"noisy PSNR {psnr(noisy, clean):.2f} dB SSIM {ssim(noisy, clean):.4f}")


class DAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(
            nn.PixelUnshuffle(2),  # 1x16x16 -> 4x8x8
            nn.Conv2d(4, 16, 3, padding=1, padding_mode="reflect"),
            nn.ReLU(),
            nn.Conv2d(16, 16, 3, stride=2, padding=1),  # -> 4x4
            nn.ReLU(),
        )
        self.up = nn.Conv2d(16, 16, 3, padding=1)
        self.sub = nn.Conv2d(16, 4, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        h = self.enc(x)
        h = F.interpolate(h, scale_factor=2, mode="nearest")  # -> 8x8
        h = F.relu(self.up(h))
        return torch.sigmoid(self.shuffle(self.sub(h)))  # -> 1x16x16


model = DAE()
print(model)
out = model(noisy[:2])
print("output shape", tuple(out.shape))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(1, 31):
    perm = torch.randperm(32)
    for i in range(0, 32, 8):
        idx = perm[i : i + 8]
        opt.zero_grad()
        loss = F.binary_cross_entropy(model(noisy[idx]), clean[idx])
        loss.backward()
        opt.step()
    if epoch % 10 == 0:
        with torch.no_grad():
            den = model(noisy)
        print(f"epoch {epoch} loss {loss.item():.4f} PSNR {psnr(den, clean):.2f}")
with torch.no_grad():
    den = model(noisy)
print("denoised SSIM > noisy SSIM:", ssim(den, clean) > ssim(noisy, clean))

x = torch.arange(16.0).reshape(1, 1, 4, 4)
for mode, kw in [
    ("nearest", {}),
    ("nearest-exact", {}),
    ("bilinear", {"align_corners": False}),
    ("bilinear", {"align_corners": True}),
    ("bicubic", {"align_corners": False}),
    ("area", {}),
]:
    y = F.interpolate(x, size=(3, 5), mode=mode, **kw)
    print(mode, kw, y[0, 0, 1].round(decimals=4).tolist())
print("antialias down", F.interpolate(x, size=(2, 2), mode="bilinear", antialias=True)[0, 0])
ps = nn.PixelShuffle(2)(torch.arange(8.0).reshape(1, 8, 1, 1))
print("pixel shuffle", ps.shape, ps[0].tolist())
print(
    "unshuffle inverts:",
    torch.equal(nn.PixelUnshuffle(2)(ps), torch.arange(8.0).reshape(1, 8, 1, 1)),
)
try:
    nn.PixelShuffle(3)(torch.zeros(1, 8, 2, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.interpolate(x, scale_factor=2, mode="linear")
except (RuntimeError, ValueError, NotImplementedError) as e:
    print(type(e).__name__ + ":", e)
