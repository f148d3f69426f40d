# Models: audio notebooks that reconstruct a waveform from a magnitude spectrogram: a
# hand-built mel filterbank (HTK mel scale, triangular filters), log-mel features, pseudo-
# inverse mel to linear with lstsq/pinv, and Griffin-Lim phase recovery (stft/istft with a
# Hann window, center=True reflect padding, momentum "fast Griffin-Lim"), with spectral
# convergence printed per iteration.
import math

import torch

torch.manual_seed(100)
sr, n_fft, hop, n_mels = 4000, 128, 32, 16
t = torch.arange(sr // 4) / sr
wave = (0.6 * torch.sin(2 * math.pi * 440 * t) + 0.3 * torch.sin(2 * math.pi * 880 * t + 0.5)
        + 0.2 * torch.sin(2 * math.pi * (200 + 600 * t) * t)) * torch.hann_window(len(t))
window = torch.hann_window(n_fft)
spec = torch.stft(wave, n_fft, hop, window=window, center=True, pad_mode="reflect",
                  return_complex=True)
mag = spec.abs()
print(spec.shape, mag.max(), mag.sum())


def hz_to_mel(f):
    return 2595.0 * torch.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


freqs = torch.linspace(0, sr / 2, n_fft // 2 + 1)
mel_pts = torch.linspace(hz_to_mel(torch.tensor(0.0)), hz_to_mel(torch.tensor(sr / 2.0)),
                         n_mels + 2)
hz_pts = mel_to_hz(mel_pts)
fb = torch.zeros(n_mels, len(freqs))
for m in range(n_mels):
    lo, c, hi = hz_pts[m], hz_pts[m + 1], hz_pts[m + 2]
    up = (freqs - lo) / (c - lo)
    down = (hi - freqs) / (hi - c)
    fb[m] = torch.clamp(torch.minimum(up, down), min=0)
print("filterbank", fb.shape, fb.sum(1)[:5], hz_pts[:4])
mel = fb @ mag ** 2
logmel = 10 * torch.log10(mel.clamp(min=1e-10))
print("log-mel", logmel.shape, logmel.max(), logmel.mean())
inv = torch.linalg.pinv(fb)
lin_power = (inv @ mel).clamp(min=0)
sol = torch.linalg.lstsq(fb, mel).solution
print("pinv err", ((lin_power - mag ** 2).norm() / (mag ** 2).norm()).item() < 1.0,
      sol.shape)


def griffin_lim(mag, n_iter=24, momentum=0.99, gen=None):
    angles = torch.exp(2j * math.pi * torch.rand(mag.shape, generator=gen))
    prev = torch.zeros_like(angles)
    for i in range(n_iter):
        inverse = torch.istft(mag * angles, n_fft, hop, window=window, length=len(wave))
        rebuilt = torch.stft(inverse, n_fft, hop, window=window, return_complex=True)
        angles = rebuilt - (momentum / (1 + momentum)) * prev
        prev = rebuilt
        angles = angles / (angles.abs() + 1e-16)
        if i % 6 == 5:
            sc = (rebuilt.abs() - mag).norm() / mag.norm()
            print(f"  iter {i + 1} spectral convergence {sc.item():.5f}")
    return torch.istft(mag * angles, n_fft, hop, window=window, length=len(wave))


rec = griffin_lim(mag, gen=torch.Generator().manual_seed(0))
print("reconstruction", rec.shape, rec.abs().max())
resp = torch.stft(rec, n_fft, hop, window=window, return_complex=True).abs()
print("final magnitude error", ((resp - mag).norm() / mag.norm()).item() < 0.5)
exact = torch.istft(spec, n_fft, hop, window=window, length=len(wave))
print("exact inverse max err", (exact - wave).abs().max().item() < 1e-5)
print(torch.stft(wave[:256], 64, 16, window=torch.hann_window(64), center=False,
                 return_complex=True).abs()[:3, :3])
print(torch.stft(wave[:256], 64, 16, return_complex=True, onesided=False).shape,
      torch.stft(wave[:256], 64, 16, window=torch.hamming_window(64), normalized=True,
                 return_complex=True).abs().sum())
