# Models: a debugging utility built on global module hooks: register_module_forward_pre_hook,
# register_module_forward_hook and register_module_full_backward_hook applied to every module,
# call-order logging with shapes, and handle removal.
import torch
import torch.nn as nn
from torch.nn.modules.module import (
    register_module_forward_hook,
    register_module_forward_pre_hook,
    register_module_full_backward_hook,
)

torch.manual_seed(0)
events = []
h1 = register_module_forward_pre_hook(lambda m, a: events.append(("pre", type(m).__name__)))
h2 = register_module_forward_hook(
    lambda m, a, o: events.append(("fwd", type(m).__name__, tuple(o.shape))))
h3 = register_module_full_backward_hook(
    lambda m, gi, go: events.append(("bwd", type(m).__name__, tuple(go[0].shape))))
net = nn.Sequential(nn.Linear(3, 4), nn.GELU(), nn.Linear(4, 2))
x = torch.randn(5, 3, requires_grad=True)
out = net(x)
out.sum().backward()
for e in events:
    print(e)
for h in (h1, h2, h3):
    h.remove()
events.clear()
net(x)
print("after removal", events)
local = []
net[0].register_forward_hook(lambda m, a, o: local.append("local"))
h4 = register_module_forward_hook(lambda m, a, o: local.append("global"))
net(x)
print(local)
h4.remove()
print(out)
from torch.nn.modules.module import (  # noqa: E402
    register_module_backward_hook,
    register_module_buffer_registration_hook,
    register_module_full_backward_pre_hook,
    register_module_module_registration_hook,
    register_module_parameter_registration_hook,
)

seen = []
hp = register_module_full_backward_pre_hook(
    lambda m, go: seen.append(("bpre", type(m).__name__)) or (go[0] * 2,))
hb = register_module_full_backward_hook(lambda m, gi, go: seen.append(("bwd", type(m).__name__)))
x2 = torch.ones(2, 3, requires_grad=True)
net(x2).sum().backward()
print(seen)
print("doubled grads", x2.grad)
try:
    register_module_backward_hook(lambda m, gi, go: None)
except RuntimeError as e:
    print("RuntimeError:", e)
hp.remove()
hb.remove()
reg = []
r1 = register_module_module_registration_hook(
    lambda m, n, sub: reg.append(("module", n, type(sub).__name__)))
r2 = register_module_parameter_registration_hook(
    lambda m, n, p: reg.append(("param", n, tuple(p.shape))))
r3 = register_module_buffer_registration_hook(
    lambda m, n, b: reg.append(("buffer", n)) or (b * 0 if b is not None else None))
bn = nn.BatchNorm1d(3)
lin = nn.Linear(2, 2)
box = nn.Module()
box.inner = lin
box.add_module("other", nn.ReLU())
box.register_buffer("scale", torch.ones(2))
for r in reg:
    print(r)
print("buffer replaced", box.scale, bn.running_var)
for r in (r1, r2, r3):
    r.remove()
