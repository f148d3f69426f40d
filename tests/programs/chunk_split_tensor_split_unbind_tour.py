# Models: a tensor-manipulation drill on splitting: chunk with uneven sizes, split by size and
# by list, tensor_split by sections and by indices, hsplit/vsplit/dsplit, unbind, the views they
# return (shared storage), gradients flowing back from pieces, and the errors.
import torch

x = torch.arange(10)
print("chunk 3", x.chunk(3))
print("chunk 4", torch.chunk(x, 4))
print("chunk 6 of 5", torch.arange(5).chunk(6))
print("split 4", x.split(4))
print("split list", x.split([1, 6, 3]))
print("tensor_split 3", torch.tensor_split(x, 3))
print("tensor_split 4", x.tensor_split(4))
print("tensor_split idx", torch.tensor_split(x, [2, 5, 5, 12]))
print("tensor_split tensor", torch.tensor_split(x, torch.tensor([3, 7])))
m = torch.arange(24).reshape(2, 3, 4)
print("hsplit", [t.shape for t in torch.hsplit(m, [1])])
print("vsplit", [t.shape for t in torch.vsplit(m, 2)])
print("dsplit", [t.shape for t in torch.dsplit(m, [1, 3])])
print("unbind", torch.unbind(m, 1)[2])
a, b = x.split(5)
a[0] = 100
print("shared storage", x[:3], a._base is x)
y = torch.arange(6.0, requires_grad=True)
p, q = y.chunk(2)
(p * 2 + q.pow(2)).sum().backward()
print("grad", y.grad, p.grad_fn.name())
r = torch.arange(6.0, requires_grad=True)
s1, s2 = r.split([2, 4])
(s1.sum() * 3 + s2.sum()).backward()
print("split grad", r.grad, s1.grad_fn.name())
u = torch.arange(6.0, requires_grad=True).reshape(2, 3)
u0, u1 = u.unbind(0)
print(u0.grad_fn.name())
for bad in [lambda: x.split([3, 3]),
            lambda: x.chunk(0),
            lambda: torch.hsplit(x.reshape(2, 5), 2),
            lambda: torch.dsplit(x, 2)]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
