# Models: the autograd mechanics FAQ on in-place operations: in-place ops on leaves that require
# grad, on views of leaves, saved tensors modified in place (version counters in the message),
# no_grad in-place updates, detach sharing storage, and out= on tensors requiring grad.
import torch

w = torch.ones(3, requires_grad=True)
for name, fn in [
    ("add_ on leaf", lambda: w.add_(1)),
    ("view of leaf", lambda: w[:2].mul_(2)),
    ("out= on grad", lambda: torch.add(torch.ones(3), 1, out=w)),
]:
    try:
        fn()
    except RuntimeError as e:
        print(name, "->", type(e).__name__ + ":", e)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
print("version before", b._version)
b.mul_(2)
print("version after", b._version)
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
c = a * 2
d = c ** 2
c.add_(1)
try:
    d.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
e_ = a.exp()
e_.add_(1)
try:
    e_.sum().backward()
except RuntimeError as e:
    print("exp then add_:", e)
f_ = a * 3
f_.add_(1)
f_.sum().backward()
print("mul then add_ ok", a.grad)
with torch.no_grad():
    w.add_(1)
print("no_grad update", w, w._version, w.requires_grad)
det = w.detach()
det.zero_()
print("detach shares", w, det._version, w._version)
v = a.view(3)
print("view base", v._base is a, v.is_leaf, v.grad_fn.name())
x = torch.zeros(3, requires_grad=True).clone()
x[0] = 5.0
x[1:] += torch.tensor([1.0, 2.0])
print("clone then in-place", x, x.grad_fn.name())
y = torch.arange(4.0, requires_grad=True)
z = y.unbind(0)
try:
    z[0].mul_(2)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.is_inference_mode_enabled())
with torch.inference_mode():
    t = torch.ones(2)
try:
    t.add_(1)
    print("inference tensor add_ outside ok?", t)
except RuntimeError as e:
    print("RuntimeError:", e)
