# Models: a speech-features tutorial written without torchaudio (the "MFCC from scratch"
# notebooks): pre-emphasis, framing with unfold, a Hamming window, the power spectrum by
# rfft, a triangular mel filterbank built from the HTK mel formula, log mel energies, an
# orthonormal DCT-II matrix for the cepstra, liftering, delta features by a regression
# filter with conv1d and replicate padding, and cepstral mean-variance normalisation.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
sr = 8000
t = torch.arange(0, 0.5, 1 / sr)
signal = 0.6 * torch.sin(2 * math.pi * 440 * t) * torch.exp(-3 * t) + 0.3 * torch.sin(
    2 * math.pi * (300 + 900 * t) * t
)
signal = signal + 0.02 * torch.randn_like(signal)
print("signal", signal.shape, signal.abs().max().item())

emph = torch.cat([signal[:1], signal[1:] - 0.97 * signal[:-1]])
frame_len, hop, n_fft = 200, 80, 256
frames = emph.unfold(0, frame_len, hop)
print("frames", frames.shape)
window = torch.hamming_window(frame_len, periodic=False)
frames = frames * window
spec = torch.fft.rfft(frames, n=n_fft)
power = spec.abs() ** 2 / n_fft
print("power spectrum", power.shape, power.dtype, power.mean().item())


def hz_to_mel(f):
    return 2595.0 * torch.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


n_mels = 20
mel_pts = torch.linspace(
    hz_to_mel(torch.tensor(0.0)).item(), hz_to_mel(torch.tensor(sr / 2)).item(), n_mels + 2
)
bins = torch.floor((n_fft + 1) * mel_to_hz(mel_pts) / sr).long()
print("filter edges", bins)
fbank = torch.zeros(n_mels, n_fft // 2 + 1)
k = torch.arange(n_fft // 2 + 1)
for m in range(1, n_mels + 1):
    left, centre, right = bins[m - 1], bins[m], bins[m + 1]
    up = (k - left).float() / (centre - left).clamp(min=1)
    down = (right - k).float() / (right - centre).clamp(min=1)
    fbank[m - 1] = torch.clamp(torch.minimum(up, down), min=0)
print("filterbank", fbank.shape, fbank.sum(1)[:6])
mel_energy = power @ fbank.T
log_mel = torch.log(mel_energy.clamp(min=torch.finfo(torch.float32).eps))
print("log mel", log_mel.shape, log_mel[0, :5])

n_mfcc = 13
n = torch.arange(n_mels, dtype=torch.float32)
kk = torch.arange(n_mfcc, dtype=torch.float32)[:, None]
dct = torch.cos(math.pi / n_mels * (n + 0.5) * kk) * math.sqrt(2.0 / n_mels)
dct[0] /= math.sqrt(2.0)
print("dct orthonormal rows", torch.allclose(dct @ dct.T, torch.eye(n_mfcc), atol=1e-5))
mfcc = log_mel @ dct.T
lifter = 1 + 11 * torch.sin(math.pi * torch.arange(n_mfcc) / 22)
mfcc = mfcc * lifter
print("mfcc", mfcc.shape, mfcc[0, :6])


def deltas(feat, N=2):
    x = feat.T[None]
    kernel = torch.arange(-N, N + 1, dtype=torch.float32).flip(0) / (
        2 * sum(i * i for i in range(1, N + 1))
    )
    padded = F.pad(x, (N, N), mode="replicate")
    w = kernel.repeat(x.shape[1], 1, 1)
    return F.conv1d(padded, w, groups=x.shape[1])[0].T


d1 = deltas(mfcc)
d2 = deltas(d1)
feats = torch.cat([mfcc, d1, d2], dim=1)
print("features with deltas", feats.shape, d1[5, :4], d2[5, :4])
cmvn = (feats - feats.mean(0)) / feats.std(0).clamp(min=1e-8)
print("cmvn mean", cmvn.mean(0).abs().max().item() < 1e-5, "std", cmvn.std(0)[:4])
energy = power.sum(1).log()
voiced = energy > energy.median()
print("voiced frames", int(voiced.sum()), "of", len(energy))
