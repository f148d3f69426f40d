# Models: an audio-classification tutorial in miniature (synthetic tones and chirps, STFT with
# a Hann window into log-magnitude spectrograms, a small CNN classifier, istft round trip,
# window functions and torch.signal.windows).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(12)
sr, n = 800, 800
t = torch.arange(n) / sr


def make(kind):
    f0 = 40 + 200 * torch.rand(1)
    if kind == 0:
        x = torch.sin(2 * math.pi * f0 * t)
    else:
        x = torch.sin(2 * math.pi * (f0 + 100 * t) * t)
    return x + 0.1 * torch.randn(n)


labels = torch.randint(0, 2, (40,))
waves = torch.stack([make(int(k)) for k in labels])
window = torch.hann_window(64)
spec = torch.stft(waves, n_fft=64, hop_length=16, window=window, return_complex=True)
logmag = torch.log1p(spec.abs()).unsqueeze(1)
print(spec.shape, spec.dtype, logmag.mean().item())
print(torch.hamming_window(5), torch.blackman_window(5, periodic=False))
print(torch.signal.windows.gaussian(5, std=1.0), torch.kaiser_window(6, True, 8.0))
rec = torch.istft(spec, n_fft=64, hop_length=16, window=window, length=n)
print("istft max error", (rec - waves).abs().max().item() < 1e-5)
model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((4, 4)),
                      nn.Flatten(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(20):
    out = model(logmag)
    loss = F.cross_entropy(out, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        acc = (out.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.3f}")
w = torch.randn(200, requires_grad=True)
s = torch.stft(w, 32, hop_length=8, window=torch.hann_window(32), return_complex=True)
s.abs().pow(2).sum().backward()
print(w.grad[:5], s.grad_fn is not None)
