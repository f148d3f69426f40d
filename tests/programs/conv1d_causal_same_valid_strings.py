# Models: a time-series CNN tutorial: causal convolution by left padding, F.conv1d with
# padding="same"/"valid" strings, stride and dilation output lengths, groups for per-channel
# filters, conv1d on a moving-average kernel, and the gradient with respect to the filter.
import torch
import torch.nn.functional as F

t = torch.arange(10.0).reshape(1, 1, 10)
k = torch.tensor([[[0.5, 0.3, 0.2]]])
print("valid", F.conv1d(t, k, padding="valid"))
print("same", F.conv1d(t, k, padding="same"))
print("same dilation 2", F.conv1d(t, k, padding="same", dilation=2))
print("causal", F.conv1d(F.pad(t, (2, 0)), k))
print("causal dilated", F.conv1d(F.pad(t, (4, 0)), k, dilation=2))
for stride in [1, 2, 3]:
    print("stride", stride, F.conv1d(t, k, stride=stride).shape[-1])
avg = torch.full((1, 1, 4), 0.25)
print("moving average", F.conv1d(t, avg))
two = torch.stack([t[0, 0], -t[0, 0]]).unsqueeze(0)
per_chan = torch.tensor([[[1.0, -1.0]], [[0.5, 0.5]]])
print("groups=2", F.conv1d(two, per_chan, groups=2))
print("even kernel same", F.conv1d(t, torch.ones(1, 1, 4), padding="same"))
w = k.clone().requires_grad_()
out = F.conv1d(t, w, padding="same")
out.sum().backward()
print("filter grad", w.grad, out.grad_fn.name())
try:
    F.conv1d(t, k, padding="same", stride=2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.conv1d(t, torch.ones(1, 2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
