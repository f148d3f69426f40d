# Models: augmentation code written by hand in Kaggle kernels: RandomErasing (area/aspect ratio
# sampled with a generator, log-uniform ratio), Cutout squares, Gaussian blur with a separable
# kernel via conv2d groups, Sobel edges, and random resized crop box sampling retries.
import math

import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(11)
img = torch.rand(3, 16, 16, generator=g)


def random_erasing(img, p=1.0, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0.0):
    if torch.rand(1, generator=g).item() > p:
        return img, None
    c, h, w = img.shape
    area = h * w
    log_ratio = torch.log(torch.tensor(ratio))
    for _ in range(10):
        erase_area = area * torch.empty(1).uniform_(scale[0], scale[1], generator=g).item()
        aspect = torch.exp(torch.empty(1).uniform_(log_ratio[0], log_ratio[1], generator=g)).item()
        eh = int(round(math.sqrt(erase_area * aspect)))
        ew = int(round(math.sqrt(erase_area / aspect)))
        if not (eh < h and ew < w):
            continue
        i = torch.randint(0, h - eh + 1, size=(1,), generator=g).item()
        j = torch.randint(0, w - ew + 1, size=(1,), generator=g).item()
        out = img.clone()
        out[:, i : i + eh, j : j + ew] = value
        return out, (i, j, eh, ew)
    return img, None


def cutout(img, size=4):
    h, w = img.shape[-2:]
    cy = torch.randint(h, (1,), generator=g).item()
    cx = torch.randint(w, (1,), generator=g).item()
    mask = torch.ones(h, w)
    mask[max(0, cy - size // 2) : cy + size // 2, max(0, cx - size // 2) : cx + size // 2] = 0
    return img * mask, mask.sum().item()


def gaussian_kernel1d(ks, sigma):
    half = (ks - 1) * 0.5
    x = torch.linspace(-half, half, steps=ks)
    pdf = torch.exp(-0.5 * (x / sigma).pow(2))
    return pdf / pdf.sum()


def gaussian_blur(img, ks=5, sigma=1.0):
    k1 = gaussian_kernel1d(ks, sigma)
    k2 = torch.mm(k1[:, None], k1[None, :]).expand(img.shape[-3], 1, ks, ks)
    x = F.pad(img[None], [ks // 2] * 4, mode="reflect")
    return F.conv2d(x, k2, groups=img.shape[-3])[0]


for _ in range(3):
    out, box = random_erasing(img)
    print(box, out.eq(0).sum().item())
co, kept = cutout(img)
print(kept, co.sum().item())
print(gaussian_kernel1d(5, 1.0))
bl = gaussian_blur(img)
print(bl.shape, bl.mean(dim=(1, 2)), img.mean(dim=(1, 2)))
print(bl[0, :2, :4])
sobel_x = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]])
gray = img.mean(0, keepdim=True)[None]
gx = F.conv2d(gray, sobel_x.view(1, 1, 3, 3), padding=1)
gy = F.conv2d(gray, sobel_x.t().reshape(1, 1, 3, 3), padding=1)
mag = torch.sqrt(gx**2 + gy**2)
print(mag.shape, mag.max().item(), mag[0, 0, 5, :5])
print(torch.atan2(gy, gx)[0, 0, 1, :4])
