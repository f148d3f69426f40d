# Models: a tensor-printing edge-case notebook for complex and extreme values: complex tensors in
# fixed and scientific notation, nan/inf in real and imaginary parts, int64 extremes, negative
# zero, empty complex tensors, 0-dim complex, and complex matrices with mixed magnitudes.
import torch

print(torch.tensor([1 + 2j, -0.5 - 0.25j]))
print(torch.tensor([1e-5 + 1j, 3e4 - 2e-3j]))
print(torch.tensor([1e10 + 1j, 1.0 + 0j]))
print(torch.tensor([complex(float("nan"), 1), complex(1, float("inf")),
                    complex(-float("inf"), -0.0)]))
print(torch.tensor([[1 + 1j, 200.5 - 3j], [0.001j, -7.0 + 0j]], dtype=torch.complex128))
print(torch.tensor(3 - 4j), torch.tensor(0j), torch.zeros(0, dtype=torch.complex64))
print(torch.tensor([-0.0, 0.0, -0.0 + 0j]))
print(torch.tensor([2 ** 63 - 1, -2 ** 63]), torch.tensor([2 ** 31, -5], dtype=torch.int64))
print(torch.tensor([1.0e-8, -1.0e-8]), torch.tensor([123456789012.0]))
print(torch.tensor([0.1 + 0.2j]).to(torch.complex128) * 3)
print(torch.view_as_complex(torch.arange(8.0).reshape(2, 2, 2)))
print(torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 3.14159265 / 2])))
torch.set_printoptions(precision=2, sci_mode=True)
print(torch.tensor([1 + 2j, 300 - 0.004j]))
torch.set_printoptions(profile="default")
print(repr(torch.tensor([1 + 1j], requires_grad=True) * 2))
