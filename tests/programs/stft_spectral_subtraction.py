# Models: classic speech-enhancement code: torch.stft with a Hann window, a noise magnitude
# estimate from leading noise-only frames, spectral subtraction with an over-subtraction
# factor and spectral floor, the Wiener-gain variant, reconstruction with torch.istft
# (checked to invert the STFT exactly without modification), and SNR / segmental SNR
# before and after, on a synthetic chirp-plus-tones signal with white noise.
import math

import torch

torch.manual_seed(0)
SR, N_FFT, HOP = 8000, 256, 64
t = torch.arange(0, 1.0, 1 / SR)
clean = 0.5 * torch.sin(2 * math.pi * (300 + 400 * t) * t) + 0.3 * torch.sin(2 * math.pi * 1200 * t)
clean[: SR // 8] = 0                              # leading silence
g = torch.Generator().manual_seed(1)
noisy = clean + 0.2 * torch.randn(clean.shape, generator=g)
window = torch.hann_window(N_FFT)


def snr(ref, est):
    return 10 * torch.log10(ref.pow(2).sum() / (ref - est).pow(2).sum())


def seg_snr(ref, est, frame=256):
    r = ref[: len(ref) // frame * frame].view(-1, frame)
    e = est[: len(ref) // frame * frame].view(-1, frame)
    s = 10 * torch.log10(r.pow(2).sum(1) / (r - e).pow(2).sum(1).clamp(min=1e-10) + 1e-10)
    return s.clamp(-10, 35).mean()


spec = torch.stft(noisy, N_FFT, HOP, window=window, return_complex=True)
print("spectrogram shape:", tuple(spec.shape), spec.dtype)
recon = torch.istft(spec, N_FFT, HOP, window=window, length=len(noisy))
print("istft inverts stft:", torch.allclose(recon, noisy, atol=1e-5))
mag, phase = spec.abs(), spec.angle()
noise_frames = int((SR // 8 - N_FFT) / HOP)
noise_mag = mag[:, :noise_frames].mean(1, keepdim=True)
print("noise frames:", noise_frames, "noise floor mean:", f"{noise_mag.mean().item():.5f}")

results = {}
for alpha, beta in ((1.0, 0.01), (2.0, 0.01), (4.0, 0.02)):
    sub = mag - alpha * noise_mag
    enhanced_mag = torch.maximum(sub, beta * mag)
    est = torch.istft(torch.polar(enhanced_mag, phase), N_FFT, HOP, window=window,
                      length=len(noisy))
    results[alpha] = est
    print(f"subtraction alpha {alpha}: SNR {snr(clean, est).item():.4f} dB "
          f"segSNR {seg_snr(clean, est).item():.4f} dB")

power, noise_pow = mag.pow(2), noise_mag.pow(2)
prior = (power / noise_pow - 1).clamp(min=1e-3)
gain = prior / (1 + prior)
wiener = torch.istft(spec * gain, N_FFT, HOP, window=window, length=len(noisy))
for name, est in (("noisy", noisy), ("wiener", wiener)):
    print(f"{name}: SNR {snr(clean, est).item():.4f} dB segSNR {seg_snr(clean, est).item():.4f} dB")
print("mean gain per band (every 32nd bin):", gain.mean(1)[::32])
peak_bins = mag[:, -10:].mean(1).topk(3).indices.sort().values
print("peak frequencies at the end (Hz):", (peak_bins.float() * SR / N_FFT).tolist())
