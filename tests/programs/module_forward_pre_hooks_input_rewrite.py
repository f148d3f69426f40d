# Models: a blog post on module hooks: forward pre-hooks that rewrite inputs, forward hooks that
# replace outputs, with_kwargs hooks, prepend ordering, full backward hooks reporting grad shapes,
# and removing handles.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
log = []


def scale_input(mod, args):
    log.append(("pre", type(mod).__name__, tuple(args[0].shape)))
    return (args[0] * 2,)


def clamp_out(mod, args, out):
    log.append(("fwd", type(mod).__name__))
    return out.clamp(-0.5, 0.5)


def kw_pre(mod, args, kwargs):
    log.append(("kwpre", sorted(kwargs)))
    return args, kwargs


def bwd(mod, grad_input, grad_output):
    ins = [None if g is None else tuple(g.shape) for g in grad_input]
    log.append(("bwd", type(mod).__name__, ins, [tuple(g.shape) for g in grad_output]))


h1 = net[0].register_forward_pre_hook(scale_input)
h2 = net[1].register_forward_hook(clamp_out)
h3 = net[2].register_full_backward_hook(bwd)
h4 = net.register_forward_pre_hook(kw_pre, with_kwargs=True)
h5 = net[0].register_forward_pre_hook(lambda m, a: log.append(("first",)), prepend=True)
x = torch.randn(5, 4, requires_grad=True)
y = net(x)
print(y)
y.sum().backward()
for item in log:
    print(item)
print("x.grad\n", x.grad)
for h in (h1, h2, h3, h4, h5):
    h.remove()
log.clear()
y2 = net(x)
print("after remove", log, torch.equal(y, y2))
print("hooks dicts", len(net[0]._forward_pre_hooks), len(net[2]._backward_hooks))
