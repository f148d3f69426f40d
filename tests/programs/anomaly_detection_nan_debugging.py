# Models: debugging NaN losses as forum threads walk through it: torch.isfinite checks,
# nan_to_num, register_hook to find where gradients blow up, torch.autograd.detect_anomaly
# catching a NaN-producing backward (sqrt at 0, log of 0), safe-norm and log-sum-exp rewrites,
# clip_grad_norm_ with error_if_nonfinite, and float64 re-runs.
import warnings

import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
y = torch.sqrt(x).sum()
y.backward()
print(x.grad, torch.isfinite(x.grad))
x.grad = None
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        with torch.autograd.detect_anomaly():
            z = (torch.sqrt(x) * 0).sum()
            z.backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
print(torch.is_anomaly_enabled())
v = torch.zeros(3, requires_grad=True)
v.norm().backward()
print("norm at 0 grad", v.grad)
v.grad = None
safe = torch.sqrt((v ** 2).sum() + 1e-12)
safe.backward()
print("safe norm grad", v.grad)
logits = torch.tensor([1000.0, 1001.0, 999.0])
print(torch.log(torch.exp(logits).sum()), torch.logsumexp(logits, 0))
p = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
ent = -(p * torch.log(p)).sum()
print(ent)
ent2 = -torch.special.xlogy(p, p).sum()
ent2.backward()
print(ent2, p.grad)
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])))
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf")]), nan=0.0, posinf=1e4))
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
grads = {}
for name, prm in net.named_parameters():
    prm.register_hook(lambda g, name=name: grads.__setitem__(name, g.abs().max().item()))
inp = torch.tensor([[1e20, -1e20, 3.0]])
out = net(inp)
out.sum().backward()
print(out, {k: v for k, v in sorted(grads.items())})
bad = [n for n, q in net.named_parameters() if not torch.isfinite(q.grad).all()]
print("non-finite grads in", bad)
net[0].weight.grad[0, 0] = float("nan")
try:
    nn.utils.clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
total = nn.utils.clip_grad_norm_(net.parameters(), 1.0)
print(total, net[2].weight.grad)
a = torch.tensor([1e-8, 1.0], dtype=torch.float32)
print((1 + a) - 1, (1 + a.double()) - 1)
print(torch.tensor(16777217.0), torch.tensor(16777217.0, dtype=torch.float64))
print(torch.tensor([1e38]) * 10, torch.tensor([1e-45]) / 10, torch.tensor(0.0) / 0.0)
print(torch.finfo(torch.float32).eps, torch.tensor(1.0) + torch.finfo(torch.float32).eps / 2)
with torch.autograd.set_detect_anomaly(True):
    w = torch.ones(2, requires_grad=True)
    (w * 2).sum().backward()
print(w.grad, torch.is_anomaly_enabled())
