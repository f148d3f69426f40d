# Models: the "Bridge with NumPy" part of the PyTorch tutorials extended as in Stack Overflow
# answers -- from_numpy memory sharing both ways, .numpy() writes seen by the tensor,
# torch.as_tensor vs torch.tensor copying, dtype conversions between NumPy and torch dtypes,
# non-contiguous and negative-stride arrays, numpy scalars, and np.asarray(tensor).
import numpy as np
import torch

a = np.ones(5)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(a)
print(b)
b.mul_(2)
print(a, b.dtype)

t = torch.ones(5)
n = t.numpy()
t.add_(1)
print(t)
print(n)
n[0] = 10
print(t)

arr = np.arange(6, dtype=np.int32).reshape(2, 3)
shared = torch.as_tensor(arr)
copied = torch.tensor(arr)
arr[0, 0] = 100
print(shared, copied)
print(torch.as_tensor(arr, dtype=torch.float32))
print(shared.dtype, copied.dtype, torch.from_numpy(arr.astype(np.uint8)).dtype)

for np_dtype in [np.float16, np.float32, np.float64, np.int8, np.int16, np.int64, np.bool_,
                 np.complex64, np.complex128, np.uint8]:
    x = torch.from_numpy(np.zeros(2, dtype=np_dtype))
    print(np_dtype.__name__, x.dtype, x.numpy().dtype, x.element_size())

strided = np.arange(12.0).reshape(3, 4)[:, ::2]
ts = torch.from_numpy(strided)
print(ts, ts.stride(), ts.is_contiguous())
rev = np.arange(4.0)[::-1].copy()
print(torch.from_numpy(rev))
try:
    torch.from_numpy(np.arange(4.0)[::-1])
except ValueError as e:
    print("ValueError:", e)

x = torch.tensor(np.float64(2.5))
print(x, x.dtype, torch.tensor(np.int64(3)).dtype, torch.tensor([np.float32(1.5)]).dtype)
print(torch.tensor(np.array(True)), torch.tensor(np.array([1, 2], dtype=np.int16)))
print(torch.as_tensor([1, 2, 3]).dtype, torch.as_tensor([1.0, 2.0]).dtype)
y = torch.arange(6.).reshape(2, 3)
print(np.asarray(y).sum(), np.array(y.T).flags["C_CONTIGUOUS"], np.mean(y.numpy(), axis=0))
g = torch.ones(2, requires_grad=True)
try:
    g.numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
print(g.detach().numpy(), g.numpy(force=True))
z = torch.zeros(3)
z_np = z.numpy()
z_np += 5
print(z)
print(torch.from_numpy(np.zeros((2, 0))).shape, torch.zeros(0, 3).numpy().shape)
half = torch.tensor([1.5, 2.25], dtype=torch.float16)
print(half.numpy(), half.numpy().dtype, half.double().numpy())
m = np.random.RandomState(0).randn(3, 3).astype(np.float32)
tm = torch.from_numpy(m)
print(torch.linalg.det(tm), np.linalg.det(m).dtype)
print(tm.tolist()[0][:2], type(tm.sum().item()), tm.numpy().base is not None)
print(torch.from_numpy(np.array(7)).shape, torch.tensor([[1, 2]]).numpy().tolist())
