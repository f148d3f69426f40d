# Models: the PyTorch tutorial "How to save memory by fusing the optimizer step into the backward
# pass": Tensor.register_post_accumulate_grad_hook running a per-parameter optimizer.step() and
# zero_grad inside backward, compared with the usual loop.
import torch
import torch.nn as nn

torch.manual_seed(0)


def make():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))


data = torch.randn(32, 8)
target = torch.randn(32, 1)

ref = make()
opt = torch.optim.Adam(ref.parameters(), lr=0.01)
for step in range(5):
    loss = nn.functional.mse_loss(ref(data), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"reference loss {loss.item():.6f}")

model = make()
optimizer_dict = {p: torch.optim.Adam([p], lr=0.01) for p in model.parameters()}
calls = []


def optimizer_hook(parameter) -> None:
    calls.append(tuple(parameter.shape))
    optimizer_dict[parameter].step()
    optimizer_dict[parameter].zero_grad()


handles = [p.register_post_accumulate_grad_hook(optimizer_hook) for p in model.parameters()]
for step in range(5):
    loss = nn.functional.mse_loss(model(data), target)
    loss.backward()
print(f"fused loss {loss.item():.6f}")
print(calls[:4])
print(len(calls))
print(all(p.grad is None for p in model.parameters()))
for (n, p), q in zip(model.named_parameters(), ref.parameters()):
    print(n, torch.allclose(p, q, atol=1e-6))
for h in handles:
    h.remove()
loss = nn.functional.mse_loss(model(data), target)
loss.backward()
print(len(calls), model[0].bias.grad.shape)

# hook on a leaf that accumulates twice
w = torch.ones(3, requires_grad=True)
seen = []
w.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
(w * 2).sum().backward()
(w * 3).sum().backward()
print(seen)
try:
    torch.ones(2, requires_grad=True).mul(2).register_post_accumulate_grad_hook(lambda p: None)
except RuntimeError as e:
    print(e)
