# Models: the torch.autograd.graph API reference worked through: get_gradient_edge /
# GradientEdge to ask autograd.grad for the gradient at an intermediate node (and to split a
# backward in two stages, as pipeline-parallel code does), allow_mutation_on_saved_tensors
# letting an in-place update follow the forward pass, increment_version for out-of-band
# writes, register_multi_grad_hook with mode="any", and Node hooks on grad_fn.
import torch
from torch.autograd.graph import (
    allow_mutation_on_saved_tensors,
    get_gradient_edge,
    increment_version,
    register_multi_grad_hook,
)

torch.manual_seed(0)
w1 = torch.randn(4, 3, requires_grad=True)
w2 = torch.randn(2, 4, requires_grad=True)
x = torch.randn(5, 3)
h = torch.tanh(x @ w1.T)
out = (h @ w2.T).pow(2).mean()

edge = get_gradient_edge(h)
print(type(edge).__name__, type(edge.node).__name__, edge.output_nr)
(g_h,) = torch.autograd.grad(out, edge, retain_graph=True)
print("dL/dh", g_h.shape, g_h[0])
(g_w2,) = torch.autograd.grad(out, w2, retain_graph=True)
# stage two: continue from h's gradient down to w1 only
(g_w1,) = torch.autograd.grad(h, w1, grad_outputs=g_h, retain_graph=True)
(ref_w1,) = torch.autograd.grad(out, w1)
print("two-stage grad matches:", torch.allclose(g_w1, ref_w1, atol=1e-6))
print(g_w1)
leaf_edge = get_gradient_edge(w1)
print(type(leaf_edge.node).__name__, leaf_edge.node.variable is w1)

with allow_mutation_on_saved_tensors():
    a = torch.linspace(0.1, 1.0, 4, requires_grad=True)
    b = a.clone()
    loss = (b.exp() * b).sum()
    b.mul_(100)
    loss.backward()
    print("grad as of the saved values:", a.grad)
    print("b was changed:", b)

c = torch.ones(3, requires_grad=True)
d = c * 1
e = d.sin()
with torch.no_grad():
    d.numpy()[0] = 5.0
increment_version(d)
try:
    e.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", str(err)[:150])

p, q = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
seen = []
register_multi_grad_hook((p, q), lambda g: seen.append(g.tolist()), mode="any")
(p * 3).sum().backward()
print("any-mode hook saw", seen)
seen_all = []
register_multi_grad_hook(
    (p, q), lambda gs: seen_all.append([None if g is None else g.tolist() for g in gs])
)
(p * q * 2).sum().backward()
print("all-mode hook saw", seen_all)

r = torch.tensor([1.0, 2.0], requires_grad=True)
s = r.pow(3)
s.grad_fn.register_prehook(lambda gouts: (gouts[0] * 10,))
s.grad_fn.register_hook(lambda gin, gout: print("node hook", gin[0], gout[0]))
s.sum().backward()
print("r.grad", r.grad)
