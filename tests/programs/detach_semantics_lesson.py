# Models: a blog post "detach(), .data, clone() and requires_grad explained": what each shares,
# version counter behaviour, detach_ on a view, the classic .data pitfall that silently gives
# wrong gradients vs detach() which raises, and stop-gradient tricks (straight-through).
import torch

torch.manual_seed(4)
a = torch.randn(3, requires_grad=True)
b = a * 2
d = b.detach()
print(
    "detach shares memory",
    d.data_ptr() == b.data_ptr(),
    "requires_grad",
    d.requires_grad,
    "leaf",
    d.is_leaf,
)
c = b.clone()
print("clone keeps graph", c.grad_fn.name(), "new memory", c.data_ptr() != b.data_ptr())
cd = b.detach().clone()
print("detach().clone()", cd.requires_grad, cd.data_ptr() != b.data_ptr())
e = a.exp()
e.detach().zero_()
try:
    e.sum().backward()
except RuntimeError as err:
    print("detach + in-place is caught:", str(err)[:90])
a.grad = None
f = a.exp()
f.data.zero_()
f.sum().backward()
print(".data + in-place is silent, grad uses the zeros:", a.grad)
a.grad = None
v = (a * 1)[:2]
try:
    v.detach_()
except RuntimeError as err:
    print("RuntimeError:", err)
g = a * 3
g.detach_()
print("detach_ on non-view", g.requires_grad, g.grad_fn, g.is_leaf)
x = torch.randn(4, requires_grad=True)
hard = (x > 0).float()
soft = torch.sigmoid(x)
ste = hard + soft - soft.detach()
print("straight-through forward == hard", torch.equal(ste, hard))
ste.sum().backward()
print("straight-through grad == sigmoid'", torch.allclose(x.grad, soft * (1 - soft)))
y = torch.randn(3, requires_grad=True)
target = y.detach() * 2
loss = ((y - target) ** 2).sum()
loss.backward()
print("stop-gradient target grad", y.grad, torch.allclose(y.grad, -2 * y.detach()))
p = torch.nn.Parameter(torch.ones(2))
print(
    "Parameter detach type",
    type(p.detach()).__name__,
    type(p.data).__name__,
    type(p.clone()).__name__,
)
print(
    "requires_grad_(False) on a leaf",
    torch.ones(1, requires_grad=True).requires_grad_(False).requires_grad,
)
try:
    (a * 2).requires_grad_(False)
except RuntimeError as err:
    print("RuntimeError:", err)
nl = (a * 2).detach().requires_grad_()
print("detached then requires_grad_", nl.is_leaf, nl.requires_grad)
print("numpy after detach", a.detach().numpy().shape)
t = torch.ones(2, requires_grad=True)
u = t.detach()
u += 1
print("in-place on detached bumps the shared version", t._version, u._version, t)
print("repr of detached", torch.tensor([1.0, 2.0], requires_grad=True).detach())
