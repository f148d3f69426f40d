# Models: the torch.autograd.grad reference examples: grad_outputs for non-scalar outputs,
# allow_unused with None results and materialize_grads, retain_graph and the second-call
# error, is_grads_batched for Jacobian rows, only_inputs, and grads w.r.t. intermediate nodes.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, -1.0], requires_grad=True)
unused = torch.tensor(4.0, requires_grad=True)
out = x ** 2
g, = torch.autograd.grad(out, x, grad_outputs=torch.tensor([1.0, 0.0, -1.0]), retain_graph=True)
print("grad_outputs", g)
gx, gu = torch.autograd.grad(out.sum(), [x, unused], allow_unused=True, retain_graph=True)
print("allow_unused", gx, gu)
gx, gu = torch.autograd.grad(out.sum(), [x, unused], materialize_grads=True, retain_graph=True)
print("materialize", gx, gu)
try:
    torch.autograd.grad(out.sum(), [x, unused], retain_graph=True)
except RuntimeError as e:
    print("RuntimeError:", e)
eye = torch.eye(3)
jac, = torch.autograd.grad(out, x, grad_outputs=eye, is_grads_batched=True, retain_graph=True)
print("batched jacobian\n", jac)
h = x * 3
z = (h * y.sum()).sum()
gh, gy = torch.autograd.grad(z, [h, y])
print("wrt intermediate", gh, gy)
try:
    torch.autograd.grad(z, x)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])
w = torch.tensor(2.0, requires_grad=True)
loss = w ** 3
g1, = torch.autograd.grad(loss, w, create_graph=True)
g2, = torch.autograd.grad(g1, w)
print("second derivative", g1, g2)
try:
    torch.autograd.grad(torch.tensor(1.0), w)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad(out, x)
except RuntimeError as e:
    print("RuntimeError:", e)
