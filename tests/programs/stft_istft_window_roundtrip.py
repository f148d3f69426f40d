# Models: an audio tutorial's STFT section: torch.stft with a Hann window and return_complex,
# center padding modes, magnitude/phase, onesided vs two-sided shapes, istft reconstruction
# with length, and the window functions (hann, hamming, blackman, bartlett, kaiser) printed.
import math

import torch

sr = 800
t = torch.arange(0, 0.4, 1 / sr, dtype=torch.float64)
sig = torch.sin(2 * math.pi * 50 * t) + 0.5 * torch.sin(2 * math.pi * 120 * t)
n_fft, hop = 64, 16
win = torch.hann_window(n_fft, dtype=torch.float64)
S = torch.stft(sig, n_fft, hop_length=hop, window=win, return_complex=True)
print("stft", S.shape, S.dtype)
mag = S.abs()
peak_bins = mag.mean(1).topk(2).indices.sort().values
print("peak bins", peak_bins.tolist(), "freqs", (peak_bins * sr / n_fft).tolist())
rec = torch.istft(S, n_fft, hop_length=hop, window=win, length=len(sig))
print("istft error", (rec - sig).abs().max().item() < 1e-10)
S2 = torch.stft(sig, n_fft, hop_length=hop, window=win, return_complex=True, onesided=False)
print("two-sided", S2.shape)
S3 = torch.stft(sig, n_fft, hop_length=hop, window=win, return_complex=True, center=False)
print("no center", S3.shape)
S4 = torch.stft(sig, n_fft, hop_length=hop, window=win, return_complex=True,
                pad_mode="constant", normalized=True)
print("normalized constant pad", S4[:2, 0])
print("phase", S[5, :3].angle())
print("hann", torch.hann_window(5), torch.hann_window(5, periodic=False))
print("hamming", torch.hamming_window(5))
print("blackman", torch.blackman_window(5))
print("bartlett", torch.bartlett_window(5))
print("kaiser", torch.kaiser_window(5, False, 8.0))
try:
    torch.stft(sig, n_fft)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:140])
