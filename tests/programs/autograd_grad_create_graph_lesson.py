# Models: an autograd tutorial on torch.autograd.grad: several inputs and outputs,
# grad_outputs, retain_graph, create_graph for second derivatives (Laplacian, gradient penalty),
# allow_unused with and without materialize_grads, is_grads_batched, and the error messages.
import torch

torch.manual_seed(7)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = (x**3 * w).sum()
gx, gw = torch.autograd.grad(y, (x, w), retain_graph=True)
print("dy/dx", gx, "dy/dw", gw)
(gx2,) = torch.autograd.grad(y, x, create_graph=True)
print("create_graph grad has grad_fn", gx2.grad_fn.name())
h = torch.autograd.grad(gx2.sum(), x)[0]
print("d2y/dx2 diag", h, "expected", 6 * x.detach() * w.detach())
out = torch.stack([x.sum(), (x**2).sum()])
g = torch.autograd.grad(out, x, grad_outputs=torch.tensor([1.0, 10.0]))
print("grad_outputs weighting", g)
unused = torch.tensor(1.0, requires_grad=True)
try:
    torch.autograd.grad((x * 2).sum(), [x, unused])
except RuntimeError as e:
    print("RuntimeError:", e)
print("allow_unused", torch.autograd.grad((x * 2).sum(), [x, unused], allow_unused=True))
print("materialize_grads", torch.autograd.grad((x * 2).sum(), [x, unused], materialize_grads=True))
try:
    torch.autograd.grad((x * 2).sum(), x.detach())
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad(x * 2, x)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad((x * 2).sum(), x, grad_outputs=torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
pts = torch.randn(5, 2, requires_grad=True)
u = (pts[:, 0] ** 2 * pts[:, 1] + torch.sin(pts[:, 1])).unsqueeze(1)
du = torch.autograd.grad(u, pts, torch.ones_like(u), create_graph=True)[0]
lap = 0
for i in range(2):
    lap = lap + torch.autograd.grad(du[:, i], pts, torch.ones(5), create_graph=True)[0][:, i]
print("Laplacian", lap)
print("expected  ", 2 * pts[:, 1].detach() - torch.sin(pts[:, 1].detach()))
D = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
real, fake = torch.randn(6, 2), torch.randn(6, 2)
eps = torch.rand(6, 1)
mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
score = D(mix)
grads = torch.autograd.grad(score, mix, torch.ones_like(score), create_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
gp.backward()
print(
    "gradient penalty", round(gp.item(), 6), "D grad norm", round(D[0].weight.grad.norm().item(), 6)
)
A = torch.randn(3, 3)
v = torch.randn(3, requires_grad=True)
o = A @ v
jac = torch.autograd.grad(o, v, torch.eye(3), is_grads_batched=True)[0]
print("is_grads_batched jacobian == A", torch.allclose(jac, A))
s = torch.tensor(2.0, requires_grad=True)
f = s**4
(d1,) = torch.autograd.grad(f, s, create_graph=True)
(d2,) = torch.autograd.grad(d1, s, create_graph=True)
(d3,) = torch.autograd.grad(d2, s, create_graph=True)
(d4,) = torch.autograd.grad(d3, s)
print("derivatives of s^4 at 2", d1.item(), d2.item(), d3.item(), d4.item())
try:
    torch.autograd.grad(d4, s)
except RuntimeError as e:
    print("RuntimeError:", e)
