# Models: the PyTorch recipe "Warmstarting model using parameters from a different model"
# (load_state_dict(strict=False) with missing/unexpected keys, renaming keys to fit, BatchNorm
# filling num_batches_tracked) and the state_dict loading notes: load_state_dict(assign=True)
# keeping the checkpoint's storage, building under `with torch.device("cpu")`, to_empty then
# reset_parameters, and the errors a mismatched state_dict raises.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class NetA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.head = nn.Linear(84, 5)
        self.norm = nn.BatchNorm1d(84)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.norm(F.relu(self.fc2(x)))
        return self.head(x)


netA = NetA()
buf = io.BytesIO()
torch.save(netA.state_dict(), buf)
print("checkpoint keys:", list(netA.state_dict()))

netB = NetB()
buf.seek(0)
result = netB.load_state_dict(torch.load(buf, weights_only=True), strict=False)
print(result)
print("missing:", result.missing_keys)
print("unexpected:", result.unexpected_keys)
print("conv1 copied:", torch.equal(netB.conv1.weight, netA.conv1.weight))
print("fc2 copied:", torch.equal(netB.fc2.bias, netA.fc2.bias))

try:
    netB.load_state_dict(netA.state_dict())
except RuntimeError as e:
    print("RuntimeError:", e)

# rename keys so the head gets a slice of the old classifier
sd = netA.state_dict()
sd["head.weight"] = sd.pop("fc3.weight")[:5]
sd["head.bias"] = sd.pop("fc3.bias")[:5]
result = netB.load_state_dict(sd, strict=False)
print("after renaming:", result)
print(torch.equal(netB.head.weight, netA.fc3.weight[:5]))

# shape mismatch is an error even with strict=False
bad = {"fc1.weight": torch.zeros(3, 3), "fc2.bias": torch.zeros(84)}
try:
    netB.load_state_dict(bad, strict=False)
except RuntimeError as e:
    print("RuntimeError:", e)

x = torch.randn(2, 3, 32, 32)
netB.eval()
print("netB out:", netB(x))

# --- building without initialising, then loading -------------------------------------------
with torch.device("cpu"):
    fresh = NetA()
print(fresh.fc1.weight.device, fresh.fc1.weight.shape, fresh.fc1.weight.dtype)

# load_state_dict(assign=True) keeps the checkpoint's tensors themselves
state = netA.state_dict()
result = fresh.load_state_dict(state, assign=True)
print(result)
print("same storage:", fresh.fc1.weight.data_ptr() == state["fc1.weight"].data_ptr())
print("is Parameter:", type(fresh.fc1.weight).__name__, fresh.fc1.weight.requires_grad)
print(torch.allclose(fresh(x), netA(x)))
copied = NetA()
copied.load_state_dict(state)

# assign=True with a plain tensor for a parameter: the module wraps it in a Parameter
lin = nn.Linear(3, 2)
res = lin.load_state_dict({"weight": torch.ones(2, 3), "bias": torch.zeros(2)}, assign=True)
print(res, type(lin.weight).__name__, lin.weight.requires_grad)
print(lin(torch.ones(1, 3)))
try:
    lin.load_state_dict({"weight": torch.ones(3, 3), "bias": torch.zeros(2)}, assign=True)
except RuntimeError as e:
    print("RuntimeError:", e)

# to_empty: allocate new (uninitialised) storage, then initialise it
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
ptr = model[0].weight.data_ptr()
model.to_empty(device="cpu")
print("after to_empty:", model[0].weight.device, model[0].weight.shape)
torch.manual_seed(3)
for mod in model.modules():
    if isinstance(mod, nn.Linear):
        mod.reset_parameters()
print(model[0].weight)
print(model[2].bias)
print(model(torch.ones(1, 4)))
print(type(model.to_empty(device=torch.device("cpu"))).__name__)
