# Models: a course notebook on torch.autograd.functional: jacobian (reverse, forward-mode,
# vectorize), hessian of a scalar function, vjp/jvp/vhp/hvp with their outputs, create_graph,
# strict mode errors, multiple inputs, and checks against analytic derivatives.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.manual_seed(8)


def f(x):
    return torch.stack([x[0] ** 2 * x[1], 5 * x[0] + torch.sin(x[1]), x[1] ** 3])


x = torch.tensor([1.0, 2.0])
J = jacobian(f, x)
print("jacobian\n", J)
print(
    "analytic\n",
    torch.tensor([[2 * 1.0 * 2.0, 1.0], [5.0, torch.cos(torch.tensor(2.0)).item()], [0.0, 12.0]]),
)
print("vectorize", torch.allclose(jacobian(f, x, vectorize=True), J))
print("forward-mode", torch.allclose(jacobian(f, x, vectorize=True, strategy="forward-mode"), J))


def rosen(z):
    return ((1 - z[:-1]) ** 2 + 100 * (z[1:] - z[:-1] ** 2) ** 2).sum()


z = torch.tensor([0.5, 1.5, -0.5])
H = hessian(rosen, z)
print("rosenbrock hessian\n", H)
print("symmetric", torch.allclose(H, H.T))
v = torch.tensor([1.0, 0.0, -1.0])
val, hv = hvp(rosen, z, v)
print("hvp", val, hv, torch.allclose(hv, H @ v))
val, vh = vhp(rosen, z, v)
print("vhp", vh)
out, vj = vjp(f, x, torch.tensor([1.0, 1.0, 1.0]))
print("vjp", out, vj, torch.allclose(vj, J.sum(0)))
out, jv = jvp(f, x, torch.tensor([1.0, -1.0]))
print("jvp", jv, torch.allclose(jv, J @ torch.tensor([1.0, -1.0])))


def g(a, b):
    return (a * b).sum(), a.exp()


ja = jacobian(g, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print("multi-in multi-out jacobian structure", len(ja), len(ja[0]), ja[0][0], ja[1][0].shape)
print(ja[1][0])
hb = hessian(lambda a, b: (a**2 * b).sum(), (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print("hessian of two inputs", [[tuple(t.shape) for t in row] for row in hb])
print(hb[0][1])
try:
    jacobian(lambda t: torch.ones(2), x, strict=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print("non-strict independent output", jacobian(lambda t: torch.ones(2), x))
try:
    vjp(f, x, torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
w = torch.tensor([0.3, 0.7], requires_grad=True)
Jc = jacobian(lambda t: (t * w).exp(), x, create_graph=True)
Jc.trace().backward()
print("create_graph lets us differentiate the jacobian", w.grad)
batch = torch.randn(4, 3)
Jb = jacobian(lambda t: torch.tanh(t).sum(0), batch)
print("batch jacobian shape", Jb.shape)
