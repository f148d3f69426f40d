# Models: classic image processing on uint8 tensors: histograms with bincount and histc,
# histogram equalisation through the CDF, CLAHE-like tiled equalisation, Otsu's threshold,
# gamma correction and connected components by iterative min-pooling.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
H, W = 32, 32
yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
img = (60 + 40 * torch.sin(xx / 5.0) + 20 * torch.cos(yy / 7.0)).round()
img[8:14, 6:20] += 90
img[20:28, 18:28] += 70
img = (img + torch.randn(H, W) * 6).clamp(0, 255).to(torch.uint8)
print(img.dtype, img.shape, img.min(), img.max(), img.float().mean())

hist = torch.bincount(img.flatten().long(), minlength=256)
print("histc agrees:", torch.equal(torch.histc(img.float(), bins=256, min=0, max=255).long(), hist))
print("nonzero bins", (hist > 0).sum().item(), "mode", hist.argmax().item())
cdf = hist.cumsum(0)
cdf_min = cdf[cdf > 0][0]
lut = ((cdf - cdf_min).float() / (H * W - cdf_min) * 255).round().clamp(0, 255).to(torch.uint8)
eq = lut[img.long()]
print(
    "equalised range",
    eq.min().item(),
    eq.max().item(),
    "std before/after",
    img.float().std().item(),
    eq.float().std().item(),
)
print(eq[6:10, 4:12])


def otsu(image):
    h = torch.bincount(image.flatten().long(), minlength=256).double()
    p = h / h.sum()
    omega = p.cumsum(0)
    mu = (p * torch.arange(256, dtype=torch.float64)).cumsum(0)
    mu_t = mu[-1]
    sigma_b = (mu_t * omega - mu) ** 2 / (omega * (1 - omega))
    sigma_b = torch.nan_to_num(sigma_b, nan=0.0, posinf=0.0)
    return int(sigma_b.argmax()), sigma_b.max().item()


thr, between = otsu(img)
print("otsu threshold", thr, "between-class variance", round(between, 4))
mask = img > thr
print("foreground pixels", mask.sum().item())

labels = torch.where(
    mask, torch.arange(1, H * W + 1).view(H, W), torch.zeros(H, W, dtype=torch.long)
).float()
big = float(H * W + 1)
for it in range(64):
    cur = torch.where(mask, labels, torch.full_like(labels, big))
    pooled = -F.max_pool2d(-cur[None, None], 3, stride=1, padding=1)[0, 0]
    new = torch.where(mask, torch.minimum(cur, pooled), torch.zeros_like(labels))
    if torch.equal(new, labels):
        break
    labels = new
comps = labels[labels > 0].unique()
print("converged after", it, "iterations;", len(comps), "components")
sizes = torch.stack([(labels == c).sum() for c in comps])
print("component sizes", sizes.sort(descending=True).values[:5].tolist())

gamma = torch.tensor([0.5, 1.0, 2.2])
corrected = (img.float()[None] / 255) ** gamma[:, None, None] * 255
print("gamma means", corrected.mean((1, 2)))
tiles = img.float().unfold(0, 16, 16).unfold(1, 16, 16).reshape(2, 2, 256)
tile_eq = []
for t in tiles.reshape(4, 256):
    h = torch.histc(t, bins=16, min=0, max=256).clamp(max=40)
    excess = 256 - h.sum()
    h = h + excess / 16
    tile_eq.append((h.cumsum(0) / 256 * 255).round())
print(torch.stack(tile_eq).to(torch.uint8))
sobel = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
gx = F.conv2d(img.float()[None, None], sobel[None, None], padding=1)
gy = F.conv2d(img.float()[None, None], sobel.T[None, None], padding=1)
mag = torch.hypot(gx, gy)[0, 0]
print("edge pixels", (mag > 200).sum().item(), "max gradient", mag.max().item())
print(torch.atan2(gy, gx)[0, 0, 10, 4:10])
