# Models: an autograd lesson on graph lifetime and accumulation: retain_graph for two backward
# passes, gradient accumulation across calls, zero_grad(set_to_none) vs zeroing, a shared
# subgraph used by two losses, retain_grad on a non-leaf across several backward calls, and the
# in-place broadcasting errors beginners meet while accumulating by hand.
import torch

torch.manual_seed(59)
w = torch.randn(3, requires_grad=True)
h = (w * 2).exp()
loss1 = h.sum()
loss2 = (h**2).mean()
loss1.backward(retain_graph=True)
print("after loss1", w.grad)
loss2.backward()
print("accumulated loss1 + loss2", w.grad)
w2 = w.detach().clone().requires_grad_(True)
hh = (w2 * 2).exp()
(hh.sum() + (hh**2).mean()).backward()
print("same as one backward of the sum", torch.allclose(w.grad, w2.grad))
try:
    loss2.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 3)
y = torch.randn(8, 1)
for xb, yb in zip(x.split(4), y.split(4)):
    ((model(xb) - yb) ** 2).mean().div(2).backward()
acc = model.weight.grad.clone()
opt.zero_grad(set_to_none=False)
print("zeroed not None", model.weight.grad)
((model(x) - y) ** 2).mean().backward()
print("accumulated micro-batches == full batch", torch.allclose(acc, model.weight.grad, atol=1e-6))
opt.zero_grad()
print("set_to_none default", model.weight.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
mid = a * 3
mid.retain_grad()
(mid**2).sum().backward(retain_graph=True)
print("retained grad first", mid.grad)
(mid * 10).sum().backward()
print("retained grad accumulates", mid.grad, "leaf", a.grad)
g = torch.zeros(3)
try:
    g += torch.ones(2, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(3).add_(torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(1, 3).mul_(torch.ones(2, 1))
except RuntimeError as e:
    print("RuntimeError:", e)
ok = torch.zeros(2, 3)
ok += torch.ones(3)
print("broadcasting the other way is fine", ok)
p = torch.ones(2, requires_grad=True)
for step in range(3):
    (p * (step + 1)).sum().backward()
    print(f"step {step} grad {p.grad.tolist()}")
p.grad.zero_()
print("zero_ in place keeps the tensor", p.grad, p.grad.requires_grad)
