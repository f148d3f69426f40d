# Models: the in-place pitfalls collected from PyTorch forum threads -- "one of the variables
# needed for gradient computation has been modified by an inplace operation" caught and printed
# with its version numbers, in-place on a leaf that requires grad, on a view of a leaf, through
# .data (silently allowed), the _version counter, retain_graph errors on a second backward, and
# the usual fixes (clone, out-of-place ops, torch.no_grad updates).
import torch

torch.manual_seed(0)
a = torch.randn(3, requires_grad=True)
b = a.sigmoid()
print("version before", b._version)
b.mul_(2)
print("version after", b._version)
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(". Hint")[0])

x = torch.randn(4, requires_grad=True)
y = x * 2
z = y.exp()
y.add_(1)
try:
    z.sum().backward()
    print("exp saved its output: backward fine", x.grad)
except RuntimeError as e:
    print("unexpected", e)
w = x.pow(2)
y2 = x * 1
w2 = y2 ** 2
y2.add_(1)
try:
    w2.sum().backward()
except RuntimeError as e:
    print("pow:", str(e).split(". Hint")[0])

leaf = torch.ones(2, requires_grad=True)
try:
    leaf.add_(1)
except RuntimeError as e:
    print("leaf:", e)
try:
    leaf[0] = 5
except RuntimeError as e:
    print("leaf setitem:", e)
try:
    leaf.view(2).mul_(2)
except RuntimeError as e:
    print("view of leaf:", e)
leaf.data.add_(1)
print("through .data", leaf, leaf._version)
with torch.no_grad():
    leaf.mul_(3)
print("under no_grad", leaf, leaf._version)

t = torch.zeros(3)
v = t[1:]
v.fill_(7)
print(t, t._version, v._version)
t.detach().add_(1)
print(t, t._version)

p = torch.tensor([1.0, 2.0], requires_grad=True)
q = (p * p).sum()
q.backward(retain_graph=True)
q.backward()
print("retain_graph accumulates", p.grad)
r = (p * p).sum()
r.backward()
try:
    r.backward()
except RuntimeError as e:
    print("second backward:", str(e).split(". Specify")[0])

h = torch.randn(3, requires_grad=True)
out = torch.relu(h * 1)
out2 = out.clone()
out2[0] = 0.0
out2.sum().backward()
print("clone fix", h.grad is not None, out2.grad_fn.name())
s = h * 1
s2 = s.sin()
s.copy_(torch.ones(3))
try:
    s2.backward(torch.ones(3))
except RuntimeError as e:
    msg = str(e)
    print("sin:", "[torch.FloatTensor [3]]" in msg, "version 1; expected version 0" in msg)
m = torch.nn.Linear(2, 2)
inp = torch.randn(1, 2)
o = m(inp)
with torch.no_grad():
    m.weight.mul_(0.5)
try:
    o.sum().backward()
except RuntimeError as e:
    print("optimizer-in-between:", "is at version 1; expected version 0" in str(e))
k = torch.randn(2, requires_grad=True)
kk = k * 2
kk2 = kk.view(2)
kk2.add_(1)
print(kk.grad_fn.name(), kk2.grad_fn.name(), kk._version, kk2._version)
kk.sum().backward()
print(k.grad)
