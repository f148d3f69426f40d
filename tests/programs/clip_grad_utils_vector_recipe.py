# Models: a training-loop recipe using torch.nn.utils: clip_grad_norm_ (with error_if_nonfinite,
# different norm types, foreach), clip_grad_value_, get_total_norm/clip_grads_with_norm_,
# parameters_to_vector / vector_to_parameters for a flat-parameter line search.
import torch
import torch.nn as nn
from torch.nn.utils import (
    clip_grad_norm_,
    clip_grad_value_,
    parameters_to_vector,
    vector_to_parameters,
)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
x, y = torch.randn(10, 4), torch.randn(10, 2)


def grads():
    model.zero_grad()
    (nn.functional.mse_loss(model(x), y) * 50).backward()


grads()
print("total norm", clip_grad_norm_(model.parameters(), max_norm=1.0))
print("after", torch.stack([p.grad.norm() for p in model.parameters()]).norm())
grads()
print("inf norm", clip_grad_norm_(model.parameters(), 0.5, norm_type="inf"))
print(model[2].bias.grad)
grads()
print("l1 norm", clip_grad_norm_(model.parameters(), 2.0, norm_type=1.0, foreach=True))
grads()
clip_grad_value_(model.parameters(), clip_value=0.1)
print(model[0].weight.grad[:2])
grads()
grs = [p.grad for p in model.parameters()]
tn = torch.nn.utils.get_total_norm(grs, norm_type=2.0)
print("get_total_norm", tn)
torch.nn.utils.clip_grads_with_norm_(model.parameters(), 1.0, tn)
print(model[2].weight.grad)

model[0].weight.grad[0, 0] = float("nan")
try:
    clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(e)
print(clip_grad_norm_(model.parameters(), 1.0))
print(clip_grad_norm_([], 1.0))

vec = parameters_to_vector(model.parameters())
print(vec.shape, vec.dtype)
print(vec[:5])
vector_to_parameters(vec * 0.5, model.parameters())
print(model[0].bias)
try:
    vector_to_parameters(vec[:-1].tolist(), model.parameters())
except TypeError as e:
    print(e)
