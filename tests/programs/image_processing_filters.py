# Models: a classical image-processing lab done with torch ops (the "OpenCV in PyTorch" /
# kornia-free notebooks): Gaussian blur with a separable kernel, Sobel gradients and their
# magnitude/orientation, morphological dilation/erosion with max_pool2d, a median filter via
# unfold, histogram equalisation with histc and cumsum, and PSNR / SSIM quality metrics.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
H = W = 24
yy, xx = torch.meshgrid(
    torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij"
)
img = ((xx - 12) ** 2 + (yy - 12) ** 2 < 49).float() * 0.7
img[4:9, 3:20] = 0.4
img = img + 0.2 * (xx / W)
noisy = (img + 0.08 * torch.randn(H, W)).clamp(0, 1)
print(img.shape, img.mean().item(), noisy.mean().item())


def gaussian_kernel1d(sigma, radius):
    x = torch.arange(-radius, radius + 1, dtype=torch.float32)
    k = torch.exp(-(x**2) / (2 * sigma**2))
    return k / k.sum()


k1 = gaussian_kernel1d(1.2, 3)
print("gaussian", k1)
x = noisy[None, None]
blur = F.conv2d(F.pad(x, (3, 3, 0, 0), mode="reflect"), k1.view(1, 1, 1, -1))
blur = F.conv2d(F.pad(blur, (0, 0, 3, 3), mode="reflect"), k1.view(1, 1, -1, 1))
k2 = torch.outer(k1, k1)
blur2 = F.conv2d(F.pad(x, (3, 3, 3, 3), mode="reflect"), k2[None, None])
print("blur", blur.shape, blur.mean().item(), (blur - blur2).abs().max().item() < 1e-6)

sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
sobel = torch.stack([sobel_x, sobel_x.T])[:, None]
grads = F.conv2d(F.pad(blur, (1, 1, 1, 1), mode="replicate"), sobel)
gx, gy = grads[0, 0], grads[0, 1]
mag = torch.hypot(gx, gy)
theta = torch.atan2(gy, gx)
print("sobel", grads.shape, mag.max().item(), mag.mean().item())
print(mag[12, 2:12])
bins = torch.round(theta / (math.pi / 4)).long() % 4
print("orientation counts", torch.bincount(bins[mag > 0.5], minlength=4))
edges = mag > mag.mean() + mag.std()
print("edge pixels", edges.sum().item())

binary = (blur > 0.5).float()
dilated = F.max_pool2d(binary, 3, stride=1, padding=1)
eroded = -F.max_pool2d(-binary, 3, stride=1, padding=1)
opened = F.max_pool2d(-F.max_pool2d(-binary, 3, 1, 1), 3, 1, 1)
print(
    "binary",
    int(binary.sum()),
    "dilated",
    int(dilated.sum()),
    "eroded",
    int(eroded.sum()),
    "opened",
    int(opened.sum()),
)
boundary = dilated - eroded
print("boundary", int(boundary.sum()))

patches = F.unfold(F.pad(x, (1, 1, 1, 1), mode="replicate"), kernel_size=3)
print("patches", patches.shape)
median = patches.median(dim=1).values.view(1, 1, H, W)
print("median", median[0, 0, 12, 8:16])

u8 = (noisy * 200).to(torch.uint8)
hist = torch.histc(u8.float(), bins=256, min=0, max=255)
cdf = hist.cumsum(0)
cdf_min = cdf[cdf > 0].min()
lut = ((cdf - cdf_min) / (cdf[-1] - cdf_min) * 255).round().clamp(0, 255).to(torch.uint8)
equalised = lut[u8.long()]
print(
    "u8 range",
    u8.min().item(),
    u8.max().item(),
    "equalised range",
    equalised.min().item(),
    equalised.max().item(),
)
print("hist nonzero", (hist > 0).sum().item(), lut[::32])


def psnr(a, b, data_range=1.0):
    mse = F.mse_loss(a, b)
    return 10 * torch.log10(data_range**2 / mse)


def ssim(a, b, window=7, c1=0.01**2, c2=0.03**2):
    k = gaussian_kernel1d(1.5, window // 2)
    w2 = torch.outer(k, k)[None, None]
    mu_a, mu_b = F.conv2d(a, w2), F.conv2d(b, w2)
    saa = F.conv2d(a * a, w2) - mu_a**2
    sbb = F.conv2d(b * b, w2) - mu_b**2
    sab = F.conv2d(a * b, w2) - mu_a * mu_b
    s = ((2 * mu_a * mu_b + c1) * (2 * sab + c2)) / ((mu_a**2 + mu_b**2 + c1) * (saa + sbb + c2))
    return s.mean()


clean = img[None, None]
for name, est in [("noisy", x), ("gaussian", blur), ("median", median)]:
    print(f"{name:9s} psnr {psnr(est, clean).item():.3f} dB  ssim {ssim(est, clean).item():.4f}")

small = F.interpolate(blur, scale_factor=0.5, mode="area")
up = F.interpolate(small, size=(H, W), mode="bilinear", align_corners=False)
print("pyramid", small.shape, up.shape, psnr(up, blur).item())
laplacian = blur - up
print("laplacian energy", laplacian.pow(2).sum().item())
