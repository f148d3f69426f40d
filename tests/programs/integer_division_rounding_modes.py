# Models: a "Python vs C vs PyTorch integer division" blog post: floor_divide, div with
# rounding_mode None/'trunc'/'floor', remainder vs fmod sign rules, divmod identities on int and
# float tensors, division by zero for ints and floats, and round/trunc/floor/ceil/frac tables.
import torch

a = torch.tensor([7, -7, 7, -7, 0, 5, -5])
b = torch.tensor([2, 2, -2, -2, 3, 5, 3])
print("a", a.tolist(), "b", b.tolist())
print("a / b           ", torch.div(a, b))
print("trunc           ", torch.div(a, b, rounding_mode="trunc"))
print("floor           ", torch.div(a, b, rounding_mode="floor"))
print("a // b          ", a // b)
print("remainder       ", torch.remainder(a, b), a % b)
print("fmod            ", torch.fmod(a, b))
print(
    "python          ",
    [x // y for x, y in zip(a.tolist(), b.tolist())],
    [x % y for x, y in zip(a.tolist(), b.tolist())],
)
print(
    "identity floor*b+rem == a", torch.equal(torch.div(a, b, rounding_mode="floor") * b + a % b, a)
)
print(
    "identity trunc*b+fmod == a",
    torch.equal(torch.div(a, b, rounding_mode="trunc") * b + torch.fmod(a, b), a),
)
fa, fb = a.float() + 0.5, b.float()
print("float floor   ", torch.div(fa, fb, rounding_mode="floor"))
print("float trunc   ", torch.div(fa, fb, rounding_mode="trunc"))
print("float rem     ", torch.remainder(fa, fb))
print("float fmod    ", torch.fmod(fa, fb))
print(
    "scalar forms",
    torch.remainder(a, 3),
    torch.fmod(a, -3),
    torch.remainder(-7, torch.tensor([3, -3])),
)
print("float / 0", torch.tensor([1.0, -1.0, 0.0]) / 0, torch.tensor([1.0, -1.0]) // 0.0)
print(
    "fmod by 0.0",
    torch.fmod(torch.tensor([1.0, -2.0]), 0.0),
    torch.remainder(torch.tensor([1.0]), 0.0),
)
for fn in [
    lambda: torch.tensor([1]) // 0,
    lambda: torch.tensor([1]) % 0,
    lambda: torch.div(torch.tensor([5]), torch.tensor([0]), rounding_mode="trunc"),
]:
    try:
        print(fn())
    except RuntimeError as e:
        print("RuntimeError:", e)
print("true div of ints by zero", torch.tensor([1, 0, -1]) / 0)
x = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7, -3.7, 0.49999997])
print("x    ", x)
print("round", torch.round(x))
print("trunc", torch.trunc(x), "fix", torch.fix(x))
print("floor", torch.floor(x))
print("ceil ", torch.ceil(x))
print("frac ", torch.frac(x))
print("sign ", torch.sign(x), torch.sgn(x))
y = torch.tensor([1234.5678, -0.015, 0.125, 2.675, 1e-3])
for d in [-2, -1, 0, 1, 2, 3]:
    print(f"round(decimals={d})", torch.round(y, decimals=d))
print(
    "int rounding is identity",
    torch.round(torch.tensor([3, -4])),
    torch.floor(torch.tensor([3], dtype=torch.int8)),
)
print(
    "int8 floor divide overflow",
    torch.tensor([-128], dtype=torch.int8) // torch.tensor([-1], dtype=torch.int8),
)
print(
    "uint8", torch.tensor([200], dtype=torch.uint8) // 3, torch.tensor([200], dtype=torch.uint8) % 7
)
print(
    "float16",
    torch.tensor([7.5, -7.5], dtype=torch.float16) // 2,
    torch.tensor([7.5, -7.5], dtype=torch.float16) % 2,
)
print("div_ in place with mode", torch.tensor([7.0, -7.0]).div_(2, rounding_mode="floor"))
try:
    torch.div(a, b, rounding_mode="round")
except RuntimeError as e:
    print("RuntimeError:", e)
