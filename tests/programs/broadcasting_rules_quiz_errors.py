# Models: a broadcasting quiz from a course: broadcast_shapes, broadcast_tensors, expand and
# expand_as, broadcast_to, which in-place ops may broadcast, shapes of results of mixed ops,
# and the error messages for incompatible shapes.
import torch

print(torch.broadcast_shapes((3, 1), (1, 4)), torch.broadcast_shapes((2, 1, 3), (5, 1), (3,)))
a, b = torch.broadcast_tensors(torch.arange(3).reshape(3, 1), torch.arange(4))
print(a, b, a.stride(), b.stride(), sep="\n")
x = torch.tensor([[1.0], [2.0]])
print(x.expand(2, 3), x.expand(-1, 2), x.expand(3, 2, 4).shape)
print(torch.broadcast_to(torch.tensor([1, 2]), (3, 2)))
print(torch.ones(3).expand_as(torch.zeros(2, 3)))
print((torch.ones(2, 1, 3) + torch.ones(4, 1)).shape)
print((torch.ones(5, 1) * torch.arange(3)).shape, (torch.ones(()) - torch.ones(2, 2)).shape)
y = torch.zeros(2, 3)
y += torch.tensor([1.0, 2.0, 3.0])
print("in-place broadcast ok", y)
print(torch.where(torch.tensor([True, False]).unsqueeze(1), torch.ones(3), torch.zeros(2, 1)))
print(torch.arange(6).reshape(2, 3) @ torch.ones(3, dtype=torch.long))
print(torch.matmul(torch.ones(4, 2, 3), torch.ones(3, 5)).shape,
      torch.matmul(torch.ones(2, 1, 2, 3), torch.ones(5, 3, 1)).shape)
e = x.expand(2, 3)
print("expanded is_contiguous", e.is_contiguous(), e.contiguous().stride())
for bad in [lambda: torch.ones(2, 3) + torch.ones(3, 2),
            lambda: torch.broadcast_shapes((2, 3), (4,)),
            lambda: torch.ones(3).add_(torch.ones(2, 3)),
            lambda: torch.ones(2, 3).expand(3, 3),
            lambda: torch.ones(2, 3).expand(3),
            lambda: torch.broadcast_to(torch.ones(3), (2,)),
            lambda: e.add_(1),
            lambda: torch.matmul(torch.ones(2, 3), torch.ones(2, 3))]:
    try:
        bad()
    except RuntimeError as err:
        print("RuntimeError:", err)
