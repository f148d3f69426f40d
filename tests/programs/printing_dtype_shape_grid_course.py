# Models: a "know your tensors" course cell that prints one tensor of every common dtype in
# several shapes (0-d, empty, 1-d, 2-d, large and tiny magnitudes), with dtype, shape, stride,
# element size and nbytes.
import torch

dtypes = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
          torch.complex128]
base = torch.tensor([[0.0, 1.5, -2.25], [3.0, 100.125, -0.5]])
for dt in dtypes:
    t = base.to(dt)
    print(dt, t.shape, t.stride(), t.element_size(), t.nbytes, t.is_floating_point(),
          t.is_complex(), t.is_signed())
    print(t)
    print(t[0, 1], t[:0], t.flatten()[:2])
print(torch.tensor(3.5), torch.tensor(True), torch.tensor(-7))
print(torch.empty(0, 3), torch.zeros(2, 0, 4).shape)
print(torch.tensor([1e-8, 1.0, 1e8]))
print(torch.tensor([1e-5, 2e-5]))
print(torch.tensor([123456789.0, 0.5]))
print(torch.tensor([float("inf"), float("-inf"), float("nan"), 0.0]))
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.int64) * 1000000)
print(torch.arange(12).reshape(2, 3, 2))
print(torch.tensor([1.0, 2.0], dtype=torch.float16) / 3)
print(torch.tensor([1.0, 2.0], dtype=torch.bfloat16) / 3)
print(torch.linspace(0, 1, 5, dtype=torch.float64))
print(torch.full((2, 2), 7, dtype=torch.uint8), torch.tensor([-1], dtype=torch.int8))
print(torch.tensor([0.1, 0.2]).double(), torch.tensor([2**53], dtype=torch.float64))
print(torch.ones(2, 3, dtype=torch.complex64) * (1 - 2j))
print(repr(torch.tensor([1.0, 2.0], requires_grad=True)))
print(torch.randn(3, generator=torch.Generator().manual_seed(0)).to(torch.float16))
