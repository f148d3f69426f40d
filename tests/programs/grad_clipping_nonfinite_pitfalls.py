# Models: the gradient-handling pitfalls section of a training FAQ: clip_grad_norm_ returning
# the total norm (inf/nan grads with error_if_nonfinite), clip_grad_value_, get_total_norm /
# clip_grads_with_norm_, zero_grad(set_to_none) leaving None grads that optimizers skip,
# gradients accumulating across backward calls when one forgets zero_grad, .data updates,
# and the "leaf Variable moved into the graph interior" / "grad can be implicitly created
# only for scalar outputs" errors.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(5, 3)
loss = model(x).pow(2).mean()
loss.backward()
norms = [p.grad.norm() for p in model.parameters()]
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
print("total norm", total, torch.stack(norms).norm())
print("after clip", torch.stack([p.grad.norm() for p in model.parameters()]).norm())
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print("max |g| after value clip", max(p.grad.abs().max().item() for p in model.parameters()))
grads = [p.grad for p in model.parameters()]
tn = nn.utils.get_total_norm(grads, norm_type=2.0)
print("get_total_norm", tn)
nn.utils.clip_grads_with_norm_(model.parameters(), max_norm=0.005, total_norm=tn)
print("clip_grads_with_norm_", nn.utils.get_total_norm([p.grad for p in model.parameters()]))

model[0].weight.grad[0, 0] = float("inf")
print("inf norm", nn.utils.clip_grad_norm_(model.parameters(), 1.0))
try:
    nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
model[0].weight.grad[0, 0] = float("nan")
print("nan norm", nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type=1.0))

model.zero_grad()
print([p.grad for p in model.parameters()][:2])
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model[2](torch.randn(2, 4)).sum().backward()
before = model[0].weight.clone()
opt.step()
print(
    "layer 0 untouched (grad None):",
    torch.equal(before, model[0].weight),
    model[0].weight.grad is None,
)
print("state only for stepped params:", len(opt.state))

w = torch.ones(2, requires_grad=True)
for i in range(3):
    (w * 2).sum().backward()
print("accumulated without zero_grad", w.grad)
w.grad.zero_()
(w * 2).sum().backward()
print("after zero_", w.grad)
w.data.mul_(10)
print("data update keeps grad_fn None:", w, w.grad_fn)

a = torch.randn(3, requires_grad=True)
try:
    (a * 2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
b = a * 2
try:
    b.grad.zero_()
except AttributeError as e:
    print("AttributeError:", e)
try:
    nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type="fro")
except Exception as e:
    print(type(e).__name__, str(e)[:80])
print(nn.utils.clip_grad_norm_([], 1.0))
