# Models: a "PyTorch module internals" tutorial (forward pre-hooks and hooks with kwargs,
# full backward hooks, register_buffer persistent/non-persistent, state_dict and strict=False
# loading with missing/unexpected keys, named_modules/named_buffers, apply for init,
# parameters freezing with requires_grad_, train/eval flags, extra_repr, deepcopy).
import copy

import torch
import torch.nn as nn

torch.manual_seed(3)


class Scale(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))
        self.register_buffer("cache", torch.zeros(n), persistent=False)

    def forward(self, x):
        self.calls += 1
        self.cache = x.detach().mean(0)
        return x * self.weight

    def extra_repr(self):
        return f"n={self.weight.numel()}"


net = nn.Sequential(nn.Linear(4, 6), Scale(6), nn.Tanh(), nn.Linear(6, 2))
print(net)
log = []
h1 = net[0].register_forward_pre_hook(lambda m, args: log.append(("pre", tuple(args[0].shape))))
h2 = net[1].register_forward_hook(
    lambda m, args, out: log.append(("fwd", round(out.sum().item(), 4))))
h3 = net[3].register_full_backward_hook(
    lambda m, gin, gout: log.append(("bwd", tuple(gout[0].shape), round(gin[0].sum().item(), 4))))
h4 = net.register_forward_hook(lambda m, args, kwargs, out: out * 2, with_kwargs=True)
x = torch.randn(3, 4)
out = net(x)
out.sum().backward()
print(log)
for h in (h1, h2, h3, h4):
    h.remove()
print(torch.allclose(net(x) * 2, out))
sd = net.state_dict()
print(list(sd.keys()))
print({k: tuple(v.shape) for k, v in net.named_buffers()})
net2 = nn.Sequential(nn.Linear(4, 6), Scale(6), nn.Tanh(), nn.Linear(6, 2), nn.Linear(2, 2))
res = net2.load_state_dict(sd, strict=False)
print(res.missing_keys, res.unexpected_keys)
try:
    net2.load_state_dict(sd)
except RuntimeError as e:
    print("strict:", str(e).splitlines()[0])


def init(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight, gain=nn.init.calculate_gain("tanh"))
        nn.init.constant_(m.bias, 0.01)


net.apply(init)
print(net[0].weight[0], net[3].bias)
net[0].requires_grad_(False)
print([n for n, p in net.named_parameters() if p.requires_grad])
print([(n, type(m).__name__, m.training) for n, m in net.eval().named_modules()])
clone = copy.deepcopy(net)
clone[3].weight.data.mul_(0)
print(net[3].weight.abs().sum().item() > 0, clone[3].weight.abs().sum().item())
print(net[1].calls, sum(p.numel() for p in net.parameters()))
