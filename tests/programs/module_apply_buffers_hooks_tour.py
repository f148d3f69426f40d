# Models: nn.Module bookkeeping used by frameworks: register_buffer(persistent=False) behaviour
# across state_dict / to() / load, register_parameter(None), add_module, get_parameter /
# get_buffer, named_modules with memo and prefixes, modules() dedup of shared layers,
# zero_grad(set_to_none), requires_grad_(False), extra_repr, train/eval propagation, and __repr__.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.register_buffer("step", torch.tensor(0))
        self.register_buffer("mask", torch.ones(d), persistent=False)
        self.register_parameter("gate", None)
        self.d = d

    def extra_repr(self):
        return f"d={self.d}"

    def forward(self, x):
        self.step += 1
        return self.fc(x) * self.mask


shared = Block(3)
net = nn.Sequential(shared, nn.ReLU(), shared)
net.add_module("out", nn.Linear(3, 1))
print(net)
print("named_modules", [n for n, _ in net.named_modules()])
print("no memo", [n for n, _ in net.named_modules(remove_duplicate=False)])
print("prefix", [n for n, _ in net.named_modules(prefix="model")][:3])
print("params", [n for n, _ in net.named_parameters()])
print("buffers", [n for n, _ in net.named_buffers()])
print("state_dict", list(net.state_dict()))
print("gate", shared.gate, "in params", "gate" in dict(shared.named_parameters()))
print("get_parameter", net.get_parameter("0.fc.bias").shape)
print("get_buffer", net.get_buffer("2.step"))
try:
    net.get_buffer("0.fc.weight")
except AttributeError as e:
    print("AttributeError:", e)
try:
    net.get_submodule("5")
except AttributeError as e:
    print("AttributeError:", e)
x = torch.randn(2, 3)
y = net(x)
print("steps", shared.step)
y.sum().backward()
print("grad set", shared.fc.weight.grad is not None)
net.zero_grad()
print("after zero_grad", shared.fc.weight.grad)
net.requires_grad_(False)
print("requires_grad", [p.requires_grad for p in net.parameters()])
net.eval()
print("eval flags", [m.training for m in net.modules()])
net.train()
net[1].eval()
print("mixed flags", [m.training for m in net.modules()])
seen = []
net.apply(lambda m: seen.append(type(m).__name__))
print("apply order", seen)
try:
    shared.register_buffer("fc", torch.zeros(1))
except KeyError as e:
    print("KeyError:", e)
try:
    shared.register_buffer("a.b", torch.zeros(1))
except KeyError as e:
    print("KeyError:", e)
try:
    shared.register_buffer("w", [1, 2])
except TypeError as e:
    print("TypeError:", e)
try:
    shared.register_parameter("p", torch.zeros(1))
except TypeError as e:
    print("TypeError:", e)
shared.mask = torch.zeros(3)
print("buffer reassigned", "mask" in dict(shared.named_buffers()), shared.mask)
fresh = nn.Sequential(Block(3), nn.ReLU(), Block(3), nn.Linear(3, 1))
try:
    fresh.load_state_dict(net.state_dict())
except RuntimeError as e:
    print("RuntimeError:", e)
print(fresh.load_state_dict(net.state_dict(), strict=False))
print("fresh mask kept", fresh[0].mask)
d = net.double()
print("buffer dtypes", shared.step.dtype, shared.mask.dtype)
del shared.fc
print("after del", shared)
