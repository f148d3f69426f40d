# Models: a "numeric types pitfalls" drill sheet: int8/int16/int32/uint8 overflow on add, mul,
# sum and cumsum, abs and neg of the minimum integer, float-to-int conversion of in-range values
# (truncation toward zero), int64 precision of large floats, float16/bfloat16 integer spacing,
# division and pow on integers, and clamp before casting.
import torch

i8 = torch.tensor([100, -100, 127, -128], dtype=torch.int8)
print("int8 + 100", i8 + torch.tensor(100, dtype=torch.int8))
print("int8 * 2", i8 * 2)
print(
    "int8 sum (promotes to int64)",
    i8.sum(),
    i8.sum().dtype,
    "cumsum",
    i8.cumsum(0),
    i8.cumsum(0).dtype,
)
print("int8 sum with dtype", i8.sum(dtype=torch.int8))
print(
    "abs/neg of min",
    torch.tensor([-128], dtype=torch.int8).abs(),
    -torch.tensor([-128], dtype=torch.int8),
)
i16 = torch.tensor([30000, -30000], dtype=torch.int16)
print("int16 overflow", i16 + i16, i16 * 3)
i32 = torch.tensor([2**31 - 1, -(2**31)], dtype=torch.int32)
print("int32 wrap", i32 + 1, i32 - 1, i32 * 2)
u8 = torch.tensor([0, 1, 255], dtype=torch.uint8)
print("uint8 wrap", u8 - 1, u8 + 1, u8 * 255, -u8)
print("uint8 sum", u8.sum(), u8.sum().dtype, u8.prod(), u8.float().mean())
f = torch.tensor([2.7, -2.7, 0.5, -0.5, 126.9, -127.9])
print(
    "to int8",
    f.to(torch.int8),
    "to int64",
    f.long(),
    "to uint8 of positives",
    f.abs().to(torch.uint8),
)
print("round then cast", f.round().to(torch.int32))
big = torch.tensor([2.0**53, 2.0**53 + 1, 2.0**60], dtype=torch.float64)
print("float64 -> int64", big.long(), big.long() - 2**53)
print(
    "float32 can't hold",
    torch.tensor([16777217.0]),
    torch.tensor(16777217, dtype=torch.int64).float().long(),
)
print("float16 spacing", torch.tensor([2048.0, 2049.0, 2050.0, 4097.0], dtype=torch.float16))
print("bfloat16 spacing", torch.tensor([256.0, 257.0, 258.0, 1000.0], dtype=torch.bfloat16))
print(
    "float16 overflow",
    torch.tensor([60000.0], dtype=torch.float16) * 2,
    torch.tensor([70000.0]).half(),
)
print(
    "integer pow",
    torch.tensor([2, 3, -2]) ** 3,
    torch.tensor([2]) ** torch.tensor([62]),
    torch.tensor([3], dtype=torch.int8) ** 5,
)
try:
    torch.tensor([2]) ** -1
except RuntimeError as e:
    print("RuntimeError:", e)
print("float pow on ints", torch.tensor([4, 9]) ** 0.5, torch.pow(2, torch.tensor([-1, 0, 1])))
print(
    "clamp before cast",
    f.clamp(-128, 127).to(torch.int8),
    torch.tensor([300.0, -300.0]).clamp(0, 255).to(torch.uint8),
)
print("bool from float", torch.tensor([0.0, -0.0, 0.1, float("nan")]).bool())
print("int from bool", torch.tensor([True, False]).long().sum())
print(
    "mixed int8+uint8 ->",
    (torch.tensor([1], dtype=torch.int8) + torch.tensor([1], dtype=torch.uint8)).dtype,
)
print("int32 + int64 scalar tensor", (torch.tensor([1], dtype=torch.int32) + torch.tensor(5)).dtype)
print(
    "max/min of iinfo", torch.iinfo(torch.int64).max, torch.tensor(torch.iinfo(torch.int64).max) + 1
)
print("arange int overflow-safe", torch.arange(250, 260, dtype=torch.int64).to(torch.uint8))
print("bitwise not of uint8", ~torch.tensor([0, 255], dtype=torch.uint8))
print(
    "mean of int tensor via float",
    torch.tensor([1, 2, 4]).float().mean(),
    torch.tensor([1, 2, 4]).sum() / 3,
)
