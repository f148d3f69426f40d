# Models: autograd-internals blog posts: walking grad_fn.next_functions, node metadata and
# name(), Node.register_hook / register_prehook, register_multi_grad_hook, post-accumulate-
# grad hooks driving an optimizer step per parameter, non-reentrant checkpointing,
# inference_mode errors, and anomaly detection pointing at the op that produced a NaN.
import warnings

import torch
import torch.nn as nn
from torch.autograd.graph import register_multi_grad_hook
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
c = (a * b).sin().sum() + a.exp().mean()


def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or fn in seen:
        return
    seen.add(fn)
    print("  " * depth + fn.name())
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1, seen)


walk(c.grad_fn)
mul = c.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
print(mul.name(), type(mul._saved_self).__name__, torch.equal(mul._saved_other, b))
log = []
h1 = c.grad_fn.register_prehook(lambda grad_outputs: log.append(("pre", grad_outputs[0].item())))
h2 = mul.register_hook(lambda gi, go: log.append(("mul", [g.shape for g in gi])))
c.backward(retain_graph=True)
print(log)
h1.remove()
h2.remove()
print(a.grad)

x1 = torch.ones(2, requires_grad=True)
x2 = torch.ones(2, requires_grad=True)
seen = []
handle = register_multi_grad_hook((x1, x2), lambda grads: seen.append(
    [None if g is None else g.sum().item() for g in grads]))
((x1 * 3).sum() + (x2 * 5).sum()).backward()
(x1 * 2).sum().backward()
print(seen)
handle.remove()

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opts = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}


def step_hook(p):
    opts[p].step()
    opts[p].zero_grad()


for p in model.parameters():
    p.register_post_accumulate_grad_hook(step_hook)
data, target = torch.randn(16, 4), torch.randn(16, 1)
for it in range(5):
    loss = nn.functional.mse_loss(model(data), target)
    loss.backward()
    print(f"iter {it} loss {loss.item():.6f}", model[0].weight.grad is None)

block = nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Linear(4, 4))
inp = torch.randn(3, 4, requires_grad=True)
out_ckpt = checkpoint(block, inp, use_reentrant=False).pow(2).sum()
out_ckpt.backward()
g_ckpt = inp.grad.clone()
inp.grad = None
block(inp).pow(2).sum().backward()
print("checkpoint grads equal:", torch.allclose(g_ckpt, inp.grad))

with torch.inference_mode():
    inf_t = torch.ones(2) * 2
print(inf_t.is_inference(), inf_t.requires_grad)
try:
    w = torch.ones(2, requires_grad=True)
    (w * inf_t).sum().backward()
    print("ok mul with inference tensor", w.grad)
    inf_t.add_(1)
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])
try:
    inf_t.requires_grad_()
    (inf_t * inf_t).sum()
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        z = torch.tensor([0.0, 1.0], requires_grad=True)
        try:
            (z.sqrt() * 0).sum().backward()
            print(z.grad)
            bad = torch.tensor([-1.0, 4.0], requires_grad=True)
            torch.log(bad).sum().backward()
            print(bad.grad)
            y = torch.tensor([0.0], requires_grad=True)
            (y / y).sum().backward()
        except RuntimeError as e:
            print("RuntimeError:", str(e).split("\n")[0])
