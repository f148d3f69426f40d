# Models: the autograd mechanics notes' graph API: grad_fn.next_functions walks, Node.name(),
# Node metadata, register_hook / register_prehook on grad_fn nodes,
# torch.autograd.graph.register_multi_grad_hook in "all" and "any" modes, retain_grad vs hooks
# on non-leaves, Tensor.register_post_accumulate_grad_hook, and
# torch.autograd.graph.increment_version / saved tensors' _saved_ attributes.
import torch
from torch.autograd.graph import register_multi_grad_hook

torch.manual_seed(0)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
c = (a * b).sum() + a.exp().mean()


def walk(fn, depth=0):
    if fn is None:
        return
    print("  " * depth + fn.name(), type(fn).__name__)
    for nxt, idx in fn.next_functions:
        walk(nxt, depth + 1)


walk(c.grad_fn)
mul = c.grad_fn.next_functions[0][0].next_functions[0][0]
print(mul.name(), torch.equal(mul._saved_self, a), torch.equal(mul._saved_other, b))
exp_node = c.grad_fn.next_functions[1][0].next_functions[0][0]
print(exp_node.name(), torch.equal(exp_node._saved_result, a.exp()))
log = []
h1 = mul.register_hook(lambda gi, go: log.append(
    ("post", [g.shape if g is not None else None for g in gi], go[0].shape)))
h2 = mul.register_prehook(lambda go: log.append(("pre", go[0].tolist())))
c.backward(retain_graph=True)
print(log)
h1.remove()
h2.remove()
print(a.grad, b.grad)

x = torch.randn(4, requires_grad=True)
y = torch.randn(4, requires_grad=True)
outs = [x * 2, y * 3]
fired = []
handle = register_multi_grad_hook(outs, lambda grads: fired.append([g is None for g in grads]))
(outs[0].sum()).backward(retain_graph=True)
(outs[0].sum() + outs[1].sum()).backward()
print("all mode:", fired)
handle.remove()
outs = [x * 2, y * 3]
fired = []
handle = register_multi_grad_hook(outs, lambda g: fired.append(tuple(g.shape)), mode="any")
(outs[0] + outs[1]).sum().backward()
print("any mode:", fired)

w = torch.nn.Parameter(torch.ones(2))
acc = []
w.register_post_accumulate_grad_hook(lambda p: acc.append(p.grad.clone()))
for _ in range(2):
    (w * torch.tensor([1.0, 2.0])).sum().backward()
print(acc)

h = x * 3
h.retain_grad()
seen = []
h.register_hook(lambda g: seen.append(g.clone()) or g * 10)
h.sum().backward()
print(h.grad, seen, x.grad)

v = torch.zeros(3, requires_grad=True).clone()
print(v._version)
torch.autograd.graph.increment_version(v)
print(v._version, v.is_leaf, v.grad_fn.name())
m = torch.nn.Linear(2, 2)
out = m(torch.randn(1, 2))
print(out.grad_fn.name(), [n[0].name() if n[0] else None for n in out.grad_fn.next_functions])
print(out.grad_fn.metadata, torch.autograd.graph.Node.__name__)
print(isinstance(out.grad_fn, torch.autograd.graph.Node))
