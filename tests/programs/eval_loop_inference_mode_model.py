# Models: an evaluation harness running a small model under no_grad and inference_mode, printing
# output flags, caching features made in inference mode and the errors when they later enter a
# training graph, torch.autograd.grad with allow_unused/retain_graph, and grad_fn names of outputs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.LayerNorm(6), nn.GELU(), nn.Linear(6, 3))
x = torch.randn(5, 4)
y = torch.tensor([0, 2, 1, 1, 0])
out = model(x)
print("train out grad_fn", type(out.grad_fn).__name__, out.requires_grad)
with torch.no_grad():
    ev = model(x)
print("no_grad out", ev.requires_grad, ev.grad_fn, ev.is_leaf)
with torch.inference_mode():
    inf = model(x)
    acc = (inf.argmax(1) == y).float().mean()
print("inference out", inf.requires_grad, inf.is_inference(), "acc", acc.item())
print("equal outputs", torch.equal(ev, inf), torch.allclose(out.detach(), ev))
try:
    head = nn.Linear(3, 3)
    F.cross_entropy(head(inf), y).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
feat = inf.clone()
loss = F.cross_entropy(model[3](model[2](model[1](model[0](x)))) + feat, y)
loss.backward()
print("loss", round(loss.item(), 5), "grad norm", round(model[0].weight.grad.norm().item(), 5))
w = model[3].weight
loss2 = F.cross_entropy(model(x), y)
gw, gunused = torch.autograd.grad(
    loss2, [w, torch.ones(1, requires_grad=True)], allow_unused=True, retain_graph=True
)
print("grad shape", tuple(gw.shape), "unused", gunused)
gw2 = torch.autograd.grad(loss2, w, materialize_grads=False)[0]
print("same grad", torch.allclose(gw, gw2))
try:
    torch.autograd.grad(loss2, w)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad(F.cross_entropy(model(x), y), [w, torch.ones(1, requires_grad=True)])
except RuntimeError as e:
    print("RuntimeError:", e)
names = []
fn = F.cross_entropy(model(x), y).grad_fn
while fn is not None and len(names) < 8:
    names.append(type(fn).__name__)
    fn = fn.next_functions[0][0] if fn.next_functions else None
print("grad_fn chain", names)
model.eval()
with torch.inference_mode():
    probs = model(x).softmax(-1)
print("probs", probs)
print("probs sum", probs.sum(1))
