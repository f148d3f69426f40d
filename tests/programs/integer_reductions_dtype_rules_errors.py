# Models: a reductions-on-integers quiz: sum/prod/cumsum of int8/uint8/bool promoting to int64,
# the dtype= argument, mean/std/var refusing integers (and accepting dtype=float), max/min
# keeping dtype, argmax refusing bool, median of ints, and integer division of sums.
import torch

i8 = torch.tensor([[100, 100], [-100, 27]], dtype=torch.int8)
b = torch.tensor([[True, False], [True, True]])
u8 = torch.tensor([250, 10], dtype=torch.uint8)
print("sum int8", i8.sum(), i8.sum().dtype, i8.sum(0))
print("sum dtype int8", i8.sum(dtype=torch.int8))
print("prod int8", i8.prod(1), "prod bool", b.prod(), b.prod().dtype)
print("sum bool", b.sum(), b.sum(1), "any/all", b.any(), b.all(0))
print("sum uint8", u8.sum(), u8.sum().dtype)
print("mean dtype", i8.mean(dtype=torch.float64), i8.float().mean(1))
print("max keeps dtype", i8.max(), i8.max().dtype, u8.min(), i8.amax(0))
print("median int", torch.tensor([3, 1, 2, 4]).median(), torch.tensor([5, 1, 3]).median(0))
print("sum // count", i8.sum() // i8.numel(), torch.div(i8.sum(), 3, rounding_mode="trunc"))
print("float16 sum", torch.full((1000,), 0.1, dtype=torch.float16).sum())
print("logsumexp int?", torch.tensor([1, 2, 3]).float().logsumexp(0))
print("count_nonzero", torch.count_nonzero(i8), "nansum int", torch.nansum(i8))
print("cumsum dtype", u8.cumsum(0, dtype=torch.uint8))
for bad in [lambda: i8.mean(), lambda: i8.std(), lambda: torch.tensor([1, 2]).var(),
            lambda: b.mean(), lambda: i8.sum(dtype=torch.bool).item(),
            lambda: torch.tensor([1, 2]).norm(), lambda: torch.tensor([1, 2]).softmax(0),
            lambda: b.argmax()]:
    try:
        print("ok:", bad())
    except RuntimeError as e:
        print("RuntimeError:", e)
