# Models: DSP code in the scipy.signal style written with torch: windowed-sinc FIR low-pass
# and band-pass design with torch.signal.windows (hamming, blackman, kaiser, gaussian) and
# torch's window functions, frequency responses through torch.fft.rfft in dB, stopband
# attenuation and passband ripple measurements, zero-phase filtering by forward-backward
# conv1d, polyphase-free decimation, and the filtered signal's spectrum peaks.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
FS, NTAPS = 1000.0, 63


def sinc_lowpass(cutoff, window):
    n = torch.arange(NTAPS, dtype=torch.float64) - (NTAPS - 1) / 2
    h = 2 * cutoff / FS * torch.sinc(2 * cutoff / FS * n)
    h = h * window.to(torch.float64)
    return h / h.sum()


windows = {
    "rect": torch.ones(NTAPS),
    "hamming": torch.signal.windows.hamming(NTAPS),
    "blackman": torch.signal.windows.blackman(NTAPS),
    "kaiser8": torch.signal.windows.kaiser(NTAPS, beta=8.0),
    "gauss": torch.signal.windows.gaussian(NTAPS, std=12.0),
    "hann(periodic=False)": torch.hann_window(NTAPS, periodic=False),
}
print("kaiser matches torch.kaiser_window:",
      torch.allclose(windows["kaiser8"], torch.kaiser_window(NTAPS, periodic=False, beta=8.0),
                     atol=1e-6))
freqs = torch.fft.rfftfreq(4096, d=1 / FS)
for name, w in windows.items():
    h = sinc_lowpass(100.0, w)
    H = torch.fft.rfft(h, n=4096).abs()
    db = 20 * torch.log10(H.clamp(min=1e-12))
    ripple = (db[freqs <= 70].max() - db[freqs <= 70].min()).item()
    stop = db[freqs >= 160].max().item()
    print(f"{name:22s} passband ripple {ripple:.5f} dB  stopband peak {stop:.3f} dB")

t = torch.arange(0, 1.0, 1 / FS, dtype=torch.float64)
sig = torch.sin(2 * math.pi * 30 * t) + 0.5 * torch.sin(2 * math.pi * 220 * t) \
    + 0.2 * torch.randn(t.shape, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
h = sinc_lowpass(100.0, windows["kaiser8"])


def filtfilt(x, h):
    k = h.flip(0)[None, None]
    pad = len(h) // 2
    y = F.conv1d(F.pad(x[None, None], (pad, pad), mode="reflect"), k)[0, 0]
    y = F.conv1d(F.pad(y.flip(0)[None, None], (pad, pad), mode="reflect"), k)[0, 0]
    return y.flip(0)


y = filtfilt(sig, h)
spec_in = torch.fft.rfft(sig).abs()
spec_out = torch.fft.rfft(y).abs()
f1 = torch.fft.rfftfreq(len(sig), 1 / FS)
for f0 in (30, 220):
    i = int((f1 - f0).abs().argmin())
    print(f"{f0} Hz: in {spec_in[i].item():.3f} out {spec_out[i].item():.3f}")
print("phase preserved (corr with clean 30 Hz):",
      f"{torch.corrcoef(torch.stack([y, torch.sin(2 * math.pi * 30 * t)]))[0, 1].item():.6f}")
dec = y[::4]
print("decimated length", len(dec), "peak bin",
      torch.fft.rfft(dec).abs()[1:].argmax().item() + 1)

# band-pass = low-pass(250) - low-pass(150), Blackman windowed
bp = sinc_lowpass(250.0, windows["blackman"]) - sinc_lowpass(150.0, windows["blackman"])
Hb = torch.fft.rfft(bp, n=4096).abs()
print("band-pass gain at 50/200/400 Hz:",
      [round(Hb[int((freqs - f).abs().argmin())].item(), 5) for f in (50, 200, 400)])
print("taps (centre 5):", bp[NTAPS // 2 - 2:NTAPS // 2 + 3])
