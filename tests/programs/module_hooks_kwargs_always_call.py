# Models: the nn.Module hooks reference exercised as a debugging session would: forward pre
# hooks and forward hooks with_kwargs=True (rewriting args and kwargs), prepend=True ordering,
# always_call on an exception, full backward pre hooks replacing grad_output, full backward
# hooks observing grad_input, global module hooks, and handle.remove().
import torch
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook

torch.manual_seed(0)
log = []


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)

    def forward(self, x, scale=1.0, fail=False):
        if fail:
            raise ValueError("boom")
        return self.lin(x) * scale


m = Scale()


def pre_kwargs(module, args, kwargs):
    log.append(("pre", sorted(kwargs)))
    kwargs = dict(kwargs)
    kwargs["scale"] = kwargs.get("scale", 1.0) * 2
    return args, kwargs


def post_kwargs(module, args, kwargs, output):
    log.append(("post", kwargs.get("scale")))
    return output + 100


h1 = m.register_forward_pre_hook(pre_kwargs, with_kwargs=True)
h2 = m.register_forward_hook(post_kwargs, with_kwargs=True)
h3 = m.register_forward_hook(lambda mod, a, o: log.append(("first", tuple(o.shape))), prepend=True)
x = torch.randn(4, 3)
out = m(x, scale=0.5)
print(out - 100 - m.lin(x))
print(log)
log.clear()
h4 = m.register_forward_hook(lambda mod, a, o: log.append("always"), always_call=True)
try:
    m(x, fail=True)
except ValueError as e:
    print("ValueError:", e)
print(log)
for h in (h1, h2, h3, h4):
    h.remove()
log.clear()

grads = {}


def bw_pre(module, grad_output):
    grads["pre"] = grad_output[0].clone()
    return (grad_output[0] * 10,)


def bw(module, grad_input, grad_output):
    grads["in"] = [None if g is None else g.clone() for g in grad_input]
    grads["out"] = grad_output[0].clone()


lin = nn.Linear(3, 2)
hb1 = lin.register_full_backward_pre_hook(bw_pre)
hb2 = lin.register_full_backward_hook(bw)
xi = torch.randn(2, 3, requires_grad=True)
lin(xi).sum().backward()
print("pre", grads["pre"])
print("out", grads["out"])
print("in", grads["in"])
print("x.grad", xi.grad)
print("weight.grad", lin.weight.grad)
hb1.remove()
hb2.remove()

relu = nn.ReLU(inplace=False)
seen = []
relu.register_full_backward_hook(lambda mod, gi, go: seen.append((gi[0].tolist(), go[0].tolist())))
z = torch.tensor([-1.0, 2.0, 0.5], requires_grad=True)
(relu(z) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(seen)

gh = register_module_forward_hook(lambda mod, a, o: log.append(type(mod).__name__))
seq = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
seq(torch.randn(1, 2))
gh.remove()
seq(torch.randn(1, 2))
print(log)

no_grad_in = nn.Linear(2, 2)
no_grad_in.register_full_backward_hook(lambda mod, gi, go: print("grad_input", gi))
no_grad_in(torch.randn(1, 2)).sum().backward()


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        return x


c = Counter()
c.register_forward_pre_hook(lambda mod, args: mod.calls.add_(1))
for _ in range(3):
    c(torch.ones(1))
print("calls", c.calls, c.state_dict())
