# Models: a debugging blog post "finding where the NaN came from": a NaN produced in backward by
# sqrt(0) and by log of a negative, caught with torch.autograd.detect_anomaly (the error names the
# backward node), set_detect_anomaly as a function, check_nan=False, the forward-trace warning,
# and the usual fixes (clamp, eps, where-trick with a safe branch).
import warnings

import torch

warnings.filterwarnings("ignore", message=".*Traceback of forward call.*")
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
y = torch.sqrt(x).sum()
y.backward()
print("sqrt at 0 gives inf grad silently", x.grad)
x.grad = None
z = torch.tensor([0.0, 1.0], requires_grad=True)
loss = (torch.sqrt(z) * 0).sum()
loss.backward()
print("0 * inf makes nan", z.grad)
z.grad = None
with torch.autograd.detect_anomaly():
    try:
        out = torch.sqrt(z) * 0
        out.sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
print("anomaly enabled outside", torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(True)
print("enabled", torch.is_anomaly_enabled(), "check_nan", torch.is_anomaly_check_nan_enabled())
a = torch.tensor([-1.0, 2.0], requires_grad=True)
try:
    torch.log(a).sum().backward()
    print("log of negative: forward nan, backward fine", a.grad)
except RuntimeError as e:
    print("RuntimeError:", e)
a.grad = None
b = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    (torch.pow(b - 1, 0.5) * torch.zeros(2)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
torch.autograd.set_detect_anomaly(False)
with torch.autograd.detect_anomaly(check_nan=False):
    c = torch.tensor([0.0], requires_grad=True)
    (torch.sqrt(c) * 0).sum().backward()
    print("check_nan=False lets the NaN through", c.grad, torch.is_anomaly_check_nan_enabled())
eps_fix = torch.tensor([0.0, 1.0], requires_grad=True)
(torch.sqrt(eps_fix + 1e-12) * 0).sum().backward()
print("eps fix", eps_fix.grad)
d = torch.tensor([0.0, 1.0], requires_grad=True)
safe = torch.where(d > 0, d, torch.ones_like(d))
r = torch.where(d > 0, torch.sqrt(safe), torch.zeros_like(d))
r.sum().backward()
print("double-where fix", d.grad)
e = torch.tensor([0.0, 1.0], requires_grad=True)
naive = torch.where(e > 0, torch.sqrt(e), torch.zeros_like(e))
naive.sum().backward()
print("single where still nan", e.grad)
n = torch.tensor([3.0, 4.0, 0.0, 0.0], requires_grad=True).view(2, 2)
norms = n.norm(dim=1)
norms.sum().backward()
print(
    "norm at zero vector grad",
    n.grad if n.grad is not None else "non-leaf",
    torch.tensor([0.0, 0.0], requires_grad=True).norm(),
)
m = torch.zeros(2, requires_grad=True)
m.norm().backward()
print("norm grad at 0 is", m.grad)
f = torch.tensor([1e-30], requires_grad=True)
(f.log() * 0 + f.log().exp()).backward()
print("tiny values", f.grad)
