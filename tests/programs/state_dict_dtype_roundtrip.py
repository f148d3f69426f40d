# Models: the PyTorch "saving and loading models" recipes across dtypes: a model trained in
# float32 saved with torch.save into BytesIO, loaded into float64 and bfloat16 copies
# (load_state_dict copies with casting), optimizer state_dict round-trips and resumed training
# matching uninterrupted training, warm-starting with strict=False (missing/unexpected keys),
# renaming keys, a shape-mismatch error, and model.half()/.double() parameter dtypes.
import io

import torch
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.fc1 = nn.Linear(4, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.fc2 = nn.Linear(hidden, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


X = torch.randn(32, 4)
y = (X[:, 0] > X[:, 1]).long()


def train(model, opt, steps):
    for _ in range(steps):
        loss = nn.functional.cross_entropy(model(X), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return loss.item()


model = Net()
opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.1)
print("loss after 5 steps", train(model, opt, 5))

buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 5}, buf)
print("checkpoint bytes > 0:", buf.getbuffer().nbytes > 0)
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
print("keys", list(ckpt), "model keys", list(ckpt["model"]))
print("opt state keys", list(ckpt["opt"]["state"][0]), "step", ckpt["opt"]["state"][0]["step"])
print("param_groups", ckpt["opt"]["param_groups"])

m64 = Net().double()
print(m64.load_state_dict(ckpt["model"]))
print("fc1 weight dtype after load", m64.fc1.weight.dtype)
print("max diff float32 vs float64 copy:",
      (m64.fc1.weight - model.fc1.weight.double()).abs().max().item())
mbf = Net().to(torch.bfloat16)
mbf.load_state_dict(ckpt["model"])
print("bfloat16 copy", mbf.fc2.weight)
print("bn buffers", mbf.bn.running_mean.dtype, mbf.bn.num_batches_tracked)

# resume == uninterrupted
torch.manual_seed(1)
a = Net()
opt_a = torch.optim.AdamW(a.parameters(), lr=0.01, weight_decay=0.1)
train(a, opt_a, 4)
state = io.BytesIO()
torch.save({"model": a.state_dict(), "opt": opt_a.state_dict()}, state)
la = train(a, opt_a, 4)
state.seek(0)
saved = torch.load(state)
b = Net()
opt_b = torch.optim.AdamW(b.parameters(), lr=0.5)
b.load_state_dict(saved["model"])
opt_b.load_state_dict(saved["opt"])
print("lr after loading optimizer state", opt_b.param_groups[0]["lr"])
lb = train(b, opt_b, 4)
print("resumed loss equals uninterrupted:", la == lb, la)

# warm-start a bigger model
big = Net(hidden=8)
big.fc3 = nn.Linear(2, 2)
result = big.load_state_dict(model.state_dict(), strict=False)
print("missing", result.missing_keys, "unexpected", result.unexpected_keys)
small = nn.Sequential(nn.Linear(4, 8))
res = small.load_state_dict({"0." + k[4:]: v for k, v in model.state_dict().items()
                             if k.startswith("fc1.")}, strict=True)
print(res)
try:
    Net(hidden=6).load_state_dict(model.state_dict())
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
    print(len(str(e).splitlines()), "lines")
try:
    model.load_state_dict({"fc9.weight": torch.zeros(1)})
except RuntimeError as e:
    print(e)

h = Net().half()
print({n: p.dtype for n, p in h.named_parameters()})
print({n: b.dtype for n, b in h.named_buffers()})
sd = h.state_dict()
print("half state_dict value", sd["fc2.bias"])
print(type(sd).__name__, sd._metadata[""] if hasattr(sd, "_metadata") else None)
