"""torch.jit.script / trace / save / load / freeze of modules: the modules they give print,
run, share parameters and pickle as torch's do."""
import io
import os
import tempfile

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.seq = nn.Sequential(nn.ReLU(), nn.Dropout(0.1))
        self.register_buffer("steps", torch.zeros(()))

    def forward(self, x):
        return self.seq(self.fc(x))


def reload(module):
    buf = io.BytesIO()
    torch.jit.save(module, buf)
    buf.seek(0)
    return torch.jit.load(buf)


def twice(x):
    return x * 2


torch.manual_seed(0)
net = Net()
s = torch.jit.script(net)
print(s)
print(net)
print(type(s).__name__, isinstance(s, torch.jit.ScriptModule), isinstance(s, Net),
      isinstance(s, nn.Module))
print(s.original_name, s.fc.original_name, s.fc.in_features)
print(s.fc.weight is net.fc.weight, s(torch.ones(1, 3)))
print([n for n, _ in s.named_modules()], [n for n, _ in s.named_buffers()])
s.eval()
print(s.training, net.training, s.seq.training)
t = torch.jit.trace(net, torch.ones(1, 3))
print(t)
print(type(t).__name__, t.fc)
print(s.state_dict().keys())
print(repr(s.fc), str(s.seq))
loaded = reload(t)
print(loaded)
print(type(loaded).__name__, type(loaded.fc).__name__, type(t.fc).__name__, loaded.training)
loaded = reload(s)
print(loaded(torch.ones(1, 3)), loaded.fc.weight.requires_grad)
with tempfile.TemporaryDirectory() as where:
    t.save(os.path.join(where, "traced.pt"))
    print(torch.jit.load(os.path.join(where, "traced.pt")).fc)
g = torch.jit.script(twice)
print(type(g).__name__, g(torch.ones(2)))
print(type(torch.jit.trace(twice, torch.ones(2))).__name__)
