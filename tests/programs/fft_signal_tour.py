# Models: a signal processing lab with torch.fft: spectrum of a two-tone signal, rfft/irfft round
# trips with odd and even lengths, norm modes, fftfreq/rfftfreq, fftshift, fft2/ifft2 on an image,
# hfft/ihfft, zero-padding with n=, convolution by FFT, and a short-time Fourier transform with a
# Hann window and its inverse.
import math

import torch

torch.manual_seed(6)
fs = 64
t = torch.arange(fs) / fs
sig = torch.sin(2 * math.pi * 5 * t) + 0.5 * torch.cos(2 * math.pi * 12 * t)
spec = torch.fft.rfft(sig)
mag = spec.abs() / (fs / 2)
top = torch.topk(mag, 2)
print(
    "peaks at Hz",
    torch.fft.rfftfreq(fs, 1 / fs)[top.indices].tolist(),
    "amplitudes",
    top.values.round(decimals=4).tolist(),
)
print("rfft shape", spec.shape, spec.dtype, "fft shape", torch.fft.fft(sig).shape)
for n in [7, 8]:
    x = torch.randn(n)
    back = torch.fft.irfft(torch.fft.rfft(x), n=n)
    print(
        f"irfft round trip n={n}",
        torch.allclose(back, x, atol=1e-6),
        "without n:",
        torch.fft.irfft(torch.fft.rfft(x)).shape,
    )
x = torch.randn(8, dtype=torch.float64)
for norm in ["backward", "ortho", "forward"]:
    X = torch.fft.fft(x, norm=norm)
    print(
        norm,
        "energy ratio",
        round((X.abs() ** 2).sum().item() / (x**2).sum().item(), 6),
        torch.allclose(torch.fft.ifft(X, norm=norm).real, x),
    )
print("fftfreq", torch.fft.fftfreq(8), torch.fft.fftfreq(5, d=0.5))
print(
    "fftshift",
    torch.fft.fftshift(torch.fft.fftfreq(8)),
    torch.fft.ifftshift(torch.fft.fftshift(torch.arange(7))),
)
img = torch.zeros(8, 8)
img[2:6, 3:5] = 1.0
F2 = torch.fft.fft2(img)
print(
    "fft2 dc",
    F2[0, 0],
    "ifft2 round trip",
    torch.allclose(torch.fft.ifft2(F2).real, img, atol=1e-6),
)
print("centered magnitude row\n", torch.fft.fftshift(F2).abs()[4].round(decimals=3))
print("rfft2 shape", torch.fft.rfft2(img).shape, "rfftn", torch.fft.rfftn(img, s=(4, 4)).shape)
print("fftn dims", torch.fft.fftn(torch.randn(2, 4, 6), dim=(1, 2)).shape)
h = torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0], dtype=torch.complex64))
print("hfft", h, "ihfft", torch.fft.ihfft(torch.tensor([1.0, 2.0, 3.0, 4.0])))
print("zero padded n=16", torch.fft.fft(torch.ones(4), n=16).abs()[:5])
print("truncated n=2", torch.fft.fft(torch.arange(4.0), n=2))
a = torch.tensor([1.0, 2.0, 3.0])
k = torch.tensor([0.0, 1.0, 0.5])
n = a.numel() + k.numel() - 1
conv = torch.fft.irfft(torch.fft.rfft(a, n=n) * torch.fft.rfft(k, n=n), n=n)
print(
    "fft convolution",
    conv.round(decimals=5),
    "direct",
    torch.nn.functional.conv1d(a.view(1, 1, -1), k.flip(0).view(1, 1, -1), padding=2).flatten(),
)
noisy = torch.sin(2 * math.pi * 4 * torch.arange(128) / 32) + 0.1 * torch.randn(128)
win = torch.hann_window(32)
S = torch.stft(noisy, n_fft=32, hop_length=8, window=win, return_complex=True)
print("stft", S.shape, S.dtype, "dominant bin per frame", S.abs().argmax(0)[:6].tolist())
rec = torch.istft(S, n_fft=32, hop_length=8, window=win, length=128)
print("istft error", (rec - noisy).abs().max().item() < 1e-5)
S2 = torch.stft(
    noisy, n_fft=32, hop_length=16, window=win, center=False, onesided=False, return_complex=True
)
print("stft center=False two-sided", S2.shape)
print(
    "stft normalized",
    torch.stft(noisy[:64], 16, window=torch.hann_window(16), normalized=True, return_complex=True)
    .abs()
    .sum()
    .round(decimals=3),
)
z = torch.randn(6, requires_grad=True)
torch.fft.rfft(z).abs().sum().backward()
print("grad through rfft", z.grad.round(decimals=4))
try:
    torch.stft(noisy, 32)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])
try:
    torch.fft.fft(torch.randn(4), dim=1)
except IndexError as e:
    print("IndexError:", e)
