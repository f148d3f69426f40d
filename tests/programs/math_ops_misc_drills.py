# Models: the "less common math ops" page of a tensor exercise book: tensordot with int and list
# dims, kron, cdist with p and compute modes, cross with dims, trapezoid/cumulative_trapezoid,
# gcd/lcm, logaddexp/logaddexp2, nextafter, copysign, ldexp/frexp, isclose/allclose with
# equal_nan, lerp with tensor weights, renorm, index_reduce_, hypot, float_power, and their errors.
import torch

torch.manual_seed(61)
A = torch.arange(24.0).reshape(2, 3, 4)
B = torch.arange(12.0).reshape(4, 3)
print(
    "tensordot dims=1",
    torch.tensordot(A, B, dims=1).shape,
    "dims lists",
    torch.tensordot(A, B, dims=([1, 2], [1, 0])),
)
print("tensordot dims=0", torch.tensordot(torch.ones(2), torch.ones(3), dims=0).shape)
print("kron", torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
x = torch.randn(4, 3, dtype=torch.float64)
y = torch.randn(5, 3, dtype=torch.float64)
for p in [0.0, 1.0, 2.0, 3.0, float("inf")]:
    print(f"cdist p={p}", torch.cdist(x, y, p=p)[0].numpy().round(6).tolist())
print(
    "cdist compute modes agree",
    torch.allclose(
        torch.cdist(x, y, compute_mode="use_mm_for_euclid_dist"),
        torch.cdist(x, y, compute_mode="donot_use_mm_for_euclid_dist"),
    ),
)
u = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
v = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
print("cross dim=1", torch.cross(u, v, dim=1), "linalg.cross", torch.linalg.cross(u, v))
t = torch.linspace(0, 3.14159, 50)
print(
    "trapezoid sin",
    torch.trapezoid(torch.sin(t), t).item(),
    "dx",
    torch.trapezoid(torch.tensor([1.0, 2.0, 3.0]), dx=0.5).item(),
)
print("cumulative_trapezoid", torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 3.0, 4.0])))
print(
    "gcd/lcm",
    torch.gcd(torch.tensor([12, 18, -8, 0]), torch.tensor([8, 12, 6, 5])),
    torch.lcm(torch.tensor([4, 6, 0]), torch.tensor([6, 4, 3])),
)
print(
    "logaddexp",
    torch.logaddexp(torch.tensor([1000.0, -1000.0]), torch.tensor([1000.0, -1000.0])),
    torch.logaddexp2(torch.tensor([1.0]), torch.tensor([1.0])),
)
print(
    "nextafter",
    torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1,
    torch.nextafter(
        torch.tensor([0.0], dtype=torch.float64), torch.tensor([1.0], dtype=torch.float64)
    ),
)
print("copysign", torch.copysign(torch.tensor([1.0, -2.0, 3.0]), torch.tensor([-0.0, 1.0, -1.0])))
m, e = torch.frexp(torch.tensor([8.0, 0.3, -5.0, 0.0]))
print("frexp", m, e, "ldexp", torch.ldexp(m, e))
a = torch.tensor([1.0, float("nan"), 1e-9, 100.0])
b = torch.tensor([1.0 + 1e-7, float("nan"), 0.0, 100.01])
print(
    "isclose",
    torch.isclose(a, b),
    torch.isclose(a, b, equal_nan=True),
    torch.isclose(a, b, rtol=1e-3, atol=0.0),
)
print("allclose equal_nan", torch.allclose(a, b, equal_nan=True, rtol=1e-3), torch.allclose(a, a))
print(
    "lerp tensor weight",
    torch.lerp(torch.zeros(3), torch.ones(3) * 10, torch.tensor([0.0, 0.25, 1.5])),
)
print("renorm", torch.renorm(torch.tensor([[3.0, 4.0], [0.3, 0.4]]), p=2, dim=0, maxnorm=1.0))
base = torch.ones(3, 2)
idx = torch.tensor([0, 2, 0])
src = torch.tensor([[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]])
for reduce in ["prod", "mean", "amax", "amin"]:
    print(
        f"index_reduce_ {reduce}",
        base.clone().index_reduce_(0, idx, src, reduce).tolist(),
        base.clone().index_reduce_(0, idx, src, reduce, include_self=False).tolist(),
    )
print("hypot", torch.hypot(torch.tensor([3.0, 5.0]), torch.tensor([4.0, 12.0])))
print(
    "float_power",
    torch.float_power(torch.tensor([2, 3]), 2).dtype,
    torch.float_power(torch.tensor([4.0]), -0.5),
)
print(
    "sinc/xlogy/deg",
    torch.sinc(torch.tensor([0.5])),
    torch.xlogy(torch.tensor([0.0]), torch.tensor([0.0])),
    torch.rad2deg(torch.tensor([3.14159265])),
)
print(
    "clamp with tensors",
    torch.clamp(torch.arange(5.0), min=torch.tensor([1.0, 1, 1, 1, 1]), max=torch.tensor(3.0)),
)
print(
    "fmax/fmin nan",
    torch.fmax(torch.tensor([float("nan"), 1.0]), torch.tensor([2.0, float("nan")])),
    torch.maximum(torch.tensor([float("nan")]), torch.tensor([1.0])),
)
print(
    "signbit/isfinite/isposinf",
    torch.signbit(torch.tensor([-0.0, 0.0, -1.0])),
    torch.isfinite(a),
    torch.isposinf(torch.tensor([float("inf"), 1.0])),
)
print(
    "nan_to_num",
    torch.nan_to_num(
        torch.tensor([float("nan"), float("inf"), -float("inf")]), nan=0.0, posinf=9.0
    ),
)
for bad in [
    lambda: torch.tensordot(A, B, dims=([1], [0])),
    lambda: torch.cross(torch.ones(2, 2), torch.ones(2, 2), dim=1),
    lambda: torch.gcd(torch.tensor([1.0]), torch.tensor([2.0])),
    lambda: torch.cdist(x, torch.randn(5, 4)),
    lambda: torch.isclose(torch.tensor([1]), torch.tensor([1.0])),
    lambda: torch.kron(torch.ones(2), "a"),
    lambda: base.clone().index_reduce_(0, idx, src, "sum"),
]:
    try:
        bad()
    except (RuntimeError, TypeError, ValueError) as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])
