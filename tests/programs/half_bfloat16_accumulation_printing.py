# Models: a mixed-precision explainer: float16 and bfloat16 sums, means and cumsum versus
# float32, rounding of 1/3 and large integers, matmul in half precision, softmax in bfloat16,
# overflow to inf in float16, and the printed dtypes and values.
import torch

torch.manual_seed(5)
x = torch.rand(1000)
for dt in [torch.float16, torch.bfloat16, torch.float32]:
    y = x.to(dt)
    print(dt, "sum", y.sum(), "mean", y.mean(), "cumsum last", y.cumsum(0)[-1])
print("1/3", torch.tensor(1 / 3, dtype=torch.float16), torch.tensor(1 / 3, dtype=torch.bfloat16))
print("2049 in f16", torch.tensor(2049.0, dtype=torch.float16),
      "257 in bf16", torch.tensor(257.0, dtype=torch.bfloat16))
print("overflow", torch.tensor(60000.0, dtype=torch.float16) * 2,
      torch.tensor(3e38, dtype=torch.bfloat16) * 2)
a = torch.randn(4, 8)
b = torch.randn(8, 3)
for dt in [torch.float16, torch.bfloat16]:
    print(dt, "matmul\n", a.to(dt) @ b.to(dt))
logits = torch.randn(2, 5).to(torch.bfloat16)
print("softmax bf16", logits.softmax(-1), logits.softmax(-1).sum(-1))
h = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float16)
print("h + h", h + h, "h * 3", h * 3, "h / 7", h / 7)
print("sqrt", h.sqrt(), "exp", h.exp(), "tanh", torch.tanh(h.to(torch.bfloat16)))
print("mixed f16+bf16", (h + h.to(torch.bfloat16)).dtype)
print("to int", torch.tensor([2.5, -2.5, 65504.0], dtype=torch.float16).to(torch.int32))
print("var/std", x[:10].half().var(), x[:10].bfloat16().std())
print("norm", x.half().norm(), x.bfloat16().norm())
