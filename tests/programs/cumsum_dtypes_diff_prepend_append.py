# Models: a prefix-sum exercise sheet: cumsum of int8/uint8/bool promoting to int64, the dtype
# argument, cumprod of integers overflowing, diff with n, prepend and append, cumsum on dims and
# flipped for suffix sums, and cummax indices with ties.
import torch

i8 = torch.tensor([100, 100, 100], dtype=torch.int8)
print("cumsum int8", i8.cumsum(0), i8.cumsum(0).dtype)
print("cumsum dtype int8", i8.cumsum(0, dtype=torch.int8))
print("cumsum bool", torch.tensor([True, True, False, True]).cumsum(0))
print("cumsum uint8", torch.tensor([200, 100], dtype=torch.uint8).cumsum(0).dtype)
print("cumsum float dtype", torch.arange(5).cumsum(0, dtype=torch.float32))
print("cumprod int", torch.arange(1, 25).cumprod(0)[-5:])
print("cumprod int32 overflow", torch.arange(1, 15, dtype=torch.int32).cumprod(0)[-3:])
x = torch.tensor([1, 4, 9, 16, 25])
print("diff", x.diff(), torch.diff(x, n=2), torch.diff(x, n=3))
print("prepend/append", torch.diff(x, prepend=torch.tensor([0]), append=torch.tensor([30, 40])))
m = torch.arange(12).reshape(3, 4)
print("diff dim0\n", torch.diff(m, dim=0))
print("cumsum dim1\n", m.cumsum(1))
print("suffix sums", m.flip(1).cumsum(1).flip(1))
v, i = torch.cummax(torch.tensor([1, 3, 3, 2, 5, 5]), 0)
print("cummax", v, i)
v, i = torch.cummin(torch.tensor([3.0, 1.0, 1.0, 2.0, 0.5]), 0)
print("cummin", v, i)
print("cumulative_trapezoid", torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 4.0, 8.0])))
print("logcumsumexp", torch.logcumsumexp(torch.tensor([0.0, 0.0, 0.0]), 0))
y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y.cumprod(0).sum().backward()
print("cumprod grad", y.grad)
try:
    torch.diff(x, prepend=torch.tensor([[0]]))
except RuntimeError as e:
    print("RuntimeError:", e)
