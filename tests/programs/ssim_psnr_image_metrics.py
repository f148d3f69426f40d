# Models: image-restoration evaluation code (pytorch-msssim / basicsr style): PSNR, SSIM with a
# separable Gaussian window applied by grouped conv2d, MS-SSIM over an avg-pooled pyramid,
# Sobel gradient magnitude, total variation, a Charbonnier loss, and SSIM used as a training
# loss to denoise an image.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(15)


def gaussian_window(size=7, sigma=1.5):
    coords = torch.arange(size, dtype=torch.float32) - size // 2
    g = torch.exp(-(coords ** 2) / (2 * sigma ** 2))
    return g / g.sum()


def filt(x, win):
    c = x.shape[1]
    wx = win.view(1, 1, 1, -1).repeat(c, 1, 1, 1)
    wy = win.view(1, 1, -1, 1).repeat(c, 1, 1, 1)
    return F.conv2d(F.conv2d(x, wx, groups=c), wy, groups=c)


def ssim(x, y, data_range=1.0, win=None, full=False):
    win = gaussian_window() if win is None else win
    C1, C2 = (0.01 * data_range) ** 2, (0.03 * data_range) ** 2
    mu_x, mu_y = filt(x, win), filt(y, win)
    sxx = filt(x * x, win) - mu_x ** 2
    syy = filt(y * y, win) - mu_y ** 2
    sxy = filt(x * y, win) - mu_x * mu_y
    cs = (2 * sxy + C2) / (sxx + syy + C2)
    s = ((2 * mu_x * mu_y + C1) / (mu_x ** 2 + mu_y ** 2 + C1)) * cs
    return (s.flatten(2).mean(-1), cs.flatten(2).mean(-1)) if full else s.mean()


def ms_ssim(x, y, weights=(0.4, 0.35, 0.25)):
    vals = []
    for i, _ in enumerate(weights):
        s, cs = ssim(x, y, win=gaussian_window(5, 1.0), full=True)
        vals.append(F.relu(cs if i < len(weights) - 1 else s).mean(1))
        x, y = F.avg_pool2d(x, 2), F.avg_pool2d(y, 2)
    stack = torch.stack(vals, 0)
    return torch.prod(stack ** torch.tensor(weights)[:, None], 0)


def psnr(x, y, data_range=1.0):
    mse = F.mse_loss(x, y, reduction="none").flatten(1).mean(1)
    return 10 * torch.log10(data_range ** 2 / mse)


yy, xx = torch.meshgrid(torch.linspace(-1, 1, 32), torch.linspace(-1, 1, 32), indexing="ij")
clean = torch.stack([0.5 + 0.5 * torch.sin(4 * xx) * torch.cos(3 * yy),
                     (xx ** 2 + yy ** 2 < 0.5).float(), 0.5 + 0.3 * xx]).unsqueeze(0)
noisy = (clean + 0.1 * torch.randn_like(clean)).clamp(0, 1)
blurry = filt(F.pad(clean, (3, 3, 3, 3), mode="reflect"), gaussian_window(7, 2.0))
print("window", gaussian_window())
print("psnr noisy", psnr(noisy, clean), "blurry", psnr(blurry, clean))
print("ssim noisy", ssim(noisy, clean), "blurry", ssim(blurry, clean), "self", ssim(clean, clean))
print("ms-ssim", ms_ssim(noisy, clean), ms_ssim(blurry, clean))
sobel = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]])
kx = sobel.view(1, 1, 3, 3).repeat(3, 1, 1, 1)
ky = sobel.T.reshape(1, 1, 3, 3).repeat(3, 1, 1, 1)
gx = F.conv2d(clean, kx, padding=1, groups=3)
gy = F.conv2d(clean, ky, padding=1, groups=3)
mag = torch.sqrt(gx ** 2 + gy ** 2 + 1e-12)
print("gradient magnitude", mag.mean(dim=(2, 3)), mag.amax(dim=(2, 3)))


def tv(x):
    return (x[..., 1:, :] - x[..., :-1, :]).abs().mean() + (x[..., 1:] - x[..., :-1]).abs().mean()


def charbonnier(x, y, eps=1e-3):
    return torch.sqrt((x - y) ** 2 + eps ** 2).mean()


print("tv", tv(clean), tv(noisy), "charbonnier", charbonnier(noisy, clean))
est = noisy.clone().requires_grad_(True)
opt = torch.optim.Adam([est], lr=0.02)
for step in range(40):
    loss = (1 - ssim(est, noisy)) * 0.1 + charbonnier(est, noisy) + 0.05 * tv(est)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        est.clamp_(0, 1)
    if step % 10 == 9:
        print(f"step {step} loss {loss.item():.6f} psnr {psnr(est.detach(), clean).item():.4f} "
              f"ssim {ssim(est.detach(), clean).item():.5f}")
print(est.grad.abs().mean(), math.isfinite(est.grad.sum().item()))
