# Models: a type-promotion quiz from a course: tensors with Python int/float/bool/complex
# scalars, 0-dim tensors vs dimensioned ones, uint8 with int8, bool arithmetic, integer true
# division and floor division of negatives, result_type/promote_types/can_cast, and in-place
# casting errors.
import torch

i8 = torch.tensor([1, -2], dtype=torch.int8)
u8 = torch.tensor([200, 3], dtype=torch.uint8)
f16 = torch.tensor([1.5, 2.0], dtype=torch.float16)
cases = {
    "int8 + 1": i8 + 1, "int8 + 1.5": i8 + 1.5, "int8 + True": i8 + True,
    "uint8 + int8": u8 + i8, "uint8 * 2": u8 * 2, "f16 + 1e5": f16 + 1e5,
    "f16 + f64 0-dim": f16 + torch.tensor(1.0, dtype=torch.float64),
    "int8 + int64 0-dim": i8 + torch.tensor(1000),
    "int8 + float 0-dim": i8 + torch.tensor(2.5),
    "bool + bool": torch.tensor([True]) + torch.tensor([True]),
    "bool * 3": torch.tensor([True, False]) * 3,
    "int / int": torch.tensor([7, -7]) / 2, "int // int": torch.tensor([7, -7]) // 2,
    "int % int": torch.tensor([7, -7]) % 3, "float // ": torch.tensor([7.5, -7.5]) // 2,
    "int ** -1?": torch.tensor([2.0]) ** -1, "int + complex": torch.tensor([1, 2]) + 1j,
}
for name, v in cases.items():
    print(f"{name:20s}", v.dtype, v)
print(torch.result_type(i8, 1.0), torch.result_type(u8, i8), torch.result_type(1, 2.0))
print(torch.promote_types(torch.uint8, torch.int16), torch.promote_types(torch.bfloat16,
                                                                         torch.float16))
print(torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32))
t = torch.ones(2, dtype=torch.int32)
t += 2
print("in-place int", t, t.dtype)
for bad in [lambda: t.add_(1.5), lambda: torch.tensor([1, 2]).mul_(torch.tensor([0.5, 1])),
            lambda: torch.tensor([True]).add_(1),
            lambda: torch.tensor([1.0]).add_(torch.tensor([1j]))]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.tensor([5]) // 0
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tensor([5.0]) / 0, torch.tensor([-5.0]) // 0, torch.tensor([0.0]) / 0)
