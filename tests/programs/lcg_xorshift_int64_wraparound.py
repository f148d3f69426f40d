# Models: a "write your own RNG" exercise with integer tensors: a linear congruential generator
# in int64 with wrap-around multiplication, masking to 32 bits, xorshift with shifts and xor,
# uint8 byte extraction, bit counting, and a chi-square uniformity check of the outputs.
import torch

a, c, m = 6364136223846793005, 1442695040888963407, 2 ** 64
state = torch.tensor([42, 7, 123456789], dtype=torch.int64)
outs = []
for _ in range(5):
    state = state * a + c
    outs.append(((state >> 33) & 0xFFFFFFFF).clone())
print("lcg outputs\n", torch.stack(outs))
print("state", state)
x = torch.tensor([2463534242], dtype=torch.int64)
xs = []
for _ in range(6):
    x = x ^ ((x << 13) & 0xFFFFFFFF)
    x = x ^ (x >> 17)
    x = x ^ ((x << 5) & 0xFFFFFFFF)
    xs.append(x.item())
print("xorshift32", xs)
v = torch.tensor(xs, dtype=torch.int64)
bytes_ = torch.stack([(v >> (8 * k)) & 0xFF for k in range(4)], 1).to(torch.uint8)
print("bytes\n", bytes_)
popcount = sum(((v >> k) & 1) for k in range(32))
print("popcount", popcount)
print("overflow wraps", torch.tensor([2 ** 62], dtype=torch.int64) * 4,
      torch.tensor([127], dtype=torch.int8) + 1, torch.tensor([0], dtype=torch.uint8) - 1)
big = torch.zeros(2000, dtype=torch.int64) + 99
vals = []
for _ in range(3):
    big = big * a + c
    vals.append((big >> 60) & 0xF)
big = big + torch.arange(2000)
samples = ((big * a + c) >> 60) & 0xF
counts = torch.bincount(samples, minlength=16).float()
chi2 = ((counts - 2000 / 16) ** 2 / (2000 / 16)).sum()
print("bucket counts", counts.int().tolist())
print("chi2", round(chi2.item(), 4))
print("bitwise ops", torch.bitwise_and(torch.tensor(12), 10), torch.bitwise_or(torch.tensor(12), 3),
      torch.bitwise_xor(torch.tensor(12), 5), torch.bitwise_not(torch.tensor(0, dtype=torch.uint8)))
print("shifts", torch.tensor([1]) << 62, torch.tensor([-16]) >> 2,
      torch.bitwise_left_shift(torch.tensor([3], dtype=torch.int8), 6))
