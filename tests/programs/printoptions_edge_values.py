# Models: a "why does my tensor print like that" FAQ: the scientific-notation switch, mixed
# inf/nan, tiny and huge magnitudes, integer-valued floats, negative zero, precision and
# linewidth settings, summarisation thresholds and edgeitems, half and bfloat16, complex.
import torch

cases = {
    "small and large": torch.tensor([1e-5, 1.0, 1e5]),
    "ratio under 1000": torch.tensor([0.001, 0.5, 0.9]),
    "ratio over 1000": torch.tensor([0.0001, 0.5, 2.0]),
    "all tiny": torch.tensor([1e-10, 2e-10, -3e-10]),
    "huge": torch.tensor([1e20, -2.5e21]),
    "integers as float": torch.tensor([1.0, -2.0, 300.0]),
    "big integers as float": torch.tensor([1e8, 2.0]),
    "inf nan": torch.tensor([float("inf"), float("-inf"), float("nan"), 1.5]),
    "only nan": torch.tensor([float("nan"), float("nan")]),
    "neg zero": torch.tensor([-0.0, 0.0, 1.0]),
    "one value": torch.tensor(3.14159265),
    "zero-d int": torch.tensor(-7),
    "empty": torch.empty(0, 3),
    "bool": torch.tensor([[True, False], [False, True]]),
    "uint8": torch.tensor([0, 128, 255], dtype=torch.uint8),
    "int16 negative": torch.tensor([-32768, 0, 32767], dtype=torch.int16),
    "half": torch.tensor([0.1, 1000.5, 65504.0], dtype=torch.float16),
    "bfloat16": torch.tensor([0.1, 1.0e10, -3.3], dtype=torch.bfloat16),
    "float64": torch.tensor([1 / 3, 2 / 3], dtype=torch.float64),
    "complex": torch.tensor([1 + 2j, -0.5 - 1e-4j, 3e5j]),
    "complex nan": torch.tensor([complex(float("nan"), 1.0), 1 + 0j]),
}
for name, t in cases.items():
    print(f"-- {name}")
    print(t)

torch.manual_seed(0)
big = torch.randn(30, 40)
print(big)
print(torch.arange(2000))
print(torch.arange(24.0).reshape(2, 3, 4) * 1e-3)
for kwargs in [
    dict(precision=2),
    dict(precision=8),
    dict(sci_mode=True),
    dict(sci_mode=False),
    dict(linewidth=40),
    dict(threshold=5, edgeitems=1),
    dict(profile="short"),
    dict(profile="full"),
]:
    torch.set_printoptions(**kwargs)
    print(kwargs)
    print(torch.tensor([[1e-5, 123.456, -7.0, 0.5, 2.25, 1e4]]))
    torch.set_printoptions(profile="default")
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-8, 1e8]))
torch.set_printoptions(profile="default")
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x * 2, (x * 2).sum())
print(torch.zeros(2, 2).to_sparse())
print(repr(torch.nn.Parameter(torch.ones(2))))
print(str(torch.tensor([1, 2])), f"{torch.tensor(2.5):.3f}", format(torch.tensor(7), "04d"))
