# Models: the printed summaries of model code built from containers: ModuleDict, ModuleList,
# ParameterList, ParameterDict, Sequential with OrderedDict names and slicing, extra_repr,
# nested indentation, get_submodule/get_parameter, named_children/named_modules prefixes,
# apply() with an init function, and a parameter-count table.
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(1)


class Gate(nn.Module):
    def __init__(self, d, temperature=1.0):
        super().__init__()
        self.d, self.temperature = d, temperature
        self.w = nn.Parameter(torch.zeros(d))

    def extra_repr(self):
        return f"d={self.d}, temperature={self.temperature}"

    def forward(self, x):
        return x * torch.sigmoid(self.w / self.temperature)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(OrderedDict([("conv", nn.Conv2d(3, 4, 3, padding=1)),
                                               ("bn", nn.BatchNorm2d(4)),
                                               ("act", nn.ReLU(inplace=True))]))
        self.heads = nn.ModuleDict({"cls": nn.Linear(4, 3), "reg": nn.Linear(4, 1)})
        self.blocks = nn.ModuleList([Gate(4, t) for t in (0.5, 1.0)])
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(1) * i) for i in range(3)])
        self.biases = nn.ParameterDict({"a": nn.Parameter(torch.zeros(2)),
                                        "b": nn.Parameter(torch.zeros(3, 3))})
        self.register_buffer("step", torch.tensor(0))

    def forward(self, x):
        h = self.stem(x).mean(dim=(2, 3))
        for blk in self.blocks:
            h = blk(h)
        return {k: head(h) * self.scales[1] for k, head in self.heads.items()}


net = Net()
print(net)
print(net.stem[:2], net.stem.conv is net.stem[0], len(net.stem))
print(net.scales, net.biases)
print([n for n, _ in net.named_children()])
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_parameters()])
print(net.get_submodule("stem.bn"), net.get_parameter("blocks.1.w"), net.get_buffer("step"))
try:
    net.get_submodule("stem.pool")
except AttributeError as e:
    print("AttributeError:", e)


def init(m):
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        if m.bias is not None:
            nn.init.constant_(m.bias, 0.01)


net.apply(init)
out = net(torch.randn(2, 3, 5, 5))
print({k: v.shape for k, v in out.items()}, out["reg"])
print(f"{'name':<22}{'shape':<22}{'params':>8}")
for n, p in net.named_parameters():
    print(f"{n:<22}{str(tuple(p.shape)):<22}{p.numel():>8}")
print("total", sum(p.numel() for p in net.parameters()),
      "trainable", sum(p.numel() for p in net.parameters() if p.requires_grad))
net.heads["aux"] = nn.Identity()
net.blocks.append(Gate(4))
net.scales.append(nn.Parameter(torch.full((1,), 7.0)))
del net.heads["reg"]
print(list(net.heads.keys()), len(net.blocks), len(net.scales), net.blocks[-1])
seq = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
seq.insert(1, nn.Dropout(0.1))
seq.append(nn.Sigmoid())
print(seq, seq[-2:], seq[::2])
print(nn.ModuleList([nn.ReLU()] * 2), nn.Sequential())
print(nn.ParameterList([torch.ones(2), nn.Parameter(torch.zeros(1, dtype=torch.float64))]))
print(repr(nn.Linear(3, 2, bias=False)), nn.Conv1d(2, 4, 3, stride=2, dilation=2, groups=2))
print(nn.LSTM(3, 4, num_layers=2, dropout=0.1, bidirectional=True),
      nn.Embedding(5, 2, padding_idx=0))
print(nn.MultiheadAttention(8, 2), nn.TransformerEncoderLayer(8, 2, 16))
