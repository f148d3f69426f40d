# Models: a "bit manipulation with tensors" exercise sheet: and/or/xor/not on bool and integer
# dtypes, shifts including negative and oversized shift counts, popcount by masks, parity,
# Gray codes, bit reversal, packing bool planes into uint8, and float inputs refused.
import torch

a = torch.tensor([12, 10, -1, 0, 255], dtype=torch.int32)
b = torch.tensor([10, 6, 5, 7, 1], dtype=torch.int32)
print("and", a & b, "or", a | b, "xor", a ^ b, "not", ~a)
print("functional", torch.bitwise_and(a, 3), torch.bitwise_or(a, 16), torch.bitwise_xor(a, -1))
print("shifts", a << 2, a >> 1, torch.bitwise_left_shift(a, b), torch.bitwise_right_shift(a, 2))
print("shift of negative", torch.tensor([-16, -1]) >> 2, torch.tensor([-3]) << 3)
print(
    "uint8 shifts",
    torch.tensor([255, 129], dtype=torch.uint8) << 1,
    torch.tensor([255], dtype=torch.uint8) >> 3,
)
print(
    "int8",
    ~torch.tensor([0, 127, -128], dtype=torch.int8),
    torch.tensor([64], dtype=torch.int8) << 1,
)
print(
    "bool ops",
    torch.tensor([True, False]) ^ True,
    ~torch.tensor([True, False]),
    torch.tensor([True]) & torch.tensor([False]),
)
print(
    "logical",
    torch.logical_xor(torch.tensor([0, 3]), torch.tensor([1.0, 2.0])),
    torch.logical_not(torch.tensor([0.0, -2.0])),
)
for bad in [
    lambda: torch.tensor([1.0]) & torch.tensor([1.0]),
    lambda: ~torch.tensor([1.5]),
    lambda: torch.tensor([1.0]) << 1,
]:
    try:
        bad()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", e)
x = torch.arange(16, dtype=torch.int64)
pop = sum(((x >> k) & 1) for k in range(4))
print("popcount", pop)
print("parity", pop % 2)
gray = x ^ (x >> 1)
print("gray", gray)
inv = gray.clone()
shift = gray >> 1
while shift.any():
    inv ^= shift
    shift >>= 1
print("gray decoded == x", torch.equal(inv, x))
rev = sum((((x >> k) & 1) << (3 - k)) for k in range(4))
print("bit reversed", rev)
planes = torch.tensor([[1, 0, 1, 1, 0, 0, 1, 0], [1, 1, 1, 1, 1, 1, 1, 1]], dtype=torch.bool)
weights = (2 ** torch.arange(7, -1, -1)).to(torch.uint8)
packed = (planes.to(torch.uint8) * weights).sum(1, dtype=torch.uint8)
print("packed", packed, packed.dtype)
unpacked = ((packed.unsqueeze(1) >> torch.arange(7, -1, -1).to(torch.uint8)) & 1).bool()
print("unpack round trip", torch.equal(unpacked, planes))
print(
    "in-place",
    torch.tensor([5, 6]).bitwise_and_(torch.tensor([3, 3])),
    torch.tensor([1, 2]).__ilshift__(2),
)
print(
    "reverse ops",
    1 << torch.tensor([0, 1, 2]),
    255 & torch.tensor([256 + 7]),
    6 ^ torch.tensor([3]),
)
print("int64 extreme", torch.tensor([2**62]) << 1, torch.tensor([-(2**63)]) >> 63)
print(
    "mixed dtypes",
    (torch.tensor([1], dtype=torch.int8) | torch.tensor([256])).dtype,
    (torch.tensor([True]) | torch.tensor([2], dtype=torch.uint8)),
)
print(
    "shift by >= width",
    torch.tensor([1], dtype=torch.int32) << 40,
    torch.tensor([-8], dtype=torch.int32) >> 40,
)
