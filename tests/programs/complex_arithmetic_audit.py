# Models: a complex-number regression script from a signal-processing codebase: complex64 and
# complex128 elementwise math, reductions, products and FFT round trips on fixed data, each
# printed at full precision.
import torch

torch.manual_seed(0)
for dt in (torch.complex64, torch.complex128):
    z = torch.randn(200, dtype=dt)
    w = torch.randn(200, dtype=dt)
    m = torch.randn(17, 23, dtype=dt)
    res = {
        "mul": (z * w).sum(), "div": (z / (w + 2)).sum(), "exp": torch.exp(z * 0.5).sum(),
        "log": torch.log(z).sum(), "sqrt": torch.sqrt(z).sum(), "pow2": (z ** 2).sum(),
        "pow_frac": (z ** 1.5).sum(), "pow_c": torch.pow(z, 0.5 + 0.25j).sum(),
        "reciprocal": torch.reciprocal(z + 3).sum(), "abs": torch.abs(z).sum(),
        "angle": torch.angle(z).sum(), "sin": torch.sin(z).sum(), "cos": torch.cos(z).sum(),
        "tanh": torch.tanh(z).sum(), "sigmoid": torch.sigmoid(z).sum(),
        "conj_mul": (z.conj() * w).sum(), "sgn": torch.sgn(z).sum(), "mean": z.mean(),
        "cumsum": z.cumsum(0)[-1], "cumprod": (1 + 0.01 * z).cumprod(0)[-1],
        "matmul": (m @ m.mH).sum(), "vdot": torch.vdot(z, w), "dot": torch.dot(z, w),
        "norm": torch.linalg.vector_norm(z).to(dt), "var": z.var().to(dt),
        "fft": torch.fft.fft(z)[7], "ifft_rt": torch.fft.ifft(torch.fft.fft(z))[3],
        "fft2": torch.fft.fft2(m)[2, 5],
        "lerp": torch.lerp(z, w, 0.3).sum(), "square": torch.square(z).sum(),
        "log1p": torch.log1p(z * 0.1).sum(),
        "asin": torch.asin(z * 0.5).sum(), "atanh": torch.atanh(z * 0.5).sum(),
    }
    for k, v in res.items():
        print(f"{str(dt):16s} {k:10s} {v.item()!r}")
