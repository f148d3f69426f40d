# Models: the "Tensor hooks" section of the autograd notes in a debugging session:
# register_hook on leaves and intermediates (observing and replacing gradients), retain_grad
# and .grad of non-leaves (with the UserWarning when reading it without retain_grad), hooks
# firing order, hooks surviving in-place ops, register_post_accumulate_grad_hook, gradient
# accumulation across backward calls, retain_graph errors, and hook handles removed.
import warnings

import torch

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
order = []
h1 = x.register_hook(lambda g: order.append(("first", g.tolist())))
h2 = x.register_hook(lambda g: g * 2)
h3 = x.register_hook(lambda g: order.append(("third sees", g.tolist())))
y = (x**2).sum()
y.backward()
print("x.grad", x.grad, order)
for h in (h1, h2, h3):
    h.remove()

a = torch.randn(3, requires_grad=True)
b = a * 2
b.retain_grad()
c = b.exp()
c.register_hook(lambda g: print("c grad in hook", g))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    c.sum().backward()
    print("b.grad", b.grad, "c.grad", c.grad)
    print([str(m.message)[:90] for m in w])
print(b.is_leaf, c.is_leaf, a.is_leaf, b.retains_grad, c.retains_grad)

p = torch.ones(2, requires_grad=True)
p.register_post_accumulate_grad_hook(lambda t: print("accumulated", t.grad))
for k in range(3):
    (p * (k + 1)).sum().backward()
print("p.grad after 3 backward", p.grad)
p.grad = None
(p * 5).sum().backward()
print(p.grad)

z = torch.tensor([0.5, -1.0], requires_grad=True)
out = z.tanh()
out.sum().backward(retain_graph=True)
out.sum().backward()
print("twice", z.grad)
out2 = z.sigmoid()
out2.sum().backward()
try:
    out2.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:110])

v = torch.ones(3, requires_grad=True)
w_ = v.clone()
w_.register_hook(lambda g: print("clone grad", g))
w_.mul_(3)
w_.register_hook(lambda g: print("after mul_ grad", g))
w_.sum().backward()
print(v.grad)

leaf = torch.zeros(2, requires_grad=True)
try:
    leaf.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    leaf.add_(1)
print(leaf, leaf.grad_fn, leaf.requires_grad)
nograd = torch.ones(2)
try:
    nograd.register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
q = torch.ones(2, requires_grad=True)
q.register_hook(lambda g: None)
r = q * torch.tensor([2.0, 3.0])
(g,) = torch.autograd.grad(r.sum(), q)
print("autograd.grad doesn't fill .grad", g, q.grad)
