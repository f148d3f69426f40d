# Models: the MaskedTensor Overview / Sparsity / Advanced semantics tutorials -- masked_tensor
# and as_masked_tensor construction and printing, unary and binary ops keeping the mask,
# torch.where, masked reductions with and without dim (fully masked -> masked result), softmax
# along a dim, and autograd through masked tensors (the "distinguishing 0 and NaN gradient"
# example: torch.where(mask, x, 0) gives NaN gradients, the masked version does not).
import warnings

import torch
from torch.masked import as_masked_tensor, masked_tensor

warnings.simplefilter("ignore", UserWarning)

# --- construction and printing
data = torch.arange(24).reshape(2, 3, 4)
mask = data % 2 == 0
print("data:\n", data)
print("mask:\n", mask)
mt = masked_tensor(data.float(), mask)
print("mt:\n", mt)
print(masked_tensor(data, mask))
print(masked_tensor(torch.tensor(3.5), torch.tensor(True)),
      masked_tensor(torch.tensor(1), torch.tensor(False)))
print(mt.shape, mt.dtype, mt.dim(), mt.is_sparse, mt.requires_grad)
print(mt.get_data().sum(), mt.get_mask().sum(), mt.to_tensor(-1.0)[0])

# --- reductions
x = torch.tensor([[0.0, 1, 2], [3, 4, 5.0]])
m = torch.tensor([[True, False, False], [False, False, False]])
mx = masked_tensor(x, m)
print("sum", mx.sum(), torch.sum(mx, 1), mx.sum(dim=0, keepdim=True))
print("mean", mx.mean(), torch.mean(mx, 0))
print("amax", mx.amax(), torch.amax(mx, 1), "amin", torch.amin(mx, 0))
print("argmax", mx.argmax(1), "argmin", torch.argmin(mx, 0))
print("prod", mx.prod(1), "all", (mx > 0).all(), (mx > -1).all(1))

# --- unary and binary ops
y = torch.tensor([[1.0, -2, 3], [-4, 5, -6]])
my = masked_tensor(y, y > 0)
print(torch.exp(my), my.abs(), -my, torch.log(my), my.sqrt(), torch.clamp(my, 0, 2))
print(my + my, my * 2, 1.5 * my, my / my, my - y, y * my, my > 2, torch.add(my, my))
try:
    my + masked_tensor(y, y < 0)
except ValueError as e:
    print("ValueError:", e)
for make in (lambda: masked_tensor(y, (y > 0).int()), lambda: masked_tensor(y, m[0]),
             lambda: masked_tensor([1.0], m)):
    try:
        make()
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)

# --- where and softmax
cond = y > 0
print(torch.where(cond, my, masked_tensor(torch.zeros_like(y), ~cond)))
scores = torch.tensor([[0.5, 2.0, -1.0, 3.0], [1.0, 1.0, 1.0, 1.0]])
smask = torch.tensor([[True, True, False, True], [False, False, True, True]])
print(torch.softmax(masked_tensor(scores, smask), -1))
print(torch.nn.functional.softmax(masked_tensor(scores, smask), dim=0))

# --- autograd: distinguishing 0 and NaN gradient
a = torch.tensor([-10.0, -5, 0, 5, 10, 50, 60, 70, 80, 90, 100], requires_grad=True)
amask = a < 0
b = torch.where(amask, torch.exp(a), torch.ones_like(a))
b.sum().backward()
print("plain grad:", a.grad)
ma = masked_tensor(a.detach(), amask, requires_grad=True)
mb = masked_tensor(torch.ones_like(a), ~amask, requires_grad=True)
z = torch.where(amask, torch.exp(ma), mb)
s = z.sum()
print("masked sum:", s)
s.backward()
print("ma.grad:", ma.grad)
print("mb.grad:", mb.grad)

w = masked_tensor(torch.tensor([1.5, -2.25, 0.0]), torch.tensor([True, True, False]),
                  requires_grad=True)
(w * w).sum().backward()
print("w.grad:", w.grad)
v = as_masked_tensor(torch.tensor([0.0, 1.0]), torch.tensor([True, False]))
print(v, v.sum())
