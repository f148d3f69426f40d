# Models: an activation-function reference table from a course: elu, selu, celu, gelu (exact
# and tanh), mish, silu, hardswish, hardsigmoid, hardtanh, relu6, softsign, softplus with beta
# and threshold, tanhshrink, threshold, logsigmoid, leaky_relu, prelu and rrelu in eval mode,
# with their derivatives at the same points.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([-3.0, -1.0, -0.25, 0.0, 0.25, 1.0, 3.0])
table = {
    "elu": F.elu(x), "elu a=0.5": F.elu(x, 0.5), "selu": F.selu(x), "celu": F.celu(x, 2.0),
    "gelu": F.gelu(x), "gelu tanh": F.gelu(x, approximate="tanh"), "mish": F.mish(x),
    "silu": F.silu(x), "hardswish": F.hardswish(x), "hardsigmoid": F.hardsigmoid(x),
    "hardtanh": F.hardtanh(x, -0.5, 0.5), "relu6": F.relu6(x * 3), "softsign": F.softsign(x),
    "softplus": F.softplus(x), "softplus b2 t1": F.softplus(x, beta=2, threshold=1),
    "tanhshrink": F.tanhshrink(x), "threshold": F.threshold(x, 0.1, -9.0),
    "logsigmoid": F.logsigmoid(x), "leaky": F.leaky_relu(x, 0.1),
    "prelu": F.prelu(x, torch.tensor([0.25])), "rrelu eval": F.rrelu(x, training=False),
}
for name, v in table.items():
    print(f"{name:15s}", v)
for name, fn in [("elu", F.elu), ("gelu", F.gelu), ("mish", F.mish), ("hardswish", F.hardswish),
                 ("softplus", F.softplus), ("selu", F.selu), ("silu", F.silu)]:
    xr = x.clone().requires_grad_()
    fn(xr).sum().backward()
    print(f"d {name:10s}", xr.grad)
m = nn.PReLU(num_parameters=1, init=0.2)
print(m, m(x))
torch.manual_seed(0)
print("rrelu train", F.rrelu(x, training=True))
print("glu", F.glu(torch.arange(4.0)))
