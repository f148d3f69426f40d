# Models: a computational-imaging blog post: phase retrieval with a complex-valued parameter
# optimised by Adam (complex gradients are conjugate Wirtinger), magnitudes of a Fourier
# transform as measurements, angle/abs/real/imag views, and the complex grad printed.
import torch

torch.manual_seed(17)
n = 16
true = torch.randn(n, dtype=torch.complex64)
meas = torch.fft.fft(true).abs()
z = torch.randn(n, dtype=torch.complex64, requires_grad=True)
opt = torch.optim.Adam([z], lr=0.05)
for step in range(120):
    loss = (torch.fft.fft(z).abs() - meas).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step:3d} loss {loss.item():.6f}")
print("z.grad dtype", z.grad.dtype, "shape", z.grad.shape)
print("final grad[:3]", z.grad[:3])
print("state keys", sorted(opt.state[z]), opt.state[z]["exp_avg_sq"].dtype)
w = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
f = (w * w.conj()).real.sum()
f.backward()
print("grad of |w|^2", w.grad)
w.grad = None
g = (w.abs() ** 3).sum()
g.backward()
print("grad of |w|^3", w.grad)
w.grad = None
h = torch.view_as_real(w).pow(2).sum()
h.backward()
print("via view_as_real", w.grad, h.grad_fn.name())
sgd = torch.optim.SGD([w], lr=0.1, momentum=0.9)
for _ in range(3):
    sgd.zero_grad()
    (w.abs() - 1).pow(2).sum().backward()
    sgd.step()
print("sgd complex", w.detach())
try:
    z.abs().sum().backward()
    (z * 1).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
