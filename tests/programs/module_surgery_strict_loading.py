# Models: model surgery as done when adapting a pretrained backbone: replacing layers by
# attribute and by setattr on named_modules parents, apply() re-initialisation, non-persistent
# buffers, state_dict key listing, load_state_dict errors and strict=False's missing and
# unexpected keys.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(4, 10)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("cache", torch.zeros(3), persistent=False)

    def forward(self, x):
        return self.head(self.pool(self.features(x)).flatten(1)) * self.scale


net = Net()
print("state_dict keys", list(net.state_dict().keys()))
print("buffers", [n for n, _ in net.named_buffers()])
print("modules", [n for n, _ in net.named_modules()])
net.head = nn.Linear(4, 3)
for name, mod in list(net.named_modules()):
    if isinstance(mod, nn.ReLU):
        parent_name, _, child = name.rpartition(".")
        setattr(net.get_submodule(parent_name), child, nn.GELU())
print(net)


def init(m):
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)


net.apply(init)
x = torch.randn(2, 1, 5, 5)
print("out", net(x))
sd = net.state_dict()
print("num_batches_tracked", sd["features.1.num_batches_tracked"])
other = Net()
try:
    other.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", e)
sd2 = {k: v for k, v in sd.items() if not k.startswith("head")}
sd2["extra.weight"] = torch.zeros(1)
res = other.load_state_dict(sd2, strict=False)
print("missing", res.missing_keys)
print("unexpected", res.unexpected_keys)
print("result", res)
try:
    other.load_state_dict(sd2)
except RuntimeError as e:
    print("RuntimeError:", e)
bad = dict(other.state_dict())
bad["features.0.weight"] = torch.zeros(4, 1, 2, 2)
try:
    other.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", e)
print("cache in state_dict", "cache" in other.state_dict())
other.features[0] = nn.Identity()
print("after replace", other.features)
del other.features[1]
print("after del", other.features, len(other.features))
print("children", [type(c).__name__ for c in other.children()])
print("params", sum(p.numel() for p in net.parameters()))
for n, p in net.named_parameters():
    if not n.startswith("head"):
        p.requires_grad_(False)
print("trainable", [n for n, p in net.named_parameters() if p.requires_grad])
net.eval()
print("training flags", [m.training for m in net.modules()][:3])
