# Models: everyday debugging prints: lists, tuples and dicts of tensors, nested containers,
# str versus repr, f-string format specs on 0-d tensors, tensors inside exception messages and
# logging-style %-formatting, and printing named parameters with grad_fn and requires_grad.
import torch

torch.manual_seed(0)
a = torch.tensor([1.0, 2.5])
b = torch.tensor([[1, 2], [3, 4]])
print([a, b])
print((a, torch.tensor(3)))
print({"w": a, "idx": b[0]})
print({"nested": [a, {"deep": torch.zeros(1, dtype=torch.bool)}]})
print(str(a), repr(a))
x = torch.tensor(3.14159)
print(f"{x:.3f} {x.item():e} {float(x):>10.2f}")
print("%s | %r | %.2f" % (a, b[0], x))  # noqa: UP031
w = torch.nn.Parameter(torch.ones(2))
print(w)
print([w * 2])
y = (w * a).sum()
print(y)
try:
    raise ValueError(f"bad tensor {a} with shape {a.shape}")
except ValueError as e:
    print("ValueError:", e)
print(torch.Size([2, 3]), list(torch.Size([2, 3])), torch.Size([]))
print(a.shape, tuple(b.shape), b.size(1), b.dtype, b.device, a.layout)
print(torch.float32, torch.int64, torch.device("cpu"), str(torch.bool))
lin = torch.nn.Linear(2, 1)
for name, p in lin.named_parameters():
    print(name, p.shape, p.requires_grad)
print(lin.weight.data.shape, type(lin.weight).__name__)
