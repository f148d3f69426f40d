# Models: a signal-processing notebook (a noisy sum of sines, rfft/irfft low-pass filtering,
# fftfreq/fftshift, complex tensors: abs/angle/polar/view_as_real, a learnable complex filter
# trained by gradient descent in the frequency domain).
import math

import torch

torch.manual_seed(0)
n, fs = 128, 64.0
t = torch.arange(n) / fs
clean = torch.sin(2 * math.pi * 3 * t) + 0.5 * torch.sin(2 * math.pi * 7 * t)
noisy = clean + 0.4 * torch.randn(n)
spec = torch.fft.rfft(noisy)
freqs = torch.fft.rfftfreq(n, d=1 / fs)
print(spec.dtype, spec.shape, freqs[:6])
mag = spec.abs()
print("peaks at", freqs[mag.topk(2).indices].tolist())
mask = (freqs <= 10).to(spec.dtype)
filtered = torch.fft.irfft(spec * mask, n=n)
print("mse noisy", torch.mean((noisy - clean) ** 2).item(), "filtered",
      torch.mean((filtered - clean) ** 2).item())
full = torch.fft.fft(noisy)
print(torch.fft.fftshift(torch.fft.fftfreq(8)), full[:3])
z = torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, math.pi / 4]))
print(z, z.angle(), torch.view_as_real(z), z.conj(), z * 1j)
w = torch.zeros(spec.shape[0], dtype=torch.cfloat, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.05)
for it in range(60):
    est = torch.fft.irfft(spec * w, n=n)
    loss = torch.mean((est - clean) ** 2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 15 == 0:
        print(f"iter {it} loss {loss.item():.6f}")
print(w.detach().abs()[:8])
x2 = torch.randn(4, 6)
print(torch.allclose(torch.fft.ifft2(torch.fft.fft2(x2)).real, x2, atol=1e-6))
print(torch.fft.hfft(torch.fft.ihfft(x2[0])))
