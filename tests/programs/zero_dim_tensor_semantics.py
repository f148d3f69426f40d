# Models: a "scalars vs 0-d tensors" explainer: shape () and ndim 0, item/int/float/bool, Python
# format specs on 0-d tensors (f"{loss:.4f}"), round(), comparisons that give 0-d bool tensors,
# indexing a 1-d tensor into 0-d and back with [None], unsqueeze/reshape of 0-d, promotion when
# a 0-d tensor meets a higher-dim one (it does not win the dtype), accumulating a loss tensor vs
# a float, torch.Size arithmetic, and 0-d tensors as indices.
import math

import torch

t = torch.tensor(3.14159)
print(t, t.shape, t.ndim, t.dim(), t.numel(), t.size(), len(t.shape))
print("item", t.item(), "float", float(t), "int", int(t), "bool", bool(t))
print(f"format: {t:.3f} | {t:8.2f} | {t:e} | {t}")
print("round:", round(t.item(), 2), torch.round(t, decimals=2))
print("math on 0-d:", math.sqrt(t), math.floor(t))
i = torch.tensor(7)
print(f"int format: {i:03d} | {i:x} | {i}")
print("index with 0-d:", torch.arange(10, 20)[i], ["a", "b", "c", "d", "e", "f", "g", "h"][i])
print("range with 0-d:", list(range(i)))
v = torch.tensor([1.5, 2.5, 3.5])
s = v[1]
print("v[1]", s, s.shape, "v[1:2]", v[1:2], v[1:2].shape, "v[1, None]", v[1, None])
print("s[None]", s[None], s.unsqueeze(0), s.reshape(1, 1), s.expand(2, 2))
print("0-d comparisons:", t > 3, (t > 3).dtype, (t > 3).item())
print("0-d sum of 1-d", v.sum(), v.sum().shape, v.mean(0).shape)
print("keepdim", v.sum(0, keepdim=True).shape)

# dtype promotion: 0-d tensors don't win over dimensioned ones of the same category
f16 = torch.ones(3, dtype=torch.float16)
print("f16 + 0-d f64 ->", (f16 + torch.tensor(2.0, dtype=torch.float64)).dtype)
print("int32 + 0-d int64 ->", (torch.ones(2, dtype=torch.int32) + torch.tensor(5)).dtype)
print("int + 0-d float ->", (torch.ones(2, dtype=torch.int32) + torch.tensor(0.5)).dtype)
print("0-d + 0-d ->", (torch.tensor(1, dtype=torch.int8) + torch.tensor(1.0,
      dtype=torch.float64)).dtype)
print("1-elem 1-d f64 wins:", (f16 + torch.tensor([2.0], dtype=torch.float64)).dtype)

# accumulating a loss
losses = [torch.tensor(0.5, requires_grad=True) * k for k in range(1, 4)]
total = 0
for l in losses:
    total += l
print("accumulated tensor:", total, type(total).__name__)
total_f = sum(l.item() for l in losses)
print("accumulated float:", total_f)
print("stack of 0-d:", torch.stack(losses), torch.stack(losses).shape)
print("tensor of 0-d list:", torch.tensor([x.item() for x in losses]))

# 0-d ops
z = torch.tensor(-2.0)
print(z.abs(), z.exp(), z.sigmoid(), z.clamp(min=0), torch.where(z > 0, z, -z))
print("argmax of 0-d", z.argmax(), "max dim 0", z.max(0))
print("0-d sort", z.sort())
print("flatten of 0-d", z.flatten(), z.flatten().shape, "ravel", z.ravel())
print("tolist", z.tolist(), type(z.tolist()).__name__, torch.tensor([1, 2]).tolist())
print("0-d bool", torch.tensor(True), ~torch.tensor(True), torch.tensor(True) & torch.tensor(False))
print("0-d complex", torch.tensor(1 + 2j), torch.tensor(1 + 2j).abs())
print("0-d int8 repr", torch.tensor(5, dtype=torch.int8), torch.tensor(5, dtype=torch.uint8))
print("0-d half", torch.tensor(0.1, dtype=torch.float16), torch.tensor(0.1, dtype=torch.bfloat16))

size = torch.Size([2, 3])
print(size, size + (4,), size[1:], size.numel(), tuple(size), list(size), size == (2, 3))
print("Size repr", repr(torch.Size([])), torch.Size([]).numel(), torch.ones(()).shape == ())
x = torch.zeros(2, 3, 4)
print(x.shape[-1], x.size(1), x.shape[::-1], type(x.shape[0]).__name__)
