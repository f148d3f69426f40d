# Models: a debugging notebook that instruments a model with every kind of hook: forward
# pre-hooks that rewrite inputs (with_kwargs=True), forward hooks that replace outputs,
# register_full_backward_pre_hook scaling grad_output, full backward hooks reading grad_input,
# tensor hooks, post-accumulate-grad hooks, module-global hooks, and handle.remove().
import torch
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

torch.manual_seed(2)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.act = nn.Tanh()

    def forward(self, x, scale=1.0):
        return self.act(self.fc(x)) * scale


net = nn.Sequential(Block(), nn.Linear(4, 2))
log = []


def pre_kwargs(mod, args, kwargs):
    log.append(("pre", type(mod).__name__, tuple(args[0].shape), dict(kwargs)))
    return args, {"scale": 2.0}


def fwd_kwargs(mod, args, kwargs, out):
    log.append(("fwd", kwargs.get("scale")))
    return out + 1


def bwd_pre(mod, grad_output):
    print("bwd_pre", type(mod).__name__, [g.shape for g in grad_output])
    return (grad_output[0] * 0.5,)


def bwd(mod, grad_input, grad_output):
    print("bwd", type(mod).__name__, [None if g is None else tuple(g.shape) for g in grad_input],
          grad_output[0].sum().item())


h1 = net[0].register_forward_pre_hook(pre_kwargs, with_kwargs=True)
h2 = net[0].register_forward_hook(fwd_kwargs, with_kwargs=True)
h3 = net[1].register_full_backward_pre_hook(bwd_pre)
h4 = net[1].register_full_backward_hook(bwd)
h5 = net[0].fc.register_full_backward_hook(bwd)
acc = []
h6 = net[1].weight.register_post_accumulate_grad_hook(lambda p: acc.append(p.grad.norm().item()))
x = torch.randn(3, 4, requires_grad=True)
x.register_hook(lambda g: print("x.grad hook", g.shape, f"{g.abs().sum().item():.6f}"))
y = net(x)
print(log)
print(y)
y.sum().backward()
print("acc", [f"{a:.6f}" for a in acc])
print(net[1].weight.grad)
print(x.grad)
for h in (h1, h2, h3, h4, h5, h6):
    h.remove()
log.clear()
net.zero_grad()
y2 = net(x)
y2.sum().backward()
print(log, acc.__len__(), net[1].weight.grad)
seen = []
g1 = register_module_forward_pre_hook(lambda m, a: seen.append(("pre", type(m).__name__)))
g2 = register_module_forward_hook(lambda m, a, o: seen.append(("post", type(m).__name__,
                                                               tuple(o.shape))))
net(torch.zeros(1, 4))
g1.remove()
g2.remove()
print(seen)
net(torch.zeros(1, 4))
print(len(seen))


def replace_input(mod, args):
    return (args[0].clamp(min=0),)


lin = nn.Linear(3, 1)
h = lin.register_forward_pre_hook(replace_input)
inp = torch.tensor([[-1.0, 2.0, -3.0]])
print(lin(inp), lin.weight @ inp.clamp(min=0).T + lin.bias)
h.remove()
print(lin._forward_pre_hooks, len(lin._forward_hooks), len(lin._backward_hooks))
relu = nn.ReLU(inplace=True)
relu.register_full_backward_hook(bwd)
z = torch.randn(2, 3, requires_grad=True)
try:
    relu(z * 1).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])
