# Models: the torch.nn.init cookbook printed: each initialiser on a small tensor under a fixed
# seed, calculate_gain for each nonlinearity, fan-in/fan-out modes, orthogonal and sparse
# initialisation checks, and the errors for tensors with too few dimensions.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)
torch.manual_seed(0)
w = torch.empty(3, 4)
for name in [
    "uniform_",
    "normal_",
    "xavier_uniform_",
    "xavier_normal_",
    "kaiming_uniform_",
    "kaiming_normal_",
    "trunc_normal_",
    "orthogonal_",
]:
    getattr(nn.init, name)(w)
    print(name, w)
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print("kaiming fan_out relu std", round(w.std().item(), 4))
nn.init.kaiming_uniform_(w, a=0.2, nonlinearity="leaky_relu")
print("kaiming leaky a=0.2 max", round(w.abs().max().item(), 4))
nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("tanh"))
print("xavier tanh", w)
nn.init.trunc_normal_(w, mean=0.0, std=1.0, a=-0.5, b=0.5)
print("trunc bounds", bool(w.min() >= -0.5), bool(w.max() <= 0.5))
nn.init.constant_(w, 0.3)
print("constant", w)
nn.init.ones_(w)
nn.init.zeros_(w[0])
print("ones then zeros row", w)
e = torch.empty(3, 3)
nn.init.eye_(e)
print("eye", e)
d = torch.empty(4, 2, 3)
nn.init.dirac_(d)
print("dirac", d)
s = torch.empty(6, 4)
nn.init.sparse_(s, sparsity=0.5)
print("sparse zeros per column", (s == 0).sum(0))
q = torch.empty(5, 3)
nn.init.orthogonal_(q)
print("orthogonal q^T q", (q.t() @ q).round(decimals=4))
for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print("gain", nl, nn.init.calculate_gain(nl))
print("gain leaky_relu 0.1", nn.init.calculate_gain("leaky_relu", 0.1))
try:
    nn.init.calculate_gain("swish")
except ValueError as e:
    print("ValueError:", e)
try:
    nn.init.xavier_uniform_(torch.empty(5))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.init.eye_(torch.empty(2, 2, 2))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.init.kaiming_normal_(torch.empty(3, 3), mode="fan_avg")
except ValueError as e:
    print("ValueError:", e)
conv = nn.Conv2d(2, 4, 3)
print(
    "default conv init bound",
    round(conv.weight.abs().max().item(), 4),
    "<=",
    round(1 / (2 * 9) ** 0.5, 4),
)
nn.init.kaiming_normal_(conv.weight, mode="fan_out")
print("conv kaiming fan_out std", round(conv.weight.std().item(), 4))
p = nn.Parameter(torch.empty(2, 2))
r = nn.init.normal_(p, std=0.02)
print("returns same", r is p, p.requires_grad, p.grad_fn)
