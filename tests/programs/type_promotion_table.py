# Models: a course handout printing the type promotion table: result_type for every pair of
# dtypes, tensor-vs-scalar categories, zero-dim tensors, promote_types, can_cast, and the in-place
# promotion error.
import torch

dts = [
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
]
short = {d: str(d).replace("torch.", "")[:5] for d in dts}
print("      " + " ".join(f"{short[d]:>5}" for d in dts))
for a in dts:
    row = []
    for b in dts:
        row.append(f"{short[torch.promote_types(a, b)]:>5}")
    print(f"{short[a]:>5} " + " ".join(row))
print("can_cast")
for a in dts[::3]:
    print(short[a], [int(torch.can_cast(a, b)) for b in dts])
cases = [
    (torch.tensor([1, 2]), 2.5),
    (torch.tensor([1, 2], dtype=torch.int8), 300),
    (torch.tensor([1, 2], dtype=torch.uint8), -1),
    (torch.tensor([True]), 3),
    (torch.tensor([1.0], dtype=torch.float16), 1e5),
    (torch.tensor([1, 2]), torch.tensor(2.5, dtype=torch.float64)),
    (torch.tensor([1.0]), torch.tensor(2.5, dtype=torch.float64)),
    (torch.tensor([1.0], dtype=torch.float16), torch.tensor([2.5], dtype=torch.bfloat16)),
    (torch.tensor([1, 2], dtype=torch.int32), 2j),
    (torch.tensor([1.0], dtype=torch.float32), 2j),
]
for t, s in cases:
    r = torch.result_type(t, s)
    try:
        v = t + s
        print(
            t.dtype,
            "+",
            s if not isinstance(s, torch.Tensor) else f"tensor({s.dtype}, dim={s.dim()})",
            "->",
            r,
            v,
        )
    except RuntimeError as e:
        print(t.dtype, s, "->", r, "RuntimeError:", e)
for op in ["add_", "mul_", "div_"]:
    t = torch.tensor([1, 2, 3])
    try:
        getattr(t, op)(1.5)
        print(op, t)
    except RuntimeError as e:
        print(op, "RuntimeError:", e)
u = torch.tensor([250], dtype=torch.uint8)
print("uint8 wraps", u + 10, u * 2, "int8 neg", torch.tensor([-128], dtype=torch.int8).neg())
print("true division of ints", torch.tensor([3]) / torch.tensor([2]), torch.tensor([3]) // 2)
print("bool arithmetic", torch.tensor([True, False]) + torch.tensor([True, True]))
try:
    torch.tensor([True]) - torch.tensor([True])
except RuntimeError as e:
    print("RuntimeError:", e)
print(
    "comparison dtypes", (torch.tensor([1]) < 1.5).dtype, torch.tensor([1]).eq(torch.tensor([1.0]))
)
print("mean of int errors:")
try:
    torch.tensor([1, 2]).mean()
except RuntimeError as e:
    print(" ", e)
print(
    "sum of int8 ->",
    torch.tensor([100, 100], dtype=torch.int8).sum().dtype,
    "prod of bool ->",
    torch.tensor([True, True]).prod().dtype,
    "cumsum uint8 ->",
    torch.tensor([200, 100], dtype=torch.uint8).cumsum(0),
)
print(
    "default dtype",
    torch.get_default_dtype(),
    torch.tensor(1.5).dtype,
    torch.tensor(2).dtype,
    torch.tensor(1j).dtype,
    torch.tensor([1, 2.0]).dtype,
    torch.tensor([True, 2]).dtype,
)
torch.set_default_dtype(torch.float64)
print(
    "after set_default_dtype",
    torch.tensor(1.5).dtype,
    torch.tensor(1j).dtype,
    (torch.tensor([1]) * 0.5).dtype,
)
torch.set_default_dtype(torch.float32)
