# Models: a training-stability post: clip_grad_norm_ with L2, L1 and inf norms, the returned
# total norm, foreach on and off, error_if_nonfinite with an inf gradient, clip_grad_value_,
# get_total_norm / clip_grads_with_norm_, and parameters without grads.
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm

torch.manual_seed(0)


def model_with_grads():
    m = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
    (m(torch.randn(8, 4)) * 10).pow(2).sum().backward()
    return m


for norm_type in (2.0, 1.0, float("inf"), 3):
    m = model_with_grads()
    total = clip_grad_norm_(m.parameters(), max_norm=1.0, norm_type=norm_type)
    after = torch.stack([p.grad.detach().norm(norm_type) for p in m.parameters()])
    print(norm_type, "total", total, "after", after.norm(norm_type))
m = model_with_grads()
t1 = clip_grad_norm_(m.parameters(), 5.0, foreach=False)
m2 = model_with_grads()
t2 = clip_grad_norm_(m2.parameters(), 5.0, foreach=True)
print("foreach totals", t1, t2)
m = model_with_grads()
clip_grad_value_(m.parameters(), 0.5)
print("value clipped max", max(p.grad.abs().max().item() for p in m.parameters()))
print(m[0].bias.grad)
m = model_with_grads()
m[0].weight.grad[0, 0] = float("inf")
try:
    clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print("without error", clip_grad_norm_(m.parameters(), 1.0))
m = model_with_grads()
grads = [p.grad for p in m.parameters()]
tn = get_total_norm(grads, norm_type=2.0)
clip_grads_with_norm_(m.parameters(), 2.0, tn)
print("total norm", tn, "after", get_total_norm([p.grad for p in m.parameters()]))
frozen = nn.Linear(3, 3)
print("no grads", clip_grad_norm_(frozen.parameters(), 1.0))
single = nn.Parameter(torch.tensor([3.0, 4.0]))
single.grad = torch.tensor([3.0, 4.0])
print("single tensor", clip_grad_norm_(single, 1.0), single.grad)
