# Models: the "Saving and loading models" recipe's three ways on disk (a temporary directory):
# state_dict only, the whole pickled model (torch.save(model); torch.load(weights_only=False)),
# and a general checkpoint dict; the weights_only=True default refusing an unknown class with
# its error, torch.serialization.add_safe_globals / safe_globals allowing it, map_location and
# mmap loading, and inference after loading in eval mode.
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TheModelClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(6 * 3 * 3, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        return self.fc1(torch.flatten(x, 1))


class Config:
    def __init__(self, lr):
        self.lr = lr


model = TheModelClass()
optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
x = torch.randn(2, 3, 8, 8)
model(x).sum().backward()
optimizer.step()
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "model_weights.pth")
    torch.save(model.state_dict(), path)
    m2 = TheModelClass()
    print(m2.load_state_dict(torch.load(path, weights_only=True)))
    m2.eval()
    print("same output:", torch.equal(m2(x), model.eval()(x)))

    whole = os.path.join(d, "model.pth")
    torch.save(model, whole)
    try:
        torch.load(whole)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
    m3 = torch.load(whole, weights_only=False)
    print(type(m3).__name__, m3.training, torch.equal(m3.fc1.weight, model.fc1.weight))

    ck = os.path.join(d, "ckpt.tar")
    torch.save(
        {
            "epoch": 3,
            "model_state_dict": model.state_dict(),
            "optimizer_state_dict": optimizer.state_dict(),
            "loss": torch.tensor(0.25),
            "config": Config(0.001),
        },
        ck,
    )
    try:
        torch.load(ck)
    except Exception as e:
        print(type(e).__name__, "Weights only load failed" in str(e))
    torch.serialization.add_safe_globals([Config])
    checkpoint = torch.load(ck, map_location="cpu")
    print(checkpoint["epoch"], checkpoint["loss"], checkpoint["config"].lr, sorted(checkpoint))
    print(sorted(checkpoint["optimizer_state_dict"]["state"][0].keys()))
    m4 = TheModelClass()
    o4 = torch.optim.SGD(m4.parameters(), lr=0.1)
    m4.load_state_dict(checkpoint["model_state_dict"])
    o4.load_state_dict(checkpoint["optimizer_state_dict"])
    print(o4.param_groups[0]["lr"], o4.param_groups[0]["momentum"])
    mm = torch.load(path, mmap=True, weights_only=True)
    print(sorted(mm.keys()), mm["fc1.bias"].shape)
    tensors = os.path.join(d, "tensors.pt")
    torch.save([torch.arange(3), {"a": torch.ones(2, dtype=torch.float16)}], tensors)
    print(torch.load(tensors))
    print(sorted(os.listdir(d)))
