# Models: what printing tensors in a debugging session shows: repr with grad_fn and
# requires_grad, Parameter repr, named-tensor-free dtype suffixes, repr of views of leaves,
# detach() repr, the grad_fn object's repr and name(), torch.Size repr and arithmetic, and
# nn.Parameter(requires_grad=False).
import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.tensor([1.5, -2.0], requires_grad=True)
print(w)
print(w * 2)
print(w.sum())
print(w[0])
print(w.view(2, 1))
print(w.detach())
print(w.double())
print(w > 0)
print(w.to(torch.float16) * 3)
print(torch.tensor([1, 2]) + 1)
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([], requires_grad=True))
print(torch.zeros(2, 0))
print(torch.tensor(3.5, requires_grad=True) ** 2)
p = nn.Parameter(torch.ones(2))
print(p)
print(nn.Parameter(torch.ones(1), requires_grad=False))
print(p * 1)
y = (w * w).mean()
print("grad_fn name", y.grad_fn.name(), type(y.grad_fn).__name__)
nxt = y.grad_fn.next_functions
print("next", [(type(f).__name__ if f is not None else None, i) for f, i in nxt])
acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
print("accumulate variable is w", acc.variable is w)
s = torch.Size([2, 3])
print(s, s + (4,), s[1:], s.numel(), len(s), s == (2, 3))
print(torch.randn(2, 3).shape, torch.randn(2, 3).size(1))
c = torch.complex(torch.tensor([1.0]), torch.tensor([-2.0])).requires_grad_()
print(c * 1j)
print(torch.tensor([1e-8, 1e8], requires_grad=True) * 1)
print(torch.tensor([[0.1234567, 100.0]], dtype=torch.float64).requires_grad_().exp())
with torch.no_grad():
    print(w * 2)
u = w.unbind(0)
print(u)
print(w.split(1))
print(torch.stack([w, w]).T)
print(torch.arange(3.0, requires_grad=True).cumsum(0))
print(w.clone())
print(w.abs().relu().sigmoid())
