# Models: an autograd lesson that prints the graph: is_leaf / requires_grad / grad_fn of every
# intermediate, a recursive next_functions walk down to AccumulateGrad, metadata and names of the
# nodes, retain_grad on intermediates, and what detach / no_grad do to the chain.
import torch

torch.manual_seed(1)
w = torch.randn(3, 2, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
x = torch.randn(4, 3)
h = x @ w + b
a = torch.tanh(h)
loss = (a**2).mean()
for name, t in [("x", x), ("w", w), ("b", b), ("h", h), ("a", a), ("loss", loss)]:
    fn = type(t.grad_fn).__name__ if t.grad_fn else None
    print(f"{name:4s} leaf={t.is_leaf!s:5} requires_grad={t.requires_grad!s:5} grad_fn={fn}")


def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    label = fn.name()
    if hasattr(fn, "variable"):
        label += f" -> leaf of shape {tuple(fn.variable.shape)}"
    print("  " * depth + label)
    if fn in seen:
        return
    seen.add(fn)
    for nxt, idx in fn.next_functions:
        if nxt is not None:
            walk(nxt, depth + 1, seen)
        else:
            print("  " * (depth + 1) + f"None (input {idx} needs no grad)")


walk(loss.grad_fn)
print("metadata", loss.grad_fn.metadata, "tanh saved its result", a.grad_fn._saved_result.equal(a))
h.retain_grad()
a.retain_grad()
loss.backward()
print("retains_grad", h.retains_grad, a.retains_grad, x.retains_grad)
print("a.grad\n", a.grad)
print("h.grad == a.grad * (1 - a^2)", torch.allclose(h.grad, a.grad * (1 - a.detach() ** 2)))
print("w.grad\n", w.grad)
print("b.grad", b.grad)
d = a.detach()
print("detached", d.is_leaf, d.requires_grad, d.grad_fn)
with torch.no_grad():
    n = w * 2
print("made under no_grad", n.is_leaf, n.requires_grad, n.grad_fn)
c = w.clone()
print("clone", c.is_leaf, c.grad_fn.name(), [(f.name(), i) for f, i in c.grad_fn.next_functions])
print(
    "view chain",
    w[0].grad_fn.name(),
    w.t().grad_fn.name(),
    w.view(-1).grad_fn.name(),
    w.unsqueeze(0).grad_fn.name(),
    w.expand(2, 3, 2).grad_fn.name(),
    w.reshape(6).grad_fn.name(),
)
print(
    "ops",
    (w + 1).grad_fn.name(),
    (w - b).grad_fn.name(),
    (w * w).grad_fn.name(),
    (w / 2).grad_fn.name(),
    w.sum().grad_fn.name(),
    w.mean(0).grad_fn.name(),
    w.max().grad_fn.name(),
    w.abs().grad_fn.name(),
    w.pow(3).grad_fn.name(),
    (2**w).grad_fn.name(),
    w.sigmoid().grad_fn.name(),
    w.relu().grad_fn.name(),
    torch.cat([w, w]).grad_fn.name(),
    torch.stack([b, b]).grad_fn.name(),
    w.norm().grad_fn.name(),
    w.softmax(0).grad_fn.name(),
    w.log_softmax(1).grad_fn.name(),
    w.T.grad_fn.name(),
    (x @ w).grad_fn.name(),
)
print("mul saved", (w * 3).grad_fn._saved_other, (w * b).grad_fn._saved_self.shape)
print("requires_grad propagates", (x + 1).requires_grad, (x + w[:, 0]).requires_grad)
print("leaf with grad_fn None but requires_grad", torch.ones(1, requires_grad=True).grad_fn)
w.grad = None
print("grad reset", w.grad)
