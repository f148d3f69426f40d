# Models: a well-known forum thread on NaN gradients through torch.where: the masked branch
# still produces NaN grads, the double-where fix, safe sqrt/log at zero, xlogy and
# special.entr for entropy, nan_to_num, clamp_min before division, and detect_anomaly naming
# the backward that produced NaN.
import torch

x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
y = torch.where(x > 0, x.sqrt(), torch.zeros_like(x))
y.sum().backward()
print("naive where grad", x.grad)
x.grad = None
safe_x = torch.where(x > 0, x, torch.ones_like(x))
y2 = torch.where(x > 0, safe_x.sqrt(), torch.zeros_like(x))
y2.sum().backward()
print("double where grad", x.grad)
p = torch.tensor([0.0, 0.25, 0.75], requires_grad=True)
h_naive = -(p * p.log()).sum()
h_naive.backward()
print("naive entropy", h_naive, p.grad)
p.grad = None
h = -torch.xlogy(p, p).sum()
h.backward()
print("xlogy entropy", h, p.grad)
p.grad = None
h2 = torch.special.entr(p).sum()
h2.backward()
print("entr", h2, p.grad)
n = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
print("nan_to_num", torch.nan_to_num(n), torch.nan_to_num(n, nan=0.0, posinf=1e3, neginf=-1e3))
v = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
norm = v.norm(dim=1, keepdim=True)
unit = v / norm.clamp_min(1e-12)
unit.sum().backward()
print("normalized", unit, v.grad)
z = torch.zeros(2, requires_grad=True)
z.norm().backward()
print("norm grad at zero", z.grad)
w = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    try:
        (w.sqrt() * 0).sum().backward()
        print("no error, grad", w.grad)
        w.grad = None
        torch.where(w > 0, w.log(), w).sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
print("isnan any", torch.isnan(torch.tensor([1.0, float("nan")])).any())
