# Models: deployment-prep snippets: fusing Conv+BatchNorm for inference with
# torch.nn.utils.fusion, parameters_to_vector / vector_to_parameters round trips, module
# containers (ModuleDict, ParameterList, ParameterDict) and their printing, nn.init's less
# common initialisers (trunc_normal_, orthogonal_, dirac_, eye_, sparse_), module.to(float64),
# and unpad_sequence / unpack_sequence.
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval
from torch.nn.utils.rnn import pack_sequence, pad_sequence, unpack_sequence, unpad_sequence

torch.manual_seed(0)
conv = nn.Conv2d(3, 4, 3, padding=1)
bn = nn.BatchNorm2d(4)
x = torch.randn(2, 3, 5, 5)
bn.train()
for _ in range(3):
    bn(conv(x) * 1.5 + 0.2)
conv.eval()
bn.eval()
fused = fuse_conv_bn_eval(conv, bn)
ref = bn(conv(x))
print("fused conv max err < 1e-5:", (fused(x) - ref).abs().max().item() < 1e-5)
print(fused.bias)
lin, bn1 = nn.Linear(5, 3), nn.BatchNorm1d(3)
bn1.running_mean.uniform_(-1, 1)
bn1.running_var.uniform_(0.5, 2)
lin.eval()
bn1.eval()
fl = fuse_linear_bn_eval(lin, bn1)
z = torch.randn(4, 5)
print("fused linear max err < 1e-5:", (fl(z) - bn1(lin(z))).abs().max().item() < 1e-5)

net = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
vec = parameters_to_vector(net.parameters())
print(vec.shape, f"{vec.sum().item():.6f}")
vector_to_parameters(torch.arange(vec.numel(), dtype=torch.float32) / 10, net.parameters())
print(net[2].weight, net[2].bias)

md = nn.ModuleDict({"enc": nn.Linear(2, 2), "act": nn.ReLU()})
md["dec"] = nn.Linear(2, 1)
print(md)
print(list(md.keys()), len(md))
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3))])
pl.append(nn.Parameter(torch.full((1,), 2.0)))
print(pl)
pd = nn.ParameterDict({"scale": nn.Parameter(torch.tensor(1.5)),
                      "shift": nn.Parameter(torch.zeros(2))})
print(pd)
print(sum(p.numel() for p in pd.parameters()))

torch.manual_seed(1)
w = torch.empty(3, 5)
nn.init.trunc_normal_(w, mean=0.0, std=1.0, a=-0.5, b=0.5)
print(w)
q = torch.empty(4, 6)
nn.init.orthogonal_(q, gain=2.0)
print(q @ q.T)
d = torch.empty(2, 2, 3, 3)
nn.init.dirac_(d)
print(d[1, 1], d[0, 1].sum())
e = torch.empty(3, 4)
nn.init.eye_(e)
print(e)
s = torch.empty(6, 4)
nn.init.sparse_(s, sparsity=0.5, std=0.1)
print((s == 0).sum(0), s)
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("selu"))
k = torch.empty(3, 4, 2)
nn.init.kaiming_uniform_(k, mode="fan_out", nonlinearity="relu")
print(k[0])
net64 = nn.Sequential(nn.Linear(3, 2)).to(torch.float64)
print(net64[0].weight.dtype, net64(torch.ones(1, 3, dtype=torch.float64)))

seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
padded = pad_sequence(seqs, batch_first=True)
print(unpad_sequence(padded, torch.tensor([3, 1, 2]), batch_first=True))
packed = pack_sequence(seqs, enforce_sorted=False)
print(packed)
print(unpack_sequence(packed))
