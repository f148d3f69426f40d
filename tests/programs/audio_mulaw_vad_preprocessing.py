# Models: a speech-preprocessing notebook without torchaudio: a synthetic utterance (voiced
# harmonics, silence, noise), pre-emphasis, framing with unfold and a Hann window, short-time
# energy and zero-crossing-rate voice-activity detection with hangover smoothing (max_pool1d),
# mu-law companding to 8-bit codes and back with its SNR against linear 8-bit quantisation,
# and resampling 16 kHz -> 8 kHz by low-pass FIR (conv1d) plus decimation vs interpolate.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(9)
sr = 16000
t = torch.arange(int(0.6 * sr)) / sr
voiced = sum(0.3 / k * torch.sin(2 * math.pi * 140 * k * t) for k in range(1, 6))
env = torch.zeros_like(t)
env[int(0.1 * sr):int(0.3 * sr)] = 1.0
env[int(0.4 * sr):int(0.55 * sr)] = 0.7
x = voiced * env + 0.01 * torch.randn_like(t)
x[int(0.32 * sr):int(0.36 * sr)] += 0.2 * torch.randn(int(0.04 * sr))   # a fricative burst
print(f"samples {len(x)} peak {x.abs().max().item():.4f} rms {x.pow(2).mean().sqrt().item():.4f}")

emph = torch.cat([x[:1], x[1:] - 0.97 * x[:-1]])
frame, hop = 400, 160
frames = emph.unfold(0, frame, hop) * torch.hann_window(frame, periodic=False)
print("frames", tuple(frames.shape))
energy_db = 10 * torch.log10(frames.pow(2).mean(1) + 1e-10)
signs = torch.sign(x.unfold(0, frame, hop))
zcr = (signs[:, 1:] != signs[:, :-1]).float().mean(1)
print("energy dB range", round(energy_db.min().item(), 2), round(energy_db.max().item(), 2))
print("zcr quartiles", torch.quantile(zcr, torch.tensor([0.25, 0.5, 0.75])))
thr = energy_db.max() - 30
speech = (energy_db > thr) & (zcr < 0.25)
smoothed = F.max_pool1d(speech.float()[None, None], 5, stride=1, padding=2)[0, 0].bool()
print("speech frames raw", int(speech.sum()), "after hangover", int(smoothed.sum()))
edges = smoothed.int().diff().nonzero().flatten()
segments = [(round((e.item() + 1) * hop / sr, 3)) for e in edges]
print("segment boundaries (s)", segments)
fricative = (zcr > 0.25) & (energy_db > thr - 10)
print("high-zcr frames (fricative)", fricative.nonzero().flatten().tolist())


def mulaw_encode(x, mu=255):
    y = torch.sign(x) * torch.log1p(mu * x.abs()) / math.log1p(mu)
    return ((y + 1) / 2 * mu + 0.5).long().clamp(0, mu)


def mulaw_decode(q, mu=255):
    y = 2 * q.float() / mu - 1
    return torch.sign(y) * ((1 + mu) ** y.abs() - 1) / mu


xn = x / x.abs().max()
q = mulaw_encode(xn)
print("mu-law codes", q[int(0.2 * sr):int(0.2 * sr) + 8].tolist(), "dtype", q.dtype)
rec = mulaw_decode(q)
lin = torch.round((xn + 1) / 2 * 255) / 255 * 2 - 1


def snr(ref, est, mask=None):
    if mask is not None:
        ref, est = ref[mask], est[mask]
    return 10 * math.log10(ref.pow(2).sum().item() / (ref - est).pow(2).sum().item())


quiet = (env == 0.7).clone()
print(f"SNR mu-law {snr(xn, rec):.2f} dB, linear {snr(xn, lin):.2f} dB")
print(f"quiet-segment SNR mu-law {snr(xn, rec, quiet):.2f} dB, linear {snr(xn, lin, quiet):.2f} dB")
print("code histogram (8 bins)", torch.histc(q.float(), bins=8, min=0, max=255).long().tolist())

taps = 63
n = torch.arange(taps) - (taps - 1) / 2
h = torch.where(n == 0, torch.tensor(0.5), torch.sin(math.pi * 0.5 * n) / (math.pi * n))
h = h * torch.hamming_window(taps, periodic=False)
h = h / h.sum()
down = F.conv1d(x[None, None], h.flip(0)[None, None], padding=taps // 2)[0, 0, ::2]
naive = x[::2]
interp = F.interpolate(x[None, None], scale_factor=0.5, mode="linear", align_corners=False)[0, 0]
print("downsampled lengths", len(down), len(naive), len(interp))
tone = torch.sin(2 * math.pi * 6000 * t)
alias_naive = tone[::2].pow(2).mean().item()
alias_fir = F.conv1d(tone[None, None], h.flip(0)[None, None], padding=taps // 2)[0, 0, ::2]
print(f"6 kHz tone power after decimation: naive {alias_naive:.4f} "
      f"filtered {alias_fir[taps:-taps].pow(2).mean().item():.6f}")
print("filter gain at DC", h.sum().item(), "at Nyquist",
      (h * (-1) ** torch.arange(taps)).sum().item())
