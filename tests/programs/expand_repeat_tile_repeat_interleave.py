# Models: a "which one copies?" tensor lesson: expand (a view, stride 0) versus repeat and tile
# (copies), repeat_interleave with an int, a tensor of repeats, dim and output_size, storage
# sharing checks, and the gradients each one sends back.
import torch

x = torch.tensor([[1, 2, 3]])
e = x.expand(3, 3)
print("expand", e, e.stride(), e.data_ptr() == x.data_ptr())
r = x.repeat(2, 2)
print("repeat", r, r.stride())
print("repeat extra dims", x.repeat(2, 1, 1).shape)
print("tile", torch.tile(x, (2,)), torch.tile(torch.tensor([1, 2]), (2, 2)))
print("repeat_interleave int", torch.repeat_interleave(torch.tensor([1, 2, 3]), 2))
reps = torch.tensor([1, 0, 3])
print("repeat_interleave tensor", torch.tensor([1, 2, 3]).repeat_interleave(reps))
m = torch.arange(6).reshape(2, 3)
print("dim=0", m.repeat_interleave(2, dim=0))
print("dim=1 tensor", m.repeat_interleave(torch.tensor([2, 1, 0]), dim=1))
print("output_size", torch.repeat_interleave(torch.tensor([5, 6]), torch.tensor([2, 3]),
                                             output_size=5))
print("counts only", torch.repeat_interleave(torch.tensor([2, 0, 1])))
g = torch.tensor([1.0, 2.0], requires_grad=True)
(g.expand(3, 2) * torch.arange(6.0).reshape(3, 2)).sum().backward()
print("expand grad", g.grad)
g.grad = None
g.repeat(3).mul(torch.arange(6.0)).sum().backward()
print("repeat grad", g.grad)
g.grad = None
g.repeat_interleave(3).mul(torch.arange(6.0)).sum().backward()
print("repeat_interleave grad", g.grad)
y = torch.zeros(1, 3).expand(2, 3)
try:
    y.add_(1)
except RuntimeError as e_:
    print("RuntimeError:", e_)
try:
    x.repeat(2)
except RuntimeError as e_:
    print("RuntimeError:", e_)
try:
    torch.tensor([1, 2]).repeat_interleave(torch.tensor([1, 2, 3]))
except RuntimeError as e_:
    print("RuntimeError:", e_)
