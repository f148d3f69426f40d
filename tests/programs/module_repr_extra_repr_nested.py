# Models: a custom-module printing lesson: extra_repr on a user module, nested Sequential with
# OrderedDict names, repeated blocks compressed in ModuleList repr, ModuleDict and
# ParameterList/ParameterDict reprs, and __repr__ of modules holding no children.
from collections import OrderedDict

import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self, factor, learnable=False):
        super().__init__()
        self.factor = factor
        self.learnable = learnable
        self.alpha = nn.Parameter(torch.ones(1)) if learnable else None

    def extra_repr(self):
        return f"factor={self.factor}, learnable={self.learnable}"

    def forward(self, x):
        return x * self.factor


net = nn.Sequential(OrderedDict([
    ("stem", nn.Conv2d(3, 8, 3, padding=1, bias=False)),
    ("norm", nn.BatchNorm2d(8)),
    ("act", nn.ReLU(inplace=True)),
    ("blocks", nn.ModuleList([nn.Linear(8, 8) for _ in range(3)] + [nn.Linear(8, 4)])),
    ("heads", nn.ModuleDict({"cls": nn.Linear(4, 2), "reg": Scale(0.5, True)})),
]))
print(net)
print(Scale(2.0))
pl = nn.ParameterList([nn.Parameter(torch.zeros(2, 3)), nn.Parameter(torch.ones(4))])
print(pl)
pd = nn.ParameterDict({"a": nn.Parameter(torch.zeros(1)), "b": nn.Parameter(torch.zeros(2, 2))})
print(pd)
print(nn.Identity(), nn.Dropout(p=0.25), nn.Flatten(), nn.Softmax(dim=-1))
print(nn.MultiheadAttention(8, 2))
print(nn.Embedding(10, 3, padding_idx=0), nn.LSTM(4, 5, num_layers=2, batch_first=True))
print(nn.Sequential(*[nn.Sequential(nn.Linear(2, 2), nn.ReLU()) for _ in range(2)]))
