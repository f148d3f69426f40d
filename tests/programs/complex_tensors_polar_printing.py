# Models: a signals-course notebook on complex tensors: construction with torch.complex and
# torch.polar, real/imag/abs/angle/conj views (conj bit, resolve_conj), complex arithmetic and
# matmul, roots of unity, a DFT matrix against torch.fft.fft, complex printing in default and
# sci mode, view_as_real / view_as_complex, and autograd through abs() of a complex product.
import math

import torch

z = torch.complex(torch.tensor([1.0, 0.0, -1.5, 3.0]), torch.tensor([1.0, -2.0, 0.5, 0.0]))
print(z)
print("dtype", z.dtype, "real", z.real, "imag", z.imag)
print("abs", z.abs(), "angle", z.angle())
print("conj", z.conj(), "is_conj", z.conj().is_conj(), z.conj().resolve_conj().is_conj())
print("z * conj(z)", z * z.conj())
print("z / (1+1j)", z / (1 + 1j))
print("z ** 2", z ** 2)
print("exp(i pi)", torch.exp(torch.tensor(1j * math.pi)))
print("sqrt of -1", torch.sqrt(torch.tensor(-1 + 0j)))
print("log", torch.log(z[:2]))

n = 6
roots = torch.polar(torch.ones(n), 2 * math.pi * torch.arange(n) / n)
print("roots of unity", roots)
print("sum of roots ~ 0:", roots.sum().abs().item() < 1e-6)
print("product of roots", roots.prod())

x = torch.tensor([1.0, 2.0, 0.0, -1.0, 0.5, 0.25, 3.0, -2.0])
N = len(x)
k = torch.arange(N)
W = torch.exp(-2j * math.pi * torch.outer(k, k) / N)
print("DFT matrix dtype", W.dtype, W.shape)
dft = W @ x.to(torch.complex64)
print("dft", dft)
print("fft", torch.fft.fft(x))
print("match", torch.allclose(dft, torch.fft.fft(x), atol=1e-5))

Z = torch.tensor([[1 + 2j, 3 - 1j], [0.5j, -2 + 0j]])
print(Z, Z.dtype)
print("Z @ Z^H", Z @ Z.mH)
print("det", torch.linalg.det(Z))
print("eigvals", torch.linalg.eigvals(Z))
big = torch.tensor([1e-5 + 2e5j, 3.0 - 1j, 12345.678 + 0.001j])
print(big)
torch.set_printoptions(sci_mode=False, precision=3)
print(big)
torch.set_printoptions(profile="default")
print(torch.tensor([complex("nan"), complex("inf"), 1 - 1j]))
print(torch.zeros(2, 0, dtype=torch.complex64), torch.tensor(2 - 3j, dtype=torch.complex128))

r = torch.view_as_real(z)
print("view_as_real", r, r.shape)
back = torch.view_as_complex(torch.tensor([[1.0, -1.0], [0.0, 2.0]]))
print("view_as_complex", back)
r[0, 0] = 10.0
print("shared storage:", z[0])

a = torch.tensor([1.0 + 1.0j, 2.0 - 0.5j], requires_grad=True)
b = torch.tensor([0.5 - 1j, 1.5 + 2j])
loss = (a * b).abs().sum()
loss.backward()
print("loss", loss, "grad", a.grad)
print("grad via formula", (a * b / (a * b).abs() * b.conj()).detach())
