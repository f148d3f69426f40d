# Models: the broadcasting-semantics note and NumPy-bridge notebooks: shapes that broadcast,
# in-place broadcasting rules, type promotion, and tensors sharing memory with arrays.
import numpy as np
import torch

x = torch.empty(5, 7, 3)
y = torch.empty(5, 7, 3)
print((x + y).size())
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())
x = torch.empty(1)
y = torch.empty(3, 1, 7)
print((x + y).size())
try:
    torch.empty(5, 2, 4, 1) + torch.empty(3, 1, 1)
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.empty(1, 3, 1)
y = torch.empty(3, 1, 7)
try:
    x.add_(y)
except RuntimeError as e:
    print("RuntimeError:", e)
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
print(i + f, (i + f).dtype, (i * 2).dtype, (i / 2).dtype, (i // 2), i.float().mean())
print(torch.tensor([1, 2], dtype=torch.int32) + torch.tensor(3), torch.tensor([True]) + 1)
print(torch.tensor([1.0], dtype=torch.float64) * torch.tensor([2.0]), 3 * torch.ones(2) ** 2)
a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
t[0, 0] = 100
print(a[0], t.numpy() is not None, torch.as_tensor(a).data_ptr() == t.data_ptr())
t2 = torch.tensor(a)
t2[0, 1] = -1
print(a[0], t2[0])
print(torch.from_numpy(np.array([1, 2], dtype=np.int16)).dtype, torch.tensor(np.float64(2.5)))
col = torch.arange(4.).view(4, 1)
row = torch.arange(3.)
print(col * row, (col - row).abs().max(dim=1))
print(torch.ones(2, 3).sum(dim=0, keepdim=True).shape, torch.ones(2, 1, 3).squeeze().shape)
m = torch.arange(6.).view(2, 3)
print(m - m.mean(dim=1, keepdim=True), m / m.sum(0))
print(np.asarray(torch.arange(3)), torch.arange(3).tolist(), torch.tensor(2.5).item())
