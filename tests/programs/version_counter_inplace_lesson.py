# Models: an autograd lesson on in-place operations (the "in-place correctness checks" section of
# the autograd mechanics notes): _version counters bumped by each in-place op and shared by views,
# the "modified by an inplace operation" error with its version numbers, leaf errors, and the
# no_grad escape hatch used by optimizers.
import torch

a = torch.ones(3)
print("fresh version", a._version)
a.add_(1)
a.mul_(2)
a[0] = 5
print("after add_, mul_, setitem", a._version)
v = a.view(3)
v.sub_(1)
print("view and base share the counter", a._version, v._version)
b = a.clone()
print("clone starts at", b._version)
a.data.add_(1)
print("through .data the counter stays", a._version)
d = a.detach()
d.zero_()
print("detach shares the counter", a._version, d._version)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
z = y * 2
y.add_(1)
try:
    z.sum().backward()
    print("mul saved y? no error")
except RuntimeError as e:
    print("RuntimeError:", e)
y2 = x.exp()
w = y2.sin()
y2.mul_(3)
try:
    w.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x[0] = 2.0
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    x.add_(1)
print("no_grad in-place on leaf ok", x, x._version, x.is_leaf)
s = torch.tensor([0.5, -1.0], requires_grad=True)
r = s.sigmoid()
r.mul_(2)
print("sigmoid_ then mul_", r.grad_fn.name(), r.grad_fn.next_functions[0][0].name())
try:
    r.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
s2 = torch.tensor([0.5, -1.0], requires_grad=True)
q = s2 * 1
q.relu_()
q.sum().backward()
print("relu_ on a non-leaf is fine", s2.grad, q.grad_fn.name())
base = torch.zeros(4, requires_grad=True).clone()
view = base[1:3]
view.mul_(2)
print("view grad_fn after in-place", view.grad_fn.name(), "base grad_fn", base.grad_fn.name())
leafview = torch.zeros(2, requires_grad=True)
try:
    leafview[:1].add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    nv = x[:2]
try:
    nv.mul_(2)
    print("in-place on a no_grad view of a leaf, version", x._version)
except RuntimeError as e:
    print("RuntimeError:", e)
