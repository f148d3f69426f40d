# Models: the nn.Module API tour from the "Modules" notes: named_modules with duplicates and
# prefixes, children vs modules, apply() for init, parameters(recurse=False), register_buffer
# and register_parameter(None), extra_repr, ModuleDict/ModuleList/ParameterList/ParameterDict
# operations and reprs, Sequential slicing/append/insert/extend, to(dtype), requires_grad_,
# zero_grad(set_to_none=False), train/eval flags, and __dir__-style introspection.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Scaler(nn.Module):
    def __init__(self, n, init=1.0):
        super().__init__()
        self.weight = nn.Parameter(torch.full((n,), init))
        self.register_parameter("bias", None)
        self.register_buffer("count", torch.zeros((), dtype=torch.long))
        self.n = n

    def forward(self, x):
        self.count += 1
        return x * self.weight

    def extra_repr(self):
        return f"n={self.n}, init={self.weight[0].item():.1f}"


shared = nn.Linear(3, 3)
net = nn.Sequential(shared, nn.ReLU(), shared, Scaler(3))
print(net)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_modules(remove_duplicate=False)])
print([n for n, _ in net.named_modules(prefix="model")])
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_parameters(remove_duplicate=False)])
print(len(list(net.children())), len(list(net.modules())))
print([n for n, _ in net[3].named_parameters(recurse=False)], net[3].bias)
print([n for n, _ in net.named_buffers()])


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)
        print("init", type(m).__name__)


net.apply(init_weights)
out = net(torch.ones(2, 3))
print(out, net[3].count)

md = nn.ModuleDict({"enc": nn.Linear(2, 4), "act": nn.Tanh()})
md["dec"] = nn.Linear(4, 2)
md.update([("drop", nn.Dropout(0.5))])
print(md)
print(list(md.keys()), "enc" in md, len(md))
popped = md.pop("drop")
print(type(popped).__name__, list(md))

ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
ml.append(nn.ReLU())
ml.extend([nn.Sigmoid()])
ml.insert(1, nn.Identity())
print(ml)
print(ml[1:3], len(ml[-2:]))
del ml[0]
print([type(m).__name__ for m in ml])

pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3, 1))])
pl.append(nn.Parameter(torch.randn(1)))
print(pl)
print([tuple(p.shape) for p in pl], sum(p.numel() for p in pl))
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2)), "b": nn.Parameter(torch.zeros(1))})
pd["c"] = nn.Parameter(torch.ones(1, 1))
print(pd)
print(sorted(pd.keys()), [n for n, _ in pd.named_parameters()])

seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(seq[:2])
seq.append(nn.Sigmoid())
seq.insert(0, nn.Flatten())
print(seq)
print(type(seq[-1]).__name__, len(seq))
seq.extend(nn.Sequential(nn.Identity()))
print(len(seq))

d = seq.to(torch.float64)
print(d is seq, seq[1].weight.dtype)
seq.requires_grad_(False)
print(all(not p.requires_grad for p in seq.parameters()))
seq.requires_grad_(True)
seq.double()(torch.ones(1, 2, dtype=torch.float64)).sum().backward()
seq.zero_grad(set_to_none=False)
print(seq[1].weight.grad)
seq.zero_grad()
print(seq[1].weight.grad)
seq.eval()
print(seq.training, seq[1].training)
seq.train()
print(seq.training)
print([k for k in net.state_dict()])
print(net[3].count.dtype, net.get_buffer("3.count"))
