# Models: "why did my uint8 image go wrong" answers: int8/uint8/int16 arithmetic that wraps
# around, uint8 subtraction underflow in image differencing, promotion with Python scalars and
# with float tensors, integer division (//, div rounding modes, true division to float), clamp
# before casting, bit shifts, sums that widen to int64, bool arithmetic, and the printed reprs
# of each dtype.
import torch

a = torch.tensor([250, 5, 128, 0], dtype=torch.uint8)
b = torch.tensor([10, 10, 128, 1], dtype=torch.uint8)
print(a, b)
print("a + b wraps:", a + b)
print("a - b wraps:", a - b)
print("a * 2:", a * 2)
print("a + 300 (python int):", a + 300)
print("a + 1.5 -> float:", a + 1.5)
print("abs diff via int16:", (a.to(torch.int16) - b.to(torch.int16)).abs().to(torch.uint8))
print("a.sum() dtype:", a.sum(), a.sum().dtype)
print("a.float().mean():", a.float().mean())
print("a.max(), argmax:", a.max(), a.argmax())
print("cumsum widened:", a.cumsum(0))
print("a // 3:", a // 3, "a % 7:", a % 7)
print("a / 3:", a / 3)
print("bit shifts:", a >> 1, b << 7)
print("bitwise not:", ~a)

c = torch.tensor([-128, -1, 0, 1, 127], dtype=torch.int8)
print(c)
print("c + 1:", c + 1)
print("-c:", -c)
print("c.abs():", c.abs())
print("c * c:", c * c)
print("c // -1:", c // -1)
print("div floor:", torch.div(c, 3, rounding_mode="floor"))
print("div trunc:", torch.div(c, 3, rounding_mode="trunc"))
print("fmod / remainder:", torch.fmod(c, 3), torch.remainder(c, 3))
print("c.to(uint8):", c.to(torch.uint8))
print("int8 + uint8 ->", (c[:4] + a).dtype, c[:4] + a)
print("int8 + int16 ->", (c + torch.ones(5, dtype=torch.int16)).dtype)

s = torch.tensor([32767, -32768, 1000, 300], dtype=torch.int16)
print(s)
print("s + 1:", s + 1)
print("s * 100:", s * 100)
print("s.sum():", s.sum(), "s.prod():", s.prod())
print("s.float():", s.float())
print("s.half():", s.half())

img = torch.tensor([[0.0, 0.5, 1.0, 1.2], [-0.1, 0.25, 0.999, 0.004]])
print("naive cast:", (img * 255).to(torch.uint8))
print("clamped and rounded:", (img * 255).clamp(0, 255).round().to(torch.uint8))
print("back to float:", (img * 255).clamp(0, 255).round().to(torch.uint8).float() / 255)

flags = torch.tensor([True, False, True, True])
print(flags, flags.sum(), flags.float().mean())
print("bool + bool:", flags + flags)
print("bool * 3:", flags * 3)
print("bool & ~bool:", flags & ~torch.tensor([True, True, False, False]))
print("any/all:", flags.any(), flags.all())
print("int tensor repr with big values:", torch.tensor([1, -2, 3_000_000_000]))
print("uint8 empty:", torch.tensor([], dtype=torch.uint8), torch.zeros(0, 3, dtype=torch.int8))
print("0-d int16:", torch.tensor(7, dtype=torch.int16), torch.tensor(7, dtype=torch.int16).item())
print(torch.iinfo(torch.int8), torch.iinfo(torch.uint8).max, torch.iinfo(torch.int16).min)
print("promote_types:", torch.promote_types(torch.uint8, torch.int8),
      torch.promote_types(torch.int16, torch.uint8), torch.promote_types(torch.bool, torch.int8))
print("result_type:", torch.result_type(a, 1.0), torch.result_type(c, 2),
      torch.result_type(flags, True))
print("can_cast:", torch.can_cast(torch.float32, torch.int8),
      torch.can_cast(torch.int8, torch.float16))
