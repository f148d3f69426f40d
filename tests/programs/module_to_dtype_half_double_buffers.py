# Models: a module-casting FAQ: model.double()/half()/bfloat16()/float() converting parameters
# and floating buffers but not integer buffers (num_batches_tracked), to(dtype) returning self,
# type() strings, inputs of the wrong dtype raising, and register_buffer dtypes after casting.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
m.register_buffer("counter", torch.tensor(5))
m.register_buffer("scale", torch.tensor(0.5))
print({n: b.dtype for n, b in m.named_buffers()})
out = m.double()
print("returns self", out is m, {n: p.dtype for n, p in m.named_parameters()})
print({n: b.dtype for n, b in m.named_buffers()})
m.half()
print("half", m[0].weight.dtype, m[1].running_mean.dtype, m.counter.dtype)
m.bfloat16()
print("bf16", m[0].bias.dtype, m.scale.dtype)
m.float()
print("float", m[0].weight.dtype, m[1].num_batches_tracked.dtype)
print(m[0].weight.type(), m.counter.type(), m[0].weight.double().type())
r = m.to(torch.float64)
print("to returns self", r is m, m[0].weight.dtype)
x = torch.randn(4, 3)
try:
    m(x)
except RuntimeError as e:
    print("RuntimeError:", e)
print(m(x.double()).dtype)
lin = nn.Linear(2, 2, dtype=torch.float64)
print("factory kwargs", lin.weight.dtype, nn.Linear(2, 2).to(dtype=torch.float16).bias.dtype)
try:
    nn.Linear(2, 2).to(torch.int32)
except TypeError as e:
    print("TypeError:", e)
