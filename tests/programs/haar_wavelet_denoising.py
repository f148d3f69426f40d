# Models: the discrete Haar wavelet transform written with strided conv1d / conv_transpose1d:
# multilevel decomposition, perfect reconstruction, soft/hard thresholding denoising with the
# universal threshold, and a 2-D single-level transform of an image.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
dt = torch.float64
s = 1 / math.sqrt(2)
lo = torch.tensor([s, s], dtype=dt).view(1, 1, 2)
hi = torch.tensor([s, -s], dtype=dt).view(1, 1, 2)


def dwt(x):
    x = x.view(-1, 1, x.shape[-1])
    return F.conv1d(x, lo, stride=2).flatten(1), F.conv1d(x, hi, stride=2).flatten(1)


def idwt(a, d):
    return (
        F.conv_transpose1d(a.unsqueeze(1), lo, stride=2)
        + F.conv_transpose1d(d.unsqueeze(1), hi, stride=2)
    ).flatten(1)


def wavedec(x, levels):
    coeffs = []
    a = x
    for _ in range(levels):
        a, d = dwt(a)
        coeffs.append(d)
    return a, coeffs[::-1]


def waverec(a, coeffs):
    for d in coeffs:
        a = idwt(a, d)
    return a


n = 256
t = torch.linspace(0, 1, n, dtype=dt)
clean = torch.where(t < 0.3, 1.0, torch.where(t < 0.6, -0.5, 0.8)) + torch.sin(8 * math.pi * t) * (
    t > 0.6
)
noisy = clean + 0.2 * torch.randn(n, dtype=dt)
a, ds = wavedec(noisy.view(1, -1), 4)
print("approximation", a.shape, "details", [tuple(d.shape) for d in ds])
rec = waverec(a, ds)
print("perfect reconstruction error", (rec - noisy).abs().max().item() < 1e-12)
print(
    "energy preserved",
    (noisy**2).sum().item(),
    (a**2).sum().item() + sum((d**2).sum().item() for d in ds),
)
sigma = ds[-1].abs().median() / 0.6745
thr = sigma * math.sqrt(2 * math.log(n))
print(f"noise estimate {sigma.item():.5f} universal threshold {thr.item():.5f}")
for mode in ("soft", "hard"):
    if mode == "soft":
        den = [torch.sign(d) * (d.abs() - thr).clamp_min(0) for d in ds]
    else:
        den = [d * (d.abs() > thr) for d in ds]
    out = waverec(a, den).flatten()
    mse = ((out - clean) ** 2).mean().item()
    kept = sum(int((d != 0).sum()) for d in den)
    base = ((noisy - clean) ** 2).mean().item()
    print(f"{mode}: mse {mse:.6f} (noisy {base:.6f}) kept {kept} coefficients")
print("level energies", torch.tensor([(d**2).sum().item() for d in ds], dtype=dt))

img = torch.zeros(1, 1, 16, 16, dtype=dt)
img[..., 4:12, 4:12] = 1.0
img[..., 6:10, 6:10] = 2.0
k2 = torch.stack(
    [torch.outer(p.flatten(), q.flatten()) for p in (lo, hi) for q in (lo, hi)]
).unsqueeze(1)
bands = F.conv2d(img, k2, stride=2)
print("bands", bands.shape, "band energies", (bands**2).sum((0, 2, 3)))
back = F.conv_transpose2d(bands, k2, stride=2)
print("2-D reconstruction exact:", torch.allclose(back, img))
print(bands[0, 3])
