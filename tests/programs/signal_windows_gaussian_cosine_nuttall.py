# Models: a DSP notebook comparing window functions from torch.signal.windows: gaussian,
# exponential, cosine, nuttall, general_cosine, general_hamming, hann, hamming, blackman,
# bartlett and kaiser, symmetric vs periodic, their sums (coherent gain) and the main-lobe
# check via an FFT of each window.
import torch
import torch.signal.windows as W

n = 9
wins = {
    "gaussian std=2": W.gaussian(n, std=2.0),
    "exponential tau=3": W.exponential(n, tau=3.0),
    "cosine": W.cosine(n),
    "nuttall": W.nuttall(n),
    "general_cosine": W.general_cosine(n, a=[0.5, 0.5]),
    "general_hamming 0.6": W.general_hamming(n, alpha=0.6),
    "hann": W.hann(n), "hamming": W.hamming(n), "blackman": W.blackman(n),
    "bartlett": W.bartlett(n), "kaiser beta=5": W.kaiser(n, beta=5.0),
}
for name, w in wins.items():
    print(f"{name:20s}", w)
    print(f"{'':20s} gain {w.sum().item():.6f}")
print("periodic hann", W.hann(8, sym=False))
print("torch.hann_window periodic", torch.hann_window(8))
print("float64", W.gaussian(5, std=1.0, dtype=torch.float64))
spec = torch.fft.rfft(W.hann(64), n=256).abs()
print("hann spectrum first bins", spec[:6] / spec[0])
try:
    W.gaussian(5, std=-1.0)
except ValueError as e:
    print("ValueError:", e)
try:
    W.kaiser(-1)
except ValueError as e:
    print("ValueError:", e)
