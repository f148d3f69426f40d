# Models: a "know your integer dtypes" notebook: wrap-around in int8/uint8/int16 arithmetic,
# floor division and remainders of negatives, shifts and bitwise ops, integer reductions
# (which widen to int64), cumulative sums with a dtype, true division of ints, abs of the
# minimum int8, clamping, bincount with weights, histc on integer data and stable sorts.
import torch

torch.manual_seed(0)
a8 = torch.tensor([120, -120, 100, -128, 127], dtype=torch.int8)
print(a8 + 10, a8 * 2, -a8, a8.abs())
u8 = torch.tensor([250, 3, 128, 0], dtype=torch.uint8)
print(u8 + 10, u8 - 5, u8 * 3, u8 // 7, u8 % 7)
i16 = torch.tensor([30000, -30000, 12345], dtype=torch.int16)
print(i16 * 2, i16 + i16, (i16 * 3).to(torch.int32))
x = torch.tensor([-7, -3, 0, 3, 7])
y = torch.tensor([2, -2, 3, -4, 5])
print(x // y, torch.floor_divide(x, y), x % y, torch.fmod(x, y), torch.remainder(x, -3))
print(torch.div(x, y), torch.div(x, y, rounding_mode="trunc"),
      torch.div(x, y, rounding_mode="floor"))
print(x << 2, x >> 1, torch.bitwise_left_shift(torch.tensor([1], dtype=torch.int8), 7))
print(x & 6, x | 1, x ^ -1, ~x, torch.bitwise_and(u8, 0x0F))
big = torch.randint(-100, 100, (1000,), dtype=torch.int32)
print(big.sum(), big.sum().dtype, big.prod(), big.cumsum(0)[-5:],
      big.cumsum(0, dtype=torch.int16)[-3:])
print(big.to(torch.int8).sum(), big.to(torch.uint8).sum(), big.float().mean())
print(torch.tensor([2**62, 2**62], dtype=torch.int64).sum())
print(torch.arange(1, 25, dtype=torch.int32).prod(), torch.arange(1, 25).prod())
print(big.max(), big.argmax(), big.min(), big.argmin(), big.median(), big.mode())
print(torch.clamp(big, -50, 50)[:8], big.clamp(min=torch.tensor(0, dtype=torch.int32))[:8])
print(torch.iinfo(torch.int8), torch.iinfo(torch.uint8).max, torch.iinfo(torch.int64).min)
counts = torch.bincount(torch.tensor([0, 1, 1, 3, 3, 3]),
                        weights=torch.tensor([0.5, 1.0, 1.5, 2.0, 2.0, 0.25]))
print(counts, torch.bincount(torch.tensor([2, 2, 5]), minlength=8))
print(torch.histc(big.float(), bins=8, min=-100, max=100))
vals, idx = torch.sort(torch.tensor([3, 1, 2, 1, 3, 1]), stable=True)
print(vals, idx, torch.argsort(torch.tensor([3, 1, 2, 1, 3, 1]), descending=True, stable=True))
print(torch.unique(big[:20], return_counts=True))
print(torch.tensor([5, 7]) / 2, torch.tensor([5, 7]) / torch.tensor([2.0, 4.0]))
print((torch.tensor([1, 2, 3]) * 1.5).dtype, (torch.tensor([1, 2], dtype=torch.int8) + 300).dtype)
print(torch.tensor([1, 2], dtype=torch.uint8) + torch.tensor([1, 2], dtype=torch.int8))
print(torch.gcd(torch.tensor([12, 18, -8]), torch.tensor([8, 27, 6])),
      torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 10])))
print(torch.pow(torch.tensor([2, 3], dtype=torch.int32), 10),
      torch.tensor([2]) ** torch.tensor([62]))
print(torch.tensor([7, -7]).sign(), torch.tensor([100], dtype=torch.uint8).neg())
try:
    torch.tensor([1, 2]) // torch.tensor([0, 1])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2]).mean()
except RuntimeError as e:
    print("RuntimeError:", e)
