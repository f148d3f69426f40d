# Models: a dtype-conversion lesson: float-to-int truncation, unsigned wrap-around, bool
# conversions, .to/.type/.type_as, result_type and can_cast, overflow to inf in half, integer
# division and remainder signs, iinfo/finfo limits and rounding modes.
import torch

x = torch.tensor([-2.7, -0.5, 0.0, 0.5, 1.5, 2.5, 3.99])
print("to int32", x.to(torch.int32))
print("trunc/floor/ceil/round", x.trunc(), x.floor(), x.ceil(), x.round())
print(
    "round decimals",
    torch.tensor([1.2345, -2.5678, 1234.5]).round(decimals=2),
    torch.tensor([1234.5]).round(decimals=-2),
)
print("to uint8 (in range)", torch.tensor([0.0, 127.9, 255.0]).to(torch.uint8))
print("int wrap to uint8", torch.tensor([-1, 256, 300, -129]).to(torch.uint8))
print("int wrap to int8", torch.tensor([127, 128, 255, -129]).to(torch.int8))
print(
    "bool",
    torch.tensor([0.0, -0.0, 0.1, float("nan")]).bool(),
    torch.tensor([0, 2, -1]).to(torch.bool),
)
print(
    "bool arithmetic",
    torch.tensor([True, False]) + torch.tensor([True, True]),
    torch.tensor([True]).sum().dtype,
)
print(
    "type strings", x.type(), x.int().type(), x.type(torch.float64).dtype, x.type("torch.IntTensor")
)
print("type_as", torch.tensor([1, 2]).type_as(x))
pairs = [
    (torch.int8, torch.uint8),
    (torch.int32, torch.float16),
    (torch.bool, torch.int8),
    (torch.float16, torch.bfloat16),
    (torch.int64, torch.float32),
    (torch.complex64, torch.float64),
    (torch.uint8, torch.int16),
]
for a, b in pairs:
    print(f"promote_types({a}, {b}) = {torch.promote_types(a, b)}")
print(
    "result_type",
    torch.result_type(torch.tensor([1], dtype=torch.int8), 1000),
    torch.result_type(torch.tensor(1), 2.5),
    torch.result_type(
        torch.tensor([1.0], dtype=torch.float16), torch.tensor(1.0, dtype=torch.float64)
    ),
)
for a, b in [
    (torch.float32, torch.int32),
    (torch.int32, torch.float32),
    (torch.float64, torch.float32),
    (torch.complex64, torch.float32),
    (torch.uint8, torch.bool),
]:
    print(f"can_cast({a}, {b}) = {torch.can_cast(a, b)}")
print(
    "half overflow",
    torch.tensor([60000.0, 70000.0, -1e6]).half(),
    torch.tensor([1e-8, 6e-8]).half(),
)
print("bfloat16 keeps range", torch.tensor([70000.0, 1e30]).bfloat16())
print(
    "int8 add overflow",
    torch.tensor([100], dtype=torch.int8) + torch.tensor([100], dtype=torch.int8),
)
print("uint8 subtract", torch.tensor([3], dtype=torch.uint8) - torch.tensor([5], dtype=torch.uint8))
a = torch.tensor([7, -7, 7, -7])
b = torch.tensor([2, 2, -2, -2])
print("// ", a // b, "fmod", torch.fmod(a, b), "remainder", torch.remainder(a, b), "%", a % b)
print(
    "div modes",
    torch.div(a, b),
    torch.div(a, b, rounding_mode="trunc"),
    torch.div(a, b, rounding_mode="floor"),
)
print(
    "true div dtype", (a / b).dtype, "int pow", torch.tensor([2]) ** 10, torch.tensor([2]) ** -1.0
)
for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    info = torch.iinfo(dt)
    print(dt, info.bits, info.min, info.max)
for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    fi = torch.finfo(dt)
    print(dt, fi.bits, fi.eps, fi.max, fi.tiny, fi.resolution)
print("int64 max + 1 wraps", torch.tensor([torch.iinfo(torch.int64).max]) + 1)
print(
    "float32 integer precision",
    torch.tensor([16777216.0, 16777217.0]),
    torch.tensor(16777217, dtype=torch.float32).long(),
)
print("nan to int", torch.tensor([float("inf"), float("-inf")]).to(torch.float16))
print("complex to real", torch.tensor([1 + 2j]).real, torch.view_as_real(torch.tensor([1 + 2j])))
print("clamp int with float bound", torch.tensor([1, 5, 9]).clamp(max=4.5))
print(
    "arange dtypes", torch.arange(3).dtype, torch.arange(3.0).dtype, torch.arange(0, 1, 0.25).dtype
)
print(
    "full dtypes",
    torch.full((1,), 2).dtype,
    torch.full((1,), True).dtype,
    torch.full((1,), 2.0).dtype,
)
print(
    "sum of uint8 and bool",
    torch.tensor([200, 100], dtype=torch.uint8).sum(),
    torch.tensor([True, True]).sum(),
)
print("mean of int raises?")
try:
    torch.tensor([1, 2]).mean()
except RuntimeError as e:
    print("RuntimeError:", e)
print("cumsum int8 dtype", torch.tensor([100, 100], dtype=torch.int8).cumsum(0))
print(
    "prod int32 dtype",
    torch.tensor([1000, 1000, 1000], dtype=torch.int32).prod(),
    torch.tensor([1000, 1000, 1000], dtype=torch.int32).prod().dtype,
)
