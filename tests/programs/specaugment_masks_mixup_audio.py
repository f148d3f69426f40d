# Models: SpecAugment-style augmentation on log-mel spectrograms written by hand: frequency and
# time masking with widths drawn from a seeded generator, time warping via interpolate, per-
# utterance mean/variance normalisation, and mixup of two batches with a Beta draw.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
g = torch.Generator().manual_seed(3)
B, Fq, T = 2, 10, 24
spec = torch.randn(B, Fq, T, generator=g).abs().add(1e-3).log()


def freq_mask(x, F_=4, n=2):
    x = x.clone()
    for b in range(x.size(0)):
        for _ in range(n):
            f = torch.randint(0, F_ + 1, (1,), generator=g).item()
            f0 = torch.randint(0, x.size(1) - f + 1, (1,), generator=g).item()
            x[b, f0 : f0 + f, :] = x[b].mean()
    return x


def time_mask(x, T_=5, n=2, p=0.3):
    x = x.clone()
    for b in range(x.size(0)):
        for _ in range(n):
            t = min(torch.randint(0, T_ + 1, (1,), generator=g).item(), int(p * x.size(2)))
            t0 = torch.randint(0, x.size(2) - t + 1, (1,), generator=g).item()
            x[b, :, t0 : t0 + t] = 0
    return x


def time_warp(x, W=3):
    center = torch.randint(W, x.size(2) - W, (1,), generator=g).item()
    warped = torch.randint(center - W, center + W, (1,), generator=g).item() + 1
    left = F.interpolate(
        x[:, None, :, :center], size=(x.size(1), warped), mode="bicubic", align_corners=False
    )
    right = F.interpolate(
        x[:, None, :, center:],
        size=(x.size(1), x.size(2) - warped),
        mode="bicubic",
        align_corners=False,
    )
    return torch.cat([left, right], -1)[:, 0], center, warped


norm = (spec - spec.mean(-1, keepdim=True)) / (spec.std(-1, keepdim=True) + 1e-5)
a = freq_mask(norm)
print((a == a[0].mean()).sum().item(), a.shape)
b = time_mask(a)
print((b == 0).all(1).sum(1))
w, c, wp = time_warp(b)
print(w.shape, c, wp, w[0, 0, :5])
lam = torch.distributions.Beta(torch.tensor(0.4), torch.tensor(0.4)).sample()
perm = torch.randperm(B, generator=g)
mixed = lam * w + (1 - lam) * w[perm]
print(perm, mixed.shape, mixed.mean().item())
