# Models: the torch.fx tutorials ("FX conv/bn fuser", "Replace one op", "Shape propagation",
# "Building a profiler with FX") on a small residual CNN -- symbolic_trace, printing gm.code and
# the graph, swapping torch.add for torch.mul and recompiling, inserting a node after each
# ReLU, folding BatchNorm into the preceding Conv2d by walking the graph, ShapeProp shapes, an
# Interpreter that counts multiply-adds, a Transformer, and a training step on the traced module.
import copy
import operator

import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F
from torch.fx.passes.shape_prop import ShapeProp
from torch.nn.functional import relu

torch.manual_seed(0)


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(torch.add(x, y))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.stem_bn = nn.BatchNorm2d(8)
        self.block = ResBlock(8)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        x = F.relu(self.stem_bn(self.stem(x)))
        x = self.block(x)
        x = torch.flatten(self.pool(x), 1)
        return F.log_softmax(self.fc(x), dim=-1)


net = Net()
x = torch.randn(4, 3, 8, 8)
target = torch.tensor([0, 3, 1, 4])
# a few training steps so that the BatchNorm statistics are not the defaults
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for _ in range(3):
    opt.zero_grad()
    loss = F.nll_loss(net(x), target)
    loss.backward()
    opt.step()
net.eval()

gm = torch.fx.symbolic_trace(net)
print(gm.code)
print(gm.graph)
print("nodes:", len(gm.graph.nodes))
for node in gm.graph.nodes:
    if node.op == "call_function":
        print(f"{node.name:12s} {node.op:14s} {node._pretty_print_target(node.target):40s} "
              f"{node.args} {node.kwargs}")
    else:
        print(f"{node.name:12s} {node.op:14s} {node.target!s:40s} {node.args} {node.kwargs}")

with torch.no_grad():
    ref = net(x)
    print("traced matches eager:", torch.equal(gm(x), ref))

# ---- replace one op: torch.add -> torch.mul, then recompile
swapped = copy.deepcopy(gm)
for node in swapped.graph.nodes:
    if node.op == "call_function" and node.target == torch.add:
        node.target = torch.mul
swapped.recompile()
print(swapped.code)
with torch.no_grad():
    print("swapped output row 0:", swapped(x)[0])

# ---- insert a node after every ReLU: scale by 0.5
scaled = copy.deepcopy(gm)
for node in list(scaled.graph.nodes):
    if node.op == "call_function" and node.target in (F.relu, relu):
        with scaled.graph.inserting_after(node):
            half = scaled.graph.call_function(operator.mul, (node, 0.5))
        node.replace_all_uses_with(half)
        half.update_arg(0, node)
scaled.graph.lint()
scaled.recompile()
print(scaled.code)


# ---- conv/bn fusion
def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    if conv_b is None:
        conv_b = torch.zeros_like(bn_rm)
    bn_var_rsqrt = torch.rsqrt(bn_rv + bn_eps)
    conv_w = conv_w * (bn_w * bn_var_rsqrt).reshape([-1] + [1] * (conv_w.ndim - 1))
    conv_b = (conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b
    return nn.Parameter(conv_w), nn.Parameter(conv_b)


def fuse(model):
    model = copy.deepcopy(model)
    fx_model = torch.fx.symbolic_trace(model)
    modules = dict(fx_model.named_modules())
    for node in fx_model.graph.nodes:
        if node.op != "call_module" or not isinstance(modules[node.target], nn.BatchNorm2d):
            continue
        conv_node = node.args[0]
        if conv_node.op != "call_module" or len(conv_node.users) > 1:
            continue
        conv, bn = modules[conv_node.target], modules[node.target]
        fused = copy.deepcopy(conv)
        with torch.no_grad():
            fused.weight, fused.bias = fuse_conv_bn_weights(
                conv.weight, conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight,
                bn.bias)
        parent, _, name = conv_node.target.rpartition(".")
        setattr(modules[parent] if parent else fx_model, name, fused)
        node.replace_all_uses_with(conv_node)
        fx_model.graph.erase_node(node)
    fx_model.graph.lint()
    fx_model.delete_all_unused_submodules()
    fx_model.recompile()
    return fx_model


fused = fuse(net)
print(fused)
with torch.no_grad():
    diff = (fused(x) - ref).abs().max().item()
print("fused max abs diff below 1e-5:", diff < 1e-5)
print("fused modules:", [name for name, _ in fused.named_modules()])

# ---- shape propagation
ShapeProp(fused).propagate(x)
for node in fused.graph.nodes:
    meta = node.meta.get("tensor_meta")
    if meta is not None:
        print(f"{node.name:12s} {str(tuple(meta.shape)):16s} {meta.dtype} {meta.stride}")


# ---- a multiply-add counter built on the Interpreter
class MacCounter(torch.fx.Interpreter):
    def __init__(self, module):
        super().__init__(module)
        self.macs = {}

    def call_module(self, target, args, kwargs):
        out = super().call_module(target, args, kwargs)
        mod = self.fetch_attr(target)
        if isinstance(mod, nn.Conv2d):
            self.macs[target] = out.numel() * mod.in_channels * mod.kernel_size[0] \
                * mod.kernel_size[1] // mod.groups
        elif isinstance(mod, nn.Linear):
            self.macs[target] = out.numel() * mod.in_features
        return out


counter = MacCounter(fused)
with torch.no_grad():
    counted = counter.run(x)
print("MACs:", counter.macs, "total", sum(counter.macs.values()))
print("interpreter matches module:", torch.equal(counted, fused(x).detach()))


# ---- a Transformer that turns every ReLU into GELU
class ReluToGelu(torch.fx.Transformer):
    def call_function(self, target, args, kwargs):
        if target in (F.relu, relu):
            return super().call_function(F.gelu, args[:1], {})
        return super().call_function(target, args, kwargs)


gelu_model = ReluToGelu(fused).transform()
print(gelu_model.code)

# ---- the traced module trains like the original: parameters are shared
train_gm = torch.fx.symbolic_trace(Net())
print("shares parameters:", train_gm.fc.weight is dict(train_gm.named_parameters())["fc.weight"])
opt = torch.optim.Adam(train_gm.parameters(), lr=1e-2)
for step in range(3):
    opt.zero_grad()
    loss = F.nll_loss(train_gm(x), target)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.6f}")
