# Models: the "numerically stable ML code" cheat sheet: naive vs max-shifted softmax and
# logsumexp in float32 and float16, log1p/expm1 near zero, softplus vs log(1+exp(x)), stable
# sigmoid-cross-entropy (BCEWithLogits) vs sigmoid then BCE, log-sigmoid, Kahan vs naive
# float32 summation against float64, variance by the two-pass vs textbook formula, the
# log-space product of many probabilities, and float16 matmul accumulation.
import math

import torch
import torch.nn.functional as F

x = torch.tensor([1000.0, 1001.0, 1002.0])
print("naive softmax:", torch.exp(x) / torch.exp(x).sum())
print("shifted softmax:", torch.exp(x - x.max()) / torch.exp(x - x.max()).sum())
print("torch.softmax:", torch.softmax(x, 0))
print("naive logsumexp:", torch.log(torch.exp(x).sum()), "stable:", torch.logsumexp(x, 0))
xh = torch.tensor([10.0, 11.0, 12.0], dtype=torch.float16)
print("float16 naive:", torch.exp(xh) / torch.exp(xh).sum(), "softmax:", torch.softmax(xh, 0))

tiny = torch.tensor([1e-10, 1e-7, 1e-4], dtype=torch.float32)
print("log(1+x):", torch.log(1 + tiny), "\nlog1p(x): ", torch.log1p(tiny))
print("exp(x)-1:", torch.exp(tiny) - 1, "\nexpm1(x): ", torch.expm1(tiny))

z = torch.tensor([-100.0, -20.0, 0.0, 20.0, 100.0])
print("naive softplus:", torch.log(1 + torch.exp(z)))
print("F.softplus:", F.softplus(z))
print("naive log-sigmoid:", torch.log(torch.sigmoid(z)))
print("F.logsigmoid:", F.logsigmoid(z))

logits = torch.tensor([-30.0, -5.0, 0.0, 5.0, 30.0])
target = torch.tensor([1.0, 1.0, 0.0, 0.0, 0.0])
naive = F.binary_cross_entropy(torch.sigmoid(logits), target, reduction="none")
stable = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
print("sigmoid+BCE:", naive)
print("BCEWithLogits:", stable)
manual = torch.clamp(logits, min=0) - logits * target + torch.log1p(torch.exp(-logits.abs()))
print("manual stable:", manual)

torch.manual_seed(0)
vals = torch.rand(100000) * 1e-3 + 1.0
naive_sum = torch.tensor(0.0)
for chunk in vals.split(1000):
    for v in chunk[:5]:
        naive_sum += v
exact = vals.double().sum().item()
print(f"float32 torch.sum {vals.sum().item():.6f} float64 {exact:.6f}")
running = torch.tensor(0.0)
kahan, comp = torch.tensor(0.0), torch.tensor(0.0)
for v in vals[:4000].tolist():
    running += v
    y = v - comp
    t = kahan + y
    comp = (t - kahan) - y
    kahan = t
ref = vals[:4000].double().sum().item()
print(f"naive running sum error {abs(running.item() - ref):.4f}, "
      f"kahan error {abs(kahan.item() - ref):.4f}")
print(f"cumsum last {vals[:4000].cumsum(0)[-1].item():.4f}")

data = torch.tensor([1e8 + 4, 1e8 + 7, 1e8 + 13, 1e8 + 16], dtype=torch.float32)
textbook = (data ** 2).mean() - data.mean() ** 2
two_pass = ((data - data.mean()) ** 2).mean()
print(f"textbook variance {textbook.item()} two-pass {two_pass.item()} "
      f"torch.var {data.var(unbiased=False).item()}")
print("float64 var", data.double().var(unbiased=False).item())

probs = torch.full((2000,), 0.5)
print("product of 2000 halves:", probs.prod().item(), "log-space sum:", probs.log().sum().item(),
      "=", 2000 * math.log(0.5))

a = torch.full((1, 4096), 0.1, dtype=torch.float16)
b = torch.full((4096, 1), 0.1, dtype=torch.float16)
print("float16 matmul", (a @ b).item(), "float32", (a.float() @ b.float()).item())
print("float16 sum", a.sum().item(), "float16 cumsum last", a.cumsum(1)[0, -1].item())
print("bfloat16 1 + 1e-3 =", (torch.tensor(1.0, dtype=torch.bfloat16) + 1e-3).item())
print("eps:", torch.finfo(torch.float16).eps, torch.finfo(torch.bfloat16).eps,
      torch.finfo(torch.float32).eps)
