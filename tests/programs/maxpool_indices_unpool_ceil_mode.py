# Models: a pooling quiz: MaxPool2d with return_indices, ceil_mode, padding and dilation, the
# flat indices it returns, MaxUnpool2d back to the input size, AdaptiveMaxPool with indices,
# AvgPool2d count_include_pad / divisor_override, LPPool, and the gradients of max pooling
# with ties.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(25.0).reshape(1, 1, 5, 5)
x[0, 0, 1, 1] = 100.0
pool = nn.MaxPool2d(2, stride=2, return_indices=True)
out, idx = pool(x)
print(out, idx, sep="\n")
print("ceil", nn.MaxPool2d(2, 2, ceil_mode=True)(x))
print("padded", nn.MaxPool2d(3, 2, padding=1)(x))
print("dilated", nn.MaxPool2d(2, 1, dilation=2)(x))
unpool = nn.MaxUnpool2d(2, stride=2)
print("unpool\n", unpool(out, idx, output_size=x.shape))
o2, i2 = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)(x)
print("adaptive", o2, i2, sep="\n")
print("avg include pad", nn.AvgPool2d(3, 2, padding=1)(x))
print("avg exclude pad", nn.AvgPool2d(3, 2, padding=1, count_include_pad=False)(x))
print("divisor", nn.AvgPool2d(2, divisor_override=1)(x))
print("avg ceil", nn.AvgPool2d(2, ceil_mode=True)(x))
print("lppool", nn.LPPool2d(2, 2)(x.abs()))
ties = torch.ones(1, 1, 4, 4, requires_grad=True)
F.max_pool2d(ties, 2).sum().backward()
print("tie grads\n", ties.grad)
y = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0]]], requires_grad=True)
o1, i1 = F.max_pool1d(y, 2, return_indices=True, ceil_mode=True)
print(o1, i1)
o1.sum().backward()
print(y.grad, o1.grad_fn.name())
print("unpool1d", F.max_unpool1d(o1.detach(), i1, 2, output_size=[5]))
try:
    nn.MaxPool2d(2, padding=2)(x)
except RuntimeError as e:
    print("RuntimeError:", e)
