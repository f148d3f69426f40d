# Models: the torch.autograd.functional docs worked through: jacobian with vectorize and the
# forward-mode strategy, create_graph, hessian of a scalar function of two inputs, vjp, jvp,
# hvp and vhp, and strict mode errors for independent outputs.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f(x, y):
    return torch.stack([x.sin().sum() * y[0], (x * y[1:]).prod()])


x = torch.tensor([0.3, -1.2, 2.0])
y = torch.tensor([1.5, 0.5, -2.0, 1.0])
J = jacobian(f, (x, y))
print("jacobian shapes", [j.shape for j in J])
print(J[0], J[1], sep="\n")
Jv = jacobian(f, (x, y), vectorize=True)
print("vectorized equal", all(torch.allclose(a, b) for a, b in zip(J, Jv)))
Jf = jacobian(f, (x, y), vectorize=True, strategy="forward-mode")
print("forward-mode equal", all(torch.allclose(a, b) for a, b in zip(J, Jf)))


def g(x):
    return (x ** 3).sum() + x[0] * x[1]


H = hessian(g, x)
print("hessian\n", H)
Hc = hessian(lambda a, b: (a * b[:3]).sum() ** 2, (x, y))
print("cross block\n", Hc[0][1])
out, v = vjp(lambda a: a.exp(), x, torch.ones(3))
print("vjp", out, v)
out, t = jvp(lambda a: a.exp(), x, torch.tensor([1.0, 0.0, 0.0]))
print("jvp", t)
print("hvp", hvp(g, x, torch.ones(3)))
print("vhp", vhp(g, x, torch.ones(3)))
Jg = jacobian(lambda a: a ** 2, x, create_graph=True)
print("create_graph", Jg.requires_grad, Jg.grad_fn is not None)
try:
    jacobian(lambda a: torch.ones(2), x, strict=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print("non-strict zeros", jacobian(lambda a: torch.ones(2), x))
try:
    jacobian(f, (x, y), strategy="forward-mode")
except NotImplementedError as e:
    print("NotImplementedError:", e)
