# Models: a signals course exercise: roots of unity with torch.polar, the DFT matrix built
# from complex exponentials, checking it against torch.fft.fft, Parseval's identity, magnitude
# and phase printing, conj/real/imag views and complex matmul.
import math

import torch

n = 8
k = torch.arange(n, dtype=torch.float64)
roots = torch.polar(torch.ones(n, dtype=torch.float64), 2 * math.pi * k / n)
print(roots)
print("sum of roots", roots.sum())
print("product", roots.prod())
W = torch.exp(-2j * math.pi * torch.outer(k, k) / n)
print(W.dtype, W.shape)
torch.manual_seed(0)
x = torch.randn(n, dtype=torch.float64)
X1 = W @ x.to(torch.complex128)
X2 = torch.fft.fft(x)
print("max |diff|", (X1 - X2).abs().max().item() < 1e-12)
print("X2", X2)
print("abs", X2.abs())
print("angle", X2.angle())
print("parseval", (x ** 2).sum().item(), ((X2.abs() ** 2).sum() / n).item())
print("inverse", torch.fft.ifft(X2).real)
z = torch.tensor([1 + 2j, -3 + 0.5j, 0 - 1j], dtype=torch.complex64)
print(z, z.conj(), z.real, z.imag, sep="\n")
print("is_conj", z.conj().is_conj(), z.conj().resolve_conj().is_conj())
print(torch.view_as_real(z))
M = torch.tensor([[1 + 1j, 2], [0, 1 - 1j]], dtype=torch.complex64)
print(M @ M.mH)
print("det", torch.linalg.det(M))
print("eigvals", torch.linalg.eigvals(M))
print("sgn", z.sgn())
print("polar roundtrip", torch.polar(z.abs(), z.angle()))
try:
    print(z < z)
except RuntimeError as e:
    print("RuntimeError:", e)
