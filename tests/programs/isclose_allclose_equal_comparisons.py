# Models: a testing-utilities lesson: isclose with rtol/atol/equal_nan, allclose asymmetry,
# torch.equal on dtype and shape mismatches, eq/ne/lt with broadcasting and mixed dtypes,
# clamp with tensor bounds, and comparisons of integers with floats.
import torch

a = torch.tensor([1.0, 1.0001, float("nan"), float("inf"), 0.0])
b = torch.tensor([1.0, 1.0, float("nan"), float("inf"), 1e-9])
print("isclose", torch.isclose(a, b))
print("equal_nan", torch.isclose(a, b, equal_nan=True))
print("rtol 1e-3", torch.isclose(a, b, rtol=1e-3))
print("atol 0", torch.isclose(a, b, atol=0.0, rtol=0.0))
print("allclose", torch.allclose(a[:2], b[:2]), torch.allclose(a[:2], b[:2], rtol=1e-6))
print("asymmetric", torch.allclose(torch.tensor([10.0]), torch.tensor([11.0]), rtol=0.095),
      torch.allclose(torch.tensor([11.0]), torch.tensor([10.0]), rtol=0.095))
print("equal", torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])),
      torch.equal(torch.ones(2), torch.ones(1, 2)), torch.equal(torch.ones(2), torch.ones(2)))
m = torch.arange(6).reshape(2, 3)
print("eq broadcast", m == torch.tensor([0, 4, 2]))
print("lt float", m < 2.5, "ne", m.ne(1))
print("int vs float eq", torch.tensor([3]) == torch.tensor([3.0]), torch.tensor([16777217]) ==
      torch.tensor([16777216.0]))
print("clamp tensors", torch.clamp(torch.arange(5.0), min=torch.tensor(1.0),
                                    max=torch.tensor([4.0, 4.0, 1.5, 2.0, 3.0])))
print("clamp min>max", torch.clamp(torch.arange(3.0), min=2.0, max=1.0))
print("isin", torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])),
      torch.isin(torch.tensor([1, 2]), torch.tensor([2]), invert=True))
print("isclose ints", torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])))
try:
    torch.isclose(torch.tensor([1.0]), torch.tensor([1]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.clamp(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
