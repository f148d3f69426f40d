# Models: integer tensor code as found in hashing, quantisation and bit-packing utilities --
# bitwise and/or/xor/not and shifts, packing booleans into uint8 and unpacking them, popcount
# by masks, integer floor division and remainder with negative numbers (torch's rounding),
# overflow wrap-around in int8/int32, type promotion between int dtypes and floats, sorting and
# searching on integers (sort stable, argsort, unique, unique_consecutive, searchsorted,
# bucketize, histc, bincount, kthvalue), gcd/lcm, and cumulative ops on ints.
import torch

a = torch.tensor([12, 10, -7, 255, 0], dtype=torch.int32)
b = torch.tensor([10, 6, 3, 1, 9], dtype=torch.int32)
print(a & b, a | b, a ^ b, ~a)
print(torch.bitwise_and(a, 3), torch.bitwise_left_shift(b, 2), a >> 1, b << 3)
print(a.bitwise_xor(b).dtype, (a & True).dtype)

bits = torch.tensor([[1, 0, 1, 1, 0, 0, 1, 0], [0, 0, 0, 0, 1, 1, 1, 1]], dtype=torch.bool)
weights = 2 ** torch.arange(7, -1, -1)
packed = (bits.to(torch.uint8) * weights).sum(-1).to(torch.uint8)
print("packed", packed, packed.dtype)
unpacked = (packed.unsqueeze(-1) >> torch.arange(7, -1, -1).to(torch.uint8)) & 1
print("unpacked", unpacked.bool().equal(bits))
x = torch.tensor([0b1011, 0b1111_0000, 7, 1023])
pop = torch.zeros_like(x)
for i in range(11):
    pop += (x >> i) & 1
print("popcount", pop)

n = torch.tensor([7, -7, 7, -7])
d = torch.tensor([2, 2, -2, -2])
print("//", n // d, "floor_divide", torch.floor_divide(n, d))
print("div trunc", torch.div(n, d, rounding_mode="trunc"), "floor", torch.div(n, d,
                                                                            rounding_mode="floor"))
print("true div", n / d, (n / d).dtype)
print("%", n % d, "remainder", torch.remainder(n, d), "fmod", torch.fmod(n, d))
print(torch.tensor([5, -5]) % 3, torch.tensor([5.5, -5.5]) % 3)

i8 = torch.tensor([120, -120], dtype=torch.int8)
print("int8 wrap", i8 + torch.tensor([10, -10], dtype=torch.int8), i8 * 2)
u8 = torch.tensor([250, 3], dtype=torch.uint8)
print("uint8 wrap", u8 + 10, u8 - 5, (u8 + 10).dtype)
big = torch.tensor([2 ** 31 - 1], dtype=torch.int32)
print("int32 wrap", big + 1)
print(torch.iinfo(torch.int8).max, torch.iinfo(torch.uint8).min, torch.iinfo(torch.int64).bits)
print((torch.tensor([1, 2], dtype=torch.int8) + torch.tensor([1, 2], dtype=torch.int16)).dtype,
      (torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype,
      (torch.tensor([3]) * 1.5).dtype, (torch.tensor([3], dtype=torch.int16) + 2).dtype,
      (torch.tensor([3], dtype=torch.int32) * torch.tensor(2.0, dtype=torch.float64)).dtype)
print(torch.tensor([3, 4]).float().mean(), torch.tensor([3, 4]).sum().dtype,
      torch.tensor([3, 4], dtype=torch.int8).sum().dtype,
      torch.tensor([3, 4], dtype=torch.uint8).prod().dtype)

torch.manual_seed(0)
v = torch.randint(0, 10, (12,))
print("v", v)
sv, si = torch.sort(v, stable=True)
print("sorted", sv, si)
print("desc", torch.sort(v, descending=True, stable=True).indices)
print("argsort", v.argsort(stable=True), "argmax", v.argmax(), "argmin", v.argmin())
u, inv, cnt = torch.unique(v, return_inverse=True, return_counts=True)
print("unique", u, inv, cnt)
print("unique_consecutive", torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]),
                                                     return_counts=True))
print("unique dim", torch.unique(torch.tensor([[1, 2], [1, 2], [0, 3]]), dim=0))
boundaries = torch.tensor([1, 3, 5, 7, 9])
print("searchsorted", torch.searchsorted(boundaries, torch.tensor([3, 6, 9, 10])),
      torch.searchsorted(boundaries, torch.tensor([3, 6, 9]), right=True))
print("bucketize", torch.bucketize(v, boundaries), torch.bucketize(v, boundaries, right=True))
print("histc", torch.histc(v.float(), bins=5, min=0, max=10))
print("bincount", torch.bincount(v), torch.bincount(v, minlength=12).shape)
print("kthvalue", torch.kthvalue(v, 3), "topk", torch.topk(v, 3, largest=False, sorted=True))
print("mode", torch.mode(v), "median", v.median())
print("gcd", torch.gcd(torch.tensor([12, 18, -8]), torch.tensor([8, 27, 6])),
      "lcm", torch.lcm(torch.tensor([4, 6, 0]), torch.tensor([6, 4, 5])))
print("cumsum", v.cumsum(0), v.cumsum(0).dtype, torch.cumprod(torch.tensor([1, 2, 3],
                                                                       dtype=torch.int8), 0))
print("cummax", torch.cummax(v, 0).values, torch.cummin(v, 0).indices)
print("diff", torch.diff(v), "clamp", v.clamp(2, 7), "abs", torch.tensor([-3, 4]).abs())
print(torch.tensor([7, 8]).pow(2), torch.tensor([2]) ** torch.tensor([10]),
      torch.tensor([-9, 9]).sign(), torch.tensor([5, 3]).neg())
print("isin", torch.isin(v, torch.tensor([1, 3, 5])), v.eq(3).nonzero().flatten())
print(torch.count_nonzero(v), torch.tensor([6, 4]).div(4), torch.tensor([2 ** 40]) * 2)
print(torch.arange(10)[torch.arange(10) % 3 == 0], torch.arange(0, 20, 7), torch.arange(5, 0, -2))
print(v.view(3, 4).sum(0), v.view(3, 4).max(1), v.view(3, 4).float().std(1))
