# Models: a "what every ML engineer should know about floating point" notebook: torch.finfo and
# iinfo of every dtype, machine epsilon found by halving, nextafter and ulp spacing, frexp/ldexp
# decompositions, float_power's double results, catastrophic cancellation and Kahan summation,
# float16/bfloat16 rounding of the same values, and integer overflow wrap-around.
import torch

for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    fi = torch.finfo(dt)
    print(dt, "bits", fi.bits, "eps", fi.eps, "max", fi.max, "tiny", fi.tiny, "resolution",
          fi.resolution)
for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    ii = torch.iinfo(dt)
    print(ii)

eps = torch.tensor(1.0)
while torch.tensor(1.0) + eps / 2 != 1.0:
    eps = eps / 2
print("machine eps float32", eps.item(), eps.item() == torch.finfo(torch.float32).eps)

x = torch.tensor([1.0, 100.0, 1e-30, 0.0, -2.5])
up = torch.nextafter(x, torch.tensor(float("inf")))
print("nextafter up", up)
print("ulp", (up - x).tolist())
xd = x.double()
print("nextafter down float64", torch.nextafter(xd, torch.zeros(5, dtype=torch.float64)) - xd)

m, e = torch.frexp(torch.tensor([8.0, 0.3, -5.5, 1e-3, 0.0]))
print("frexp mantissa", m, "exponent", e)
print("ldexp", torch.ldexp(m, e))
print("ldexp int", torch.ldexp(torch.tensor([1.0, 3.0]), torch.tensor([10, -2])))

base = torch.tensor([2, 3, -2], dtype=torch.int32)
print("pow int", torch.pow(base, 3), "float_power", torch.float_power(base, 3))
print("float_power neg exponent", torch.float_power(torch.tensor([4.0, 9.0]), -0.5))
print("float_power dtype", torch.float_power(torch.tensor([1.5], dtype=torch.float16), 2).dtype)

a = torch.tensor(1e8, dtype=torch.float32)
print("cancellation", (a + 1) - a, ((a.double() + 1) - a.double()))
vals = torch.full((10000,), 0.1)
naive = torch.tensor(0.0)
for v in vals[:2000]:
    naive = naive + v
s = torch.tensor(0.0)
c = torch.tensor(0.0)
for v in vals[:2000]:
    y = v - c
    t = s + y
    c = (t - s) - y
    s = t
print("naive", naive.item(), "kahan", s.item(), "torch.sum", vals[:2000].sum().item(),
      "float64", vals[:2000].double().sum().item())

w = torch.tensor([0.1, 1 / 3, 65504.0, 70000.0, 1e-8, 3.14159265, 2 ** -24, 2 ** -25])
print("float16 ", w.half())
print("bfloat16", w.bfloat16())
print("roundtrip error", (w.half().float() - w).abs(), (w.bfloat16().float() - w).abs())
print("isfinite", torch.isfinite(w.half()), "isinf", torch.isinf(w.half()))

i8 = torch.tensor([120, -120, 127], dtype=torch.int8)
print("int8 wrap", i8 + 10, i8 * 2, -torch.tensor([-128], dtype=torch.int8))
u8 = torch.tensor([250, 5], dtype=torch.uint8)
print("uint8 wrap", u8 + 10, u8 - 10)
big = torch.tensor([2 ** 62], dtype=torch.int64)
print("int64 wrap", big * 4, torch.iinfo(torch.int64).max + torch.zeros(1, dtype=torch.int64))
print("float->int truncation", torch.tensor([2.7, -2.7, 1e10]).to(torch.int32)[:2],
      torch.tensor([2.5, 3.5, -0.5]).round(), torch.tensor([2.567, 1234.5]).round(decimals=1))
print("copysign", torch.copysign(torch.tensor([1.0, -2.0, 0.0]), torch.tensor([-1.0, 1.0, -0.0])))
print("signbit", torch.signbit(torch.tensor([-0.0, 0.0, -1.0, float("nan")])))
print("nan comparisons", torch.tensor(float("nan")) == torch.tensor(float("nan")),
      torch.tensor([1.0, float("nan")]).max(), torch.tensor([1.0, float("nan")]).nan_to_num(7.0))
print("fmax/fmin", torch.fmax(torch.tensor([1.0, float("nan")]), torch.tensor([float("nan"), 2.0])),
      torch.fmin(torch.tensor([1.0, float("nan")]), torch.tensor([float("nan"), float("nan")])))
print("subnormal", torch.tensor(1e-45), torch.tensor(1e-45) / 2, torch.tensor(1e-40) * 1e10)
