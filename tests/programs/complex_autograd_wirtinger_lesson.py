# Models: the "Autograd for complex numbers" notes as a runnable lesson: Wirtinger/conjugate
# gradients of real-valued losses of complex tensors (abs, angle, real, imag, conj, polar),
# gradient descent on a complex parameter, complex matmul grads vs real decomposition,
# view_as_real round trips, and the error for backward of a complex output.
import torch

torch.manual_seed(56)
z = torch.tensor([1.0 + 2.0j, -0.5 + 0.3j], requires_grad=True)
for name, fn in [
    ("abs", lambda t: t.abs()),
    ("abs^2", lambda t: (t * t.conj()).real),
    ("real", lambda t: t.real),
    ("imag", lambda t: t.imag),
    ("angle", lambda t: t.angle()),
    ("exp.real", lambda t: t.exp().real),
    ("log.abs", lambda t: t.log().abs()),
    ("sigmoid-ish", lambda t: torch.sigmoid(t.real) * t.imag),
]:
    (g,) = torch.autograd.grad(fn(z).sum(), z)
    print(f"{name:12s} grad {g}")
a = torch.randn(3, 3, dtype=torch.complex64)
b = torch.randn(3, 2, dtype=torch.complex64)
w = torch.randn(3, 2, dtype=torch.complex64, requires_grad=True)
loss = (a @ w - b).abs().pow(2).sum()
loss.backward()
ar, ai = a.real, a.imag
wr = w.detach().real.clone().requires_grad_(True)
wi = w.detach().imag.clone().requires_grad_(True)
rr = ar @ wr - ai @ wi - b.real
ri = ar @ wi + ai @ wr - b.imag
(rr.pow(2) + ri.pow(2)).sum().backward()
print(
    "complex grad == dL/dRe + i dL/dIm",
    torch.allclose(w.grad, torch.complex(wr.grad, wi.grad), atol=1e-5),
)
target = torch.tensor(3.0 - 1.0j)
c = torch.tensor(0.0 + 0.0j, requires_grad=True)
opt = torch.optim.SGD([c], lr=0.2)
for step in range(30):
    l = (c - target).abs() ** 2
    opt.zero_grad()
    l.backward()
    opt.step()
print("gradient descent to target", c.detach(), "loss", round(l.item(), 8))
r = torch.tensor([2.0, 1.0], requires_grad=True)
th = torch.tensor([0.5, -1.0], requires_grad=True)
p = torch.polar(r, th)
(p.real.sum() + 2 * p.imag.sum()).backward()
print("polar grads", r.grad, th.grad)
v = torch.view_as_real(z.detach())
print("view_as_real", v, torch.view_as_complex(v.contiguous()))
zz = z.detach().clone().requires_grad_(True)
torch.view_as_real(zz).pow(2).sum().backward()
print("grad through view_as_real", zz.grad)
try:
    (z * 2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
out = z * (1 + 1j)
out.backward(torch.ones_like(out))
print("backward with complex grad_output", z.grad)
print(
    "is_complex / conj bits", z.is_complex(), z.conj().is_conj(), z.conj().resolve_conj().is_conj()
)
x = torch.randn(4, dtype=torch.complex128, requires_grad=True)
print("gradcheck complex", torch.autograd.gradcheck(lambda t: (t.abs() * t.angle()).sum(), (x,)))
