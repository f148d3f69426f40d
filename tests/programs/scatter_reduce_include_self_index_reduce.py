# Models: a graph-pooling utility test: scatter_add_ on ints, scatter_ with reduce="add" and
# "multiply", scatter_reduce sum/prod/mean/amax/amin with include_self True and False on floats
# and ints, index_reduce, index_add_ with alpha, and their gradients.
import torch

src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
index = torch.tensor([0, 1, 0, 1, 2, 1])
base = torch.tensor([10.0, 20.0, 30.0, 40.0])
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        print(reduce, inc, base.scatter_reduce(0, index, src, reduce, include_self=inc))
ints = torch.tensor([5, 7, 9, 11])
print("int mean", ints.scatter_reduce(0, torch.tensor([0, 0, 1, 1]), torch.tensor([1, 2, 4, 5]),
                                      "mean"))
print("int mean excl", ints.scatter_reduce(0, torch.tensor([0, 0, 1, 1]),
                                           torch.tensor([1, 2, 4, 5]), "mean", include_self=False))
two = torch.tensor([2.0, 3.0])
print("scatter_add_ int", torch.zeros(3, dtype=torch.long).scatter_add_(
    0, torch.tensor([0, 2, 0]), torch.tensor([5, 6, 7])))
print("scatter reduce add", torch.ones(3).scatter_(0, torch.tensor([0, 0]), two, reduce="add"))
print("scatter reduce multiply", torch.ones(3).scatter_(0, torch.tensor([1, 1]), two,
                                                        reduce="multiply"))
print("scatter value", torch.zeros(2, 3).scatter_(1, torch.tensor([[2], [0]]), 9.0))
m = torch.ones(3, 2)
rows3 = torch.tensor([[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]])
print("index_reduce prod", m.index_reduce(0, torch.tensor([0, 0, 2]), rows3, "prod"))
mixed = torch.tensor([[2.0, -3.0], [4.0, -5.0], [0.5, 0.5]])
print("index_reduce amax excl", m.index_reduce(0, torch.tensor([1, 1, 2]), mixed, "amax",
                                               include_self=False))
print("index_add alpha", torch.zeros(3).index_add_(0, torch.tensor([0, 2]),
                                                   torch.tensor([1.0, 2.0]), alpha=-3))
s = src.clone().requires_grad_()
out = base.scatter_reduce(0, index, s, "prod")
out.sum().backward()
print("prod grad", s.grad, out.grad_fn.name())
s2 = src.clone().requires_grad_()
torch.zeros(4).scatter_reduce(0, index, s2, "mean", include_self=False).sum().backward()
print("mean grad", s2.grad)
try:
    base.scatter_reduce(0, index, src, "max")
except RuntimeError as e:
    print("RuntimeError:", e)
