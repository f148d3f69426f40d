# Models: a complex-analysis homework checker: principal branches of sqrt, log, asin, acos,
# atan, asinh, acosh and atanh on and around the real axis, signed-zero imaginary parts, angle
# of negative reals, exp/log round trips and pow with complex exponents.
import torch

z = torch.tensor([-4 + 0j, -4 - 0j, 2j, -2j, 1 + 1j, -1 - 1j, 0.5 + 0j, 3 + 0j],
                 dtype=torch.complex128)
print("z", z)
for name in ["sqrt", "log", "asin", "acos", "atan", "asinh", "acosh", "atanh", "exp", "tanh"]:
    print(f"{name:6s}", getattr(torch, name)(z))
print("angle of -1 (real)", torch.angle(torch.tensor([-1.0, 1.0, 0.0])))
print("angle complex", torch.angle(z))
print("exp(log z)", torch.exp(torch.log(z[4:6])))
print("pow", torch.pow(z[4], 0.5 + 1j), z[6:] ** 2)
print("1j**1j", torch.tensor(1j, dtype=torch.complex128) ** 1j)
print("abs", z.abs(), "reciprocal", z[2:4].reciprocal())
print("float32 sqrt", torch.sqrt(torch.tensor([-4 + 0j, 2j], dtype=torch.complex64)))
print("polar", torch.polar(torch.tensor([2.0]), torch.tensor([3.14159265])))
print("isreal", torch.isreal(z[:3]), torch.is_complex(z))
