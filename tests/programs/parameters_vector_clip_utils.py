# Models: nn.utils helpers used in trainers: parameters_to_vector / vector_to_parameters,
# clip_grad_norm_ (total norm returned, inf norm, error_if_nonfinite), clip_grad_value_,
# get_total_norm / clip_grads_with_norm_, and their printed results on a small model.
import torch
import torch.nn as nn
from torch.nn.utils import (
    clip_grad_norm_,
    clip_grad_value_,
    parameters_to_vector,
    vector_to_parameters,
)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
vec = parameters_to_vector(model.parameters())
print("vector", vec.shape, vec[:5])
vector_to_parameters(torch.arange(vec.numel(), dtype=torch.float32) / 100, model.parameters())
print("first weight", model[0].weight)
print("last bias", model[2].bias)
try:
    vector_to_parameters(torch.zeros(3), model.parameters())
except Exception as e:
    print(type(e).__name__ + ":", e)
x = torch.randn(8, 3)
loss = model(x).pow(2).sum() * 10
loss.backward()
grads = [p.grad.clone() for p in model.parameters()]
total = clip_grad_norm_(model.parameters(), max_norm=1.0)
print("total norm", total)
print("clipped norm", torch.norm(torch.stack([p.grad.norm() for p in model.parameters()])))
for p, g in zip(model.parameters(), grads):
    p.grad = g.clone()
print("inf norm", clip_grad_norm_(model.parameters(), 0.5, norm_type="inf"))
print("max abs after", max(p.grad.abs().max().item() for p in model.parameters()))
for p, g in zip(model.parameters(), grads):
    p.grad = g.clone()
clip_grad_value_(model.parameters(), 0.1)
print("value clipped", model[2].weight.grad)
print("zero-norm", clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0))
bad = nn.Parameter(torch.ones(2))
bad.grad = torch.tensor([float("nan"), 1.0])
print("nan total", clip_grad_norm_([bad], 1.0))
try:
    clip_grad_norm_([bad], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
for p, g in zip(model.parameters(), grads):
    p.grad = g.clone()
tn = torch.nn.utils.get_total_norm([p.grad for p in model.parameters()], norm_type=2.0)
print("get_total_norm", tn)
torch.nn.utils.clip_grads_with_norm_(model.parameters(), 2.0, tn)
print(
    "after clip_grads_with_norm_",
    torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]),
)
print("l1 total", clip_grad_norm_(model.parameters(), 100.0, norm_type=1))
