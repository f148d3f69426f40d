# Models: signal-processing notebook cells: polynomial and big-integer multiplication with
# rfft/irfft, circular vs linear convolution, fftfreq/fftshift spectra, a Gaussian blur in the
# frequency domain with rfft2, hfft/ihfft, STFT/ISTFT round trip with a Hann window, and
# gradients flowing through complex intermediates.
import math

import torch

torch.set_printoptions(precision=5)
p = torch.tensor([1.0, 2.0, 3.0])
q = torch.tensor([4.0, 0.0, -1.0, 2.0])
n = len(p) + len(q) - 1
prod = torch.fft.irfft(torch.fft.rfft(p, n) * torch.fft.rfft(q, n), n)
print(prod, prod.round())
print(torch.tensor([1.0, 2, 3, 0, 0, 0]).new_tensor(
    [sum(p[i] * q[k - i] for i in range(len(p)) if 0 <= k - i < len(q)) for k in range(n)]))
digits_a = torch.tensor([3.0, 2, 1, 9])  # 9123 little-endian
digits_b = torch.tensor([8.0, 7, 6])     # 678
m = 8
c = torch.fft.irfft(torch.fft.rfft(digits_a, m) * torch.fft.rfft(digits_b, m), m).round().long()
carry, out = 0, []
for d in c.tolist():
    carry, r = divmod(d + carry, 10)
    out.append(r)
print(c, int("".join(map(str, reversed(out)))), 9123 * 678)
x = torch.cos(2 * math.pi * 3 * torch.arange(16) / 16) + 0.5 * torch.sin(2 * math.pi * 5
                                                                       * torch.arange(16) / 16)
X = torch.fft.fft(x)
print(X.dtype, X.abs())
print(torch.fft.fftfreq(16), torch.fft.rfftfreq(16, d=0.5))
print(torch.fft.fftshift(X.abs()), torch.fft.ifftshift(torch.fft.fftshift(torch.arange(7))))
print(torch.view_as_real(torch.fft.rfft(x))[:4])
print(X.angle()[:6], X.real[:3], X.imag[:3])
img = torch.zeros(8, 8)
img[2:6, 3:5] = 1.0
fy = torch.fft.fftfreq(8)[:, None]
fx = torch.fft.rfftfreq(8)[None, :]
gauss = torch.exp(-(fx ** 2 + fy ** 2) * 2 * (math.pi * 1.0) ** 2)
blurred = torch.fft.irfft2(torch.fft.rfft2(img) * gauss, s=img.shape)
print(blurred, blurred.sum())
sig = torch.tensor([1.0, 2.0, 1.0, -1.0, 1.5])
h = torch.fft.ihfft(sig)
print(h, torch.fft.hfft(h, 5))
print(torch.fft.fft(torch.eye(4), dim=0).real, torch.fft.fft(torch.ones(4), norm="ortho"))
t = torch.arange(256) / 64.0
chirp = torch.sin(2 * math.pi * (2 + 6 * t) * t)
win = torch.hann_window(32)
S = torch.stft(chirp, n_fft=32, hop_length=8, window=win, return_complex=True)
print(S.shape, S.dtype, S.abs().max(), S.abs().argmax(0)[:10])
back = torch.istft(S, n_fft=32, hop_length=8, window=win, length=chirp.numel())
print("istft max error", (back - chirp).abs().max() < 1e-5)
w = torch.randn(16, generator=torch.Generator().manual_seed(2), requires_grad=True)
spec = torch.fft.rfft(w)
power = (spec.real ** 2 + spec.imag ** 2)
loss = power[1:4].sum() - power[5:].sum() * 0.1
loss.backward()
print(loss, w.grad)
z = torch.randn(4, dtype=torch.cfloat, generator=torch.Generator().manual_seed(5),
                requires_grad=True)
(z * z.conj()).real.sum().backward()
print(z, z.grad)
zz = torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, math.pi / 2]))
print(zz, zz.abs(), torch.view_as_complex(torch.tensor([[1.0, -1.0], [0.5, 2.0]])))
print(torch.fft.fft2(torch.arange(6.0).reshape(2, 3)))
print(torch.fft.fftn(torch.ones(2, 2, 2), dim=(0, 2)).shape)
