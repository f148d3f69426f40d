# Models: pitch estimation of synthetic voiced frames: framing with unfold, Hann windows,
# autocorrelation and the YIN cumulative-mean-normalised difference function with parabolic
# interpolation, compared with a harmonic-product-spectrum estimate.
import math

import torch

sr = 8000
torch.manual_seed(0)
t = torch.arange(4096, dtype=torch.float64) / sr
f0s = [110.0, 196.0, 261.63, 440.0]
signals = []
for f0 in f0s:
    s = sum((0.8**k) * torch.sin(2 * math.pi * f0 * (k + 1) * t + 0.3 * k) for k in range(5))
    signals.append(s + 0.05 * torch.randn_like(s))
sig = torch.stack(signals)
frame, hop = 1024, 512
frames = sig.unfold(-1, frame, hop)
print("frames", frames.shape)
win = torch.hann_window(frame, periodic=False, dtype=torch.float64)


def autocorr_pitch(fr):
    fr = fr - fr.mean(-1, keepdim=True)
    spec = torch.fft.rfft(fr * win, n=2 * frame)
    ac = torch.fft.irfft(spec.abs() ** 2, n=2 * frame)[..., :frame]
    lo, hi = sr // 500, sr // 60
    lag = ac[..., lo:hi].argmax(-1) + lo
    return sr / lag.double(), ac


def yin(fr, threshold=0.1):
    W = frame // 2
    taus = torch.arange(1, W)
    d = torch.stack(
        [((fr[..., :W] - fr[..., tau : tau + W]) ** 2).sum(-1) for tau in taus.tolist()], -1
    )
    cmnd = d * taus / torch.cumsum(d, -1).clamp_min(1e-12)
    below = cmnd < threshold
    first = torch.where(below.any(-1), below.float().argmax(-1), cmnd.argmin(-1))
    tau = first.clone()
    while True:
        nxt = (tau + 1).clamp(max=W - 2)
        better = cmnd.gather(-1, nxt[..., None]).squeeze(-1) < cmnd.gather(
            -1, tau[..., None]
        ).squeeze(-1)
        if not better.any():
            break
        tau = torch.where(better, nxt, tau)
    s0 = cmnd.gather(-1, (tau - 1).clamp(min=0)[..., None]).squeeze(-1)
    s1 = cmnd.gather(-1, tau[..., None]).squeeze(-1)
    s2 = cmnd.gather(-1, (tau + 1).clamp(max=W - 2)[..., None]).squeeze(-1)
    denom = s0 - 2 * s1 + s2
    shift = torch.where(denom.abs() > 1e-12, (s0 - s2) / (2 * denom), torch.zeros_like(denom))
    return sr / (tau + 1 + shift), cmnd


def hps(fr, n_harm=4):
    spec = torch.fft.rfft(fr * win, n=4 * frame).abs()
    prod = spec.clone()
    for h in range(2, n_harm + 1):
        dec = spec[..., ::h]
        prod = prod[..., : dec.shape[-1]] * dec
    lo = int(60 * 4 * frame / sr)
    k = prod[..., lo:].argmax(-1) + lo
    return k.double() * sr / (4 * frame)


ac_f0, ac = autocorr_pitch(frames)
yin_f0, cmnd = yin(frames)
hps_f0 = hps(frames)
torch.set_printoptions(precision=2, sci_mode=False)
for i, f0 in enumerate(f0s):
    print(f"true {f0:7.2f}  autocorr {ac_f0[i]}  yin {yin_f0[i]}  hps {hps_f0[i]}")
cents = 1200 * torch.log2(yin_f0 / torch.tensor(f0s, dtype=torch.float64)[:, None])
print("yin error (cents) max", cents.abs().max().item() < 20)
print("cmnd minima", cmnd.amin(-1))
