# Models: a tutorial on dtypes: type promotion with scalars and tensors, integer division,
# casting rules, finfo/iinfo, half and bfloat16 arithmetic and printing.
import torch

i = torch.tensor([7, -7, 5])
f = torch.tensor([2.5, -1.5, 0.5])
print(
    i / 2,
    i // 2,
    torch.div(i, 2, rounding_mode="floor"),
    torch.div(i, 2, rounding_mode="trunc"),
    i % 3,
    torch.fmod(i, 3),
    torch.remainder(-i, 4),
)
print(
    (i + f).dtype,
    (i * 2.0).dtype,
    (i + True).dtype,
    (torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype,
)
print(
    torch.result_type(i, 1.0),
    torch.promote_types(torch.int32, torch.float16),
    torch.can_cast(torch.float64, torch.int32),
    torch.can_cast(torch.int32, torch.float64),
)
print(
    torch.finfo(torch.float32),
    torch.finfo(torch.bfloat16).eps,
    torch.iinfo(torch.int16).max,
    torch.finfo(torch.float16).tiny,
)
h = torch.tensor([1.5, 2.25, 1e4, 6e4], dtype=torch.float16)
print(h, h * 2, h.sum(), h.mean(), (h + 1e-3).dtype)
b = torch.tensor([1.1, 2.2, 3.3], dtype=torch.bfloat16)
print(b, b * b, b.sum(), b.to(torch.float32), torch.tensor(1 / 3).bfloat16().item())
print(
    torch.tensor([300, -5]).to(torch.uint8),
    torch.tensor([3.7, -3.7]).int(),
    torch.tensor([1e10]).int() if False else torch.tensor([2**31 - 1]).float().long(),
)
print(
    torch.tensor([1, 2, 3]) ** 2,
    torch.tensor([2]) ** -1.0,
    2 ** torch.tensor([1, 2]),
    torch.tensor([4.0]) ** torch.tensor([0.5]),
)
print(torch.tensor(5) // torch.tensor(-2), torch.tensor(5.0) // -2, -torch.tensor(5) // 2)
print(
    torch.tensor([True, False]) & torch.tensor([True, True]),
    ~torch.tensor([5], dtype=torch.int8),
    torch.tensor([12]) >> 2,
    torch.tensor([3]) ^ torch.tensor([5]),
)
print(
    torch.tensor([1, 2]).double().dtype,
    torch.tensor([1.0]).half().float().dtype,
    torch.get_default_dtype(),
)
torch.set_default_dtype(torch.float64)
print(
    torch.tensor([1.5]).dtype,
    torch.arange(3.0).dtype,
    torch.randn(2).dtype,
    (torch.tensor([1]) * 1.5).dtype,
)
torch.set_default_dtype(torch.float32)
print(
    torch.tensor([0.1, 0.2]).sum() == 0.3,
    torch.isclose(torch.tensor([0.1 + 0.2]), torch.tensor([0.3])),
    torch.allclose(torch.tensor([1e-9]), torch.tensor([0.0])),
)
print(
    torch.tensor([float("nan"), 1.0]).max(),
    torch.tensor([float("nan"), 1.0]).nanmean(),
    torch.nan_to_num(torch.tensor([float("inf"), float("nan")]), posinf=9.0),
)
print(
    torch.tensor(3.14159).round(decimals=2),
    torch.tensor([2.5, 3.5, -2.5]).round(),
    torch.tensor([1.23456789], dtype=torch.float64),
)
print(
    torch.complex(torch.tensor([1.0]), torch.tensor([2.0])).abs(),
    torch.view_as_real(torch.tensor([1 + 2j])),
    torch.tensor([1 + 2j]).dtype,
)
