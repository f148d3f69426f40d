# Models: a blog post "peeking inside autograd": walking grad_fn.next_functions, reading saved
# attributes (_saved_self, _saved_other, _saved_exponent, _saved_dim ...) off nodes, the
# AccumulateGrad node's variable, and the error after the graph's buffers are freed.
import torch

torch.manual_seed(0)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
c = a * b
print(c.grad_fn.name(), torch.equal(c.grad_fn._saved_self, a),
      torch.equal(c.grad_fn._saved_other, b))
d = c.pow(3)
print(d.grad_fn.name(), d.grad_fn._saved_exponent, torch.equal(d.grad_fn._saved_self, c))
e = d.sum(dim=0, keepdim=True)
print(e.grad_fn.name(), e.grad_fn._saved_dim, e.grad_fn._saved_keepdim,
      e.grad_fn._saved_self_sym_sizes)
f = e.exp()
print(f.grad_fn.name(), torch.equal(f.grad_fn._saved_result, f))
g = torch.cat([f, a], dim=0)
print(g.grad_fn.name(), g.grad_fn._saved_dim)
h = g.reshape(2, 2).t().reshape(-1)
print(h.grad_fn.name(), h.grad_fn._saved_self_sym_sizes)
s = h.softmax(0)
print(s.grad_fn.name(), s.grad_fn._saved_dim, torch.equal(s.grad_fn._saved_result, s))


def walk(fn, depth=0):
    if fn is None:
        return
    extra = ""
    if hasattr(fn, "variable"):
        extra = f" variable shape {tuple(fn.variable.shape)}"
    print("  " * depth + fn.name() + extra)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


walk(s.grad_fn)
acc = c.grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.variable is a)
s.sum().backward()
try:
    print(c.grad_fn._saved_self)
except RuntimeError as err:
    print("RuntimeError:", err)
x = torch.randn(2, 2, requires_grad=True)
y = x.clamp(min=-0.5, max=0.5)
print(y.grad_fn.name(), y.grad_fn._saved_min, y.grad_fn._saved_max)
z = torch.nn.functional.linear(x, torch.ones(3, 2))
print(z.grad_fn.name(), [type(n).__name__ if n else None for n, _ in z.grad_fn.next_functions])
