# Models: a reference notebook that prints one tensor of every dtype (the dtype table from the
# tensor attributes docs): repr suffixes, item() types, tolist, element_size, is_floating_point,
# is_complex, is_signed, finfo/iinfo limits, and casting the same values across dtypes.
import torch

vals = [0, 1, -1, 2.5, 127.75, -200.4]
dtypes = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.bfloat16,
    torch.float32,
    torch.float64,
    torch.complex64,
    torch.complex128,
    torch.uint16,
    torch.uint32,
    torch.uint64,
]
for dt in dtypes:
    src = torch.tensor(vals, dtype=torch.float64)
    if dt in (torch.uint8, torch.uint16, torch.uint32, torch.uint64):
        src = src.abs()
    t = src.to(dt)
    print(
        f"{str(dt):16s} size={t.element_size()} fp={t.is_floating_point()} cx={t.is_complex()} "
        f"signed={t.is_signed() if dt not in (torch.uint16, torch.uint32, torch.uint64) else '-'}"
    )
    print(" ", t)
    print("  item", type(t[1].item()).__name__, t[3].item(), "tolist", t[:3].tolist())
for dt in [torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    fi = torch.finfo(dt)
    print(
        dt,
        "eps",
        fi.eps,
        "max",
        fi.max,
        "tiny",
        fi.tiny,
        "resolution",
        fi.resolution,
        "bits",
        fi.bits,
    )
    print("  ", fi)
for dt in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]:
    ii = torch.iinfo(dt)
    print(dt, ii.min, ii.max, ii.bits, ii)
print(torch.finfo(torch.complex64).eps, torch.finfo().dtype)
print("complex repr", torch.tensor([1 + 2j, -0.5j, 3.25]), torch.tensor([1e-5 + 1e5j]))
print("complex128", torch.tensor([1 / 3 + 2j], dtype=torch.complex128))
print(
    "bool tensor ops",
    torch.tensor([True, False]).int(),
    torch.tensor([True]).float(),
    torch.tensor([2, 0]).bool(),
)
print(
    "casting floats to ints truncates",
    torch.tensor([2.9, -2.9, 0.5]).long(),
    torch.tensor([300.7]).to(torch.uint8),
)
print("half rounding", torch.tensor([2049.0, 0.1, 1e-8, 70000.0]).half())
print("bf16 rounding", torch.tensor([257.0, 1.00390625, 3.3e38]).bfloat16())
print(
    "dtype attrs",
    torch.float16.is_floating_point,
    torch.int8.is_signed,
    torch.complex64.to_real(),
    torch.float32.to_complex(),
    torch.float64.itemsize,
    torch.bool.itemsize,
)
print(
    "type strings",
    torch.zeros(1).type(),
    torch.zeros(1, dtype=torch.int16).type(),
    torch.zeros(1, dtype=torch.bool).type(),
)
print(
    "legacy constructors",
    torch.FloatTensor([1, 2]),
    torch.LongTensor([3]).dtype,
    torch.DoubleTensor(2).shape,
)
print(
    "aliases",
    torch.float is torch.float32,
    torch.long is torch.int64,
    torch.half,
    torch.cfloat,
    torch.short,
)
