# Models: a tutorial on gradient hooks: Tensor.register_hook that prints, scales, clips and
# replaces gradients, hooks on intermediates vs leaves, removal with the handle, order of several
# hooks, register_post_accumulate_grad_hook, module full backward hooks, and gradient masking to
# freeze part of a weight.
import torch
import torch.nn as nn

torch.manual_seed(12)
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
log = []
h1 = x.register_hook(lambda g: log.append(("first", g.tolist())))
h2 = x.register_hook(lambda g: g * 10)
h3 = x.register_hook(lambda g: log.append(("third sees scaled", g.tolist())))
(x**2).sum().backward()
print("x.grad after *10 hook", x.grad)
print("hook order", log)
h2.remove()
x.grad = None
log.clear()
(x**2).sum().backward()
print("after removing", x.grad, log)
h1.remove()
h3.remove()
y = torch.tensor([0.5, 1.5], requires_grad=True)
mid = y * 3
mid.register_hook(lambda g: g.clamp(max=0.1))
(mid**2).sum().backward()
print("clipped at the intermediate", y.grad)
acc = []
p = torch.tensor([1.0, 2.0], requires_grad=True)
p.register_post_accumulate_grad_hook(lambda t: acc.append(t.grad.clone()))
for _ in range(2):
    (p * 2).sum().backward()
print("post-accumulate sees the running sum", acc)
lin = nn.Linear(3, 3)
mask = torch.tril(torch.ones(3, 3))
lin.weight.register_hook(lambda g: g * mask)
before = lin.weight.detach().clone()
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
lin(torch.randn(4, 3)).pow(2).sum().backward()
opt.step()
print(
    "upper triangle frozen", torch.equal(torch.triu(before, 1), torch.triu(lin.weight.detach(), 1))
)
print("masked grad\n", lin.weight.grad)
seen = []
net = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
for name, mod in net.named_children():
    mod.register_full_backward_hook(
        lambda m, gin, gout, name=name: seen.append(
            (
                name,
                type(m).__name__,
                [None if g is None else tuple(g.shape) for g in gin],
                [tuple(g.shape) for g in gout],
            )
        )
    )
net(torch.randn(5, 2, requires_grad=True)).sum().backward()
for s in seen:
    print("backward hook", s)
scale_calls = []


def scale_grad_input(module, gin, gout):
    scale_calls.append(type(module).__name__)
    return tuple(None if g is None else g * 0.5 for g in gin)


inp = torch.ones(1, 2, requires_grad=True)
l2 = nn.Linear(2, 1)
h = l2.register_full_backward_hook(scale_grad_input)
l2(inp).sum().backward()
print("halved input grad", inp.grad, "vs weight", l2.weight.detach(), scale_calls)
h.remove()
z = torch.tensor(2.0, requires_grad=True)
w = z * z
w.register_hook(lambda g: print("  hook on w got", g))
w.retain_grad()
w.backward(torch.tensor(3.0))
print("retained w.grad", w.grad, "z.grad", z.grad)
try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
q = torch.ones(2, requires_grad=True)
q.register_hook(lambda g: torch.ones(3))
try:
    (q * 2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
