# Models: the PyTorch recipes "Saving and loading models for inference", "Saving and loading
# multiple models in one file" and "Warmstarting model using parameters from a different model"
# (state_dict to BytesIO, load_state_dict with strict=False and its missing/unexpected keys).
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(4 * 3 * 3, 8)
        self.fc2 = nn.Linear(8, 5)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = torch.flatten(x, 1)
        return self.fc2(F.relu(self.fc1(x)))


class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(4 * 3 * 3, 8)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        return self.head(F.relu(self.fc1(torch.flatten(x, 1))))


netA = Net()
netB = Net()
optA = optim.SGD(netA.parameters(), lr=0.01, momentum=0.9)
optB = optim.Adam(netB.parameters(), lr=1e-3)
x = torch.randn(2, 3, 8, 8)
for opt, net in ((optA, netA), (optB, netB)):
    opt.zero_grad()
    net(x).sum().backward()
    opt.step()

print("state_dict keys:")
for k, v in netA.state_dict().items():
    print(f"  {k:14s} {tuple(v.size())}")
print("optimizer state_dict param_groups:", optA.state_dict()["param_groups"])

buf = io.BytesIO()
torch.save(
    {
        "modelA_state_dict": netA.state_dict(),
        "modelB_state_dict": netB.state_dict(),
        "optimizerA_state_dict": optA.state_dict(),
        "optimizerB_state_dict": optB.state_dict(),
    },
    buf,
)
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
print(sorted(ckpt))
a2, b2 = Net(), Net()
print(a2.load_state_dict(ckpt["modelA_state_dict"]))
b2.load_state_dict(ckpt["modelB_state_dict"])
oa = optim.SGD(a2.parameters(), lr=0.5)
oa.load_state_dict(ckpt["optimizerA_state_dict"])
print("restored lr:", oa.param_groups[0]["lr"], "momentum:", oa.param_groups[0]["momentum"])
print("momentum buffer 0:", oa.state[a2.conv1.weight]["momentum_buffer"].shape)
ob = optim.Adam(b2.parameters())
ob.load_state_dict(ckpt["optimizerB_state_dict"])
print(
    "adam step:",
    ob.state[b2.conv1.weight]["step"],
    f"exp_avg_sq sum: {ob.state[b2.fc1.bias]['exp_avg_sq'].sum():.6e}",
)
a2.eval()
b2.eval()
with torch.no_grad():
    print(torch.allclose(a2(x), netA(x)), torch.equal(b2(x), netB(x)))
    print(a2(x))

# warmstart a different architecture
wb = NetB()
res = wb.load_state_dict(netA.state_dict(), strict=False)
print(res)
print("missing:", res.missing_keys)
print("unexpected:", res.unexpected_keys)
print(torch.equal(wb.conv1.weight, netA.conv1.weight))
try:
    wb.load_state_dict(netA.state_dict())
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
    print(len(str(e).splitlines()))

# shape mismatch is an error even with strict=False
sd = netA.state_dict()
sd["fc1.weight"] = torch.zeros(3, 3)
try:
    wb.load_state_dict(sd, strict=False)
except RuntimeError as e:
    print(str(e))

# save a whole entire module with torch.save / load weights_only=False
buf = io.BytesIO()
torch.save(netA.state_dict(), buf)
print("bytes > 0:", buf.tell() > 0)
buf.seek(0)
sd = torch.load(buf, map_location="cpu")
print(type(sd).__name__, list(sd)[:3])
print(sd["fc2.bias"])
