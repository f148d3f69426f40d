# Models: "ways to make a tensor" exercises: tensor vs as_tensor vs from_numpy memory sharing,
# zeros/ones/full/empty(_like) with dtype inference, eye/arange/linspace/logspace edge cases
# (float steps, endpoints, dtype rules), tensors from nested lists/tuples/ranges/numpy scalars,
# frombuffer, clone/new_* methods, and complex/bool factories.
import array

import numpy as np
import torch

a = np.arange(4.0)
t1, t2, t3 = torch.tensor(a), torch.as_tensor(a), torch.from_numpy(a)
a[0] = 100.0
print(
    "tensor copies / as_tensor shares / from_numpy shares:",
    t1[0].item(),
    t2[0].item(),
    t3[0].item(),
)
print(
    "as_tensor with dtype copies",
    torch.as_tensor(a, dtype=torch.float32)[0].item(),
    torch.as_tensor(t3) is t3,
)
print(
    "full dtype inference",
    torch.full((2,), 7).dtype,
    torch.full((2,), 7.0).dtype,
    torch.full((2,), True).dtype,
    torch.full((1,), 1j).dtype,
)
print("zeros/ones", torch.zeros(2, 3, dtype=torch.int16), torch.ones((2,)), torch.zeros([]).shape)
print(
    "empty shapes",
    torch.empty(0).shape,
    torch.empty(2, 0, 3).numel(),
    torch.empty_like(torch.ones(2, dtype=torch.int8)).dtype,
)
x = torch.randn(2, 3, dtype=torch.float64)
print(
    "*_like",
    torch.zeros_like(x).dtype,
    torch.ones_like(x, dtype=torch.int32),
    torch.full_like(x, 2.5)[0],
    torch.rand_like(x).shape,
)
print(
    "new_*",
    x.new_zeros(2),
    x.new_ones((1, 2)).dtype,
    x.new_full((2,), 3),
    x.new_tensor([1, 2]).dtype,
    x.new_empty(3).shape,
)
print("eye", torch.eye(3, 2), torch.eye(2, dtype=torch.bool))
print(
    "arange",
    torch.arange(5),
    torch.arange(1, 4),
    torch.arange(0, 1, 0.25),
    torch.arange(0.0, 1.0, 0.1).shape,
    torch.arange(-3, 3, 2),
)
print(
    "arange dtype",
    torch.arange(3).dtype,
    torch.arange(3.0).dtype,
    torch.arange(0, 3, 0.5).dtype,
    torch.arange(5, dtype=torch.uint8),
)
print("arange float steps count", torch.arange(1.0, 1.3, 0.1).shape, torch.arange(0, 0.3, 0.1))
print(
    "linspace",
    torch.linspace(0, 1, 5),
    torch.linspace(-1, 1, 1),
    torch.linspace(0, 10, 4, dtype=torch.int64),
)
print("logspace", torch.logspace(0, 3, 4), torch.logspace(0, 1, 3, base=2))
print(
    "from nested lists",
    torch.tensor([[1, 2], [3, 4]]).shape,
    torch.tensor(((1.5,), (2.5,))).shape,
    torch.tensor(range(4)),
)
print(
    "numpy scalars",
    torch.tensor(np.float32(1.5)).dtype,
    torch.tensor(np.int16(3)).dtype,
    torch.tensor([np.float64(1.0), 2]).dtype,
)
print("list of 0-d tensors", torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
print("mixed bool int float", torch.tensor([True, 1, 2.5]), torch.tensor([True, False]).dtype)
print(
    "frombuffer",
    torch.frombuffer(bytearray(b"\x01\x02\x03\x04"), dtype=torch.uint8),
    torch.frombuffer(array.array("i", [7, 8]), dtype=torch.int32),
)
print(
    "complex factories",
    torch.complex(torch.tensor([1.0]), torch.tensor([2.0])),
    torch.polar(torch.tensor([2.0]), torch.tensor([0.0])),
    torch.zeros(1, dtype=torch.cfloat),
)
print(
    "clone keeps strides",
    x.t().clone().stride(),
    x.t().clone(memory_format=torch.contiguous_format).stride(),
)
print("tril/triu_indices", torch.tril_indices(3, 3), torch.triu_indices(2, 3, 1))
print("heaviside", torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)))
print("scalar_tensor", torch.scalar_tensor(3), torch.scalar_tensor(True).dtype)
print("tensor from tensor warns? clone", torch.tensor(x.numpy()).shape)
for bad in [
    lambda: torch.tensor([[1, 2], [3]]),
    lambda: torch.arange(0, 10, 0),
    lambda: torch.linspace(0, 1, -2),
    lambda: torch.full((2,), "a"),
    lambda: torch.eye(-1),
    lambda: torch.zeros(-1),
    lambda: torch.tensor([1, "a"]),
    lambda: torch.from_numpy(np.array(["a"])),
    lambda: torch.empty(2, 3).view(7),
]:
    try:
        bad()
    except (RuntimeError, TypeError, ValueError) as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])
