# Models: the "numerical pitfalls" section of a PyTorch course (dtype gotchas that bite image
# and quantisation code): uint8 wrap-around in image arithmetic and the fix by promotion,
# int8/int16 overflow, float -> int truncation towards zero, clamping before casting,
# float16/bfloat16 rounding and their finfo, catastrophic cancellation and log1p/expm1,
# softmax overflow and the max-subtraction trick, Kahan-style summation vs torch.sum, integer
# division and remainder signs, and type promotion with 0-dim tensors and Python scalars.
import torch

torch.manual_seed(0)
img = torch.tensor([[250, 10], [128, 255]], dtype=torch.uint8)
print("uint8 + 10 wraps:", img + 10)
print("promoted first:", img.to(torch.int16) + 10, (img.float() + 10).clamp(0, 255).to(torch.uint8))
print("uint8 - 20:", img - 20, "mean needs float:", img.float().mean())
print("uint8 * 2:", img * 2, "as float / 255:", img / 255)
print(
    "int8 overflow:",
    torch.tensor([127], dtype=torch.int8) + 1,
    torch.tensor([-128], dtype=torch.int8) - 1,
    torch.tensor([100], dtype=torch.int8) * 2,
)
print(
    "int16 sum promotes to int64:",
    torch.tensor([30000, 30000], dtype=torch.int16).sum(),
    torch.tensor([30000, 30000], dtype=torch.int16).sum().dtype,
)
print("cumsum of uint8:", torch.tensor([200, 100], dtype=torch.uint8).cumsum(0).dtype)

f = torch.tensor([-2.7, -0.5, 0.5, 2.7, 3.5])
print("to int truncates:", f.to(torch.int64), "round first:", f.round().to(torch.int64))
print("floor/ceil:", f.floor(), f.ceil(), "trunc:", f.trunc())
print("clamp then cast:", torch.tensor([-5.0, 300.0, 12.6]).clamp(0, 255).to(torch.uint8))

for dt in [torch.float16, torch.bfloat16, torch.float32]:
    fi = torch.finfo(dt)
    x = torch.tensor([1.0, 1.0 + fi.eps / 2, 1.0 + fi.eps, 1000.1, 3.14159], dtype=dt)
    print(f"{str(dt):15s} eps {fi.eps:.3e} max {fi.max:.4e} tiny {fi.tiny:.3e} values {x.tolist()}")
print(
    "float16 overflow:",
    torch.tensor([60000.0], dtype=torch.float16) * 2,
    torch.tensor([70000.0]).half(),
)
print(
    "bfloat16 sum of ones:",
    torch.ones(300, dtype=torch.bfloat16).sum(),
    torch.ones(300, dtype=torch.bfloat16).cumsum(0)[-1],
)
print("iinfo:", torch.iinfo(torch.uint8), torch.iinfo(torch.int32).max)

x = torch.tensor([1e-8, 1e-4, 0.1], dtype=torch.float32)
print("log(1+x):", torch.log(1 + x), "log1p:", torch.log1p(x))
print("exp(x)-1:", torch.exp(x) - 1, "expm1:", torch.expm1(x))
a, b = torch.tensor(1.0000001), torch.tensor(1.0)
print("cancellation:", (a - b).item(), (a.double() - b.double()).item())

logits = torch.tensor([1000.0, 1001.0, 1002.0])
naive = torch.exp(logits) / torch.exp(logits).sum()
shifted = torch.exp(logits - logits.max()) / torch.exp(logits - logits.max()).sum()
print("naive softmax:", naive, "stable:", shifted, "torch:", torch.softmax(logits, 0))
print("logsumexp:", torch.logsumexp(logits, 0), "naive:", torch.log(torch.exp(logits).sum()))

vals = torch.full((10000,), 0.1)
total, comp = torch.tensor(0.0), torch.tensor(0.0)
for v in vals[:1000]:
    y = v - comp
    t = total + y
    comp = (t - total) - y
    total = t
naive = torch.tensor(0.0)
for v in vals[:1000]:
    naive = naive + v
print(
    f"naive loop {naive.item():.6f} kahan {total.item():.6f} torch.sum "
    f"{vals[:1000].sum().item():.6f} float64 {vals[:1000].double().sum().item():.6f}"
)

n = torch.tensor([7, -7, 7, -7])
d = torch.tensor([2, 2, -2, -2])
print("//:", n // d, "div trunc:", torch.div(n, d, rounding_mode="trunc"), "true:", n / d)
print(
    "%:",
    n % d,
    "fmod:",
    torch.fmod(n, d),
    "remainder float:",
    torch.remainder(torch.tensor(-7.5), 2.0),
    -7.5 % 2.0,
)
try:
    torch.remainder(-7.5, 2.0)
except TypeError as e:
    print("TypeError:", str(e).splitlines()[0])
print(
    "promotion:",
    (torch.tensor([1, 2]) * 2.5).dtype,
    (torch.tensor([1, 2]) + torch.tensor(2.5)).dtype,
    (torch.tensor([1.0], dtype=torch.float16) + torch.tensor(1.0)).dtype,
    (torch.tensor([1.0], dtype=torch.float16) + torch.tensor([1.0])).dtype,
    (torch.tensor([1], dtype=torch.uint8) + torch.tensor(-1)).dtype,
    (torch.tensor([1], dtype=torch.int8) + torch.tensor([1], dtype=torch.uint8)).dtype,
    torch.result_type(torch.tensor([1], dtype=torch.int32), 1.0),
    torch.promote_types(torch.bfloat16, torch.float16),
)
print(
    "bool arithmetic:",
    torch.tensor([True, False]) + torch.tensor([True, True]),
    torch.tensor([True, True]).sum(),
    (torch.tensor([True]) * 3).dtype,
)
print(
    "nan/inf to int:",
    torch.tensor([float("inf")]).isinf(),
    torch.nan_to_num(
        torch.tensor([float("nan"), float("inf"), -float("inf")]), nan=0.0, posinf=1e4
    ),
)
try:
    torch.tensor([1, 2]) / torch.tensor([0, 1]) // 1
    print("integer true division by zero:", torch.tensor([1, 2]) / torch.tensor([0, 1]))
    torch.tensor([1]) // torch.tensor([0])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1.0]).to(torch.int64).add_(torch.tensor([0.5]))
except RuntimeError as e:
    print("RuntimeError:", e)
