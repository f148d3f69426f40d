# Models: checkpointing as in public training scripts and the "Saving and Loading Models"
# recipe -- torch.save/torch.load of nested dicts with tensors, lists and tuples; a model,
# optimizer and LR scheduler state_dict resumed mid-training; io.BytesIO buffers;
# weights_only loading; shared storage preserved across views; map_location; and strict=False
# loading with missing/unexpected keys.
import io
import os

import torch
import torch.nn as nn

torch.manual_seed(0)
nested = {
    "step": 10,
    "name": "run-1",
    "tensors": [torch.arange(4), torch.ones(2, 2, dtype=torch.float64)],
    "pair": (torch.tensor(3.5), {"deep": torch.zeros(1, dtype=torch.bool)}),
    "ratio": 0.25,
}
buf = io.BytesIO()
torch.save(nested, buf)
buf.seek(0)
back = torch.load(buf)
print(sorted(back.keys()), back["step"], back["name"], back["ratio"])
print(back["tensors"][0], back["tensors"][1].dtype, back["pair"][0], back["pair"][1]["deep"])
print(type(back["pair"]).__name__, type(back["tensors"]).__name__)

base = torch.arange(6.0)
view = base[2:5]
buf = io.BytesIO()
torch.save({"base": base, "view": view}, buf)
buf.seek(0)
shared = torch.load(buf)
shared["view"][0] = 100.0
print("storage shared after load", shared["base"])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.bn = nn.BatchNorm1d(8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


def train_steps(model, opt, sched, n, seed):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n):
        x = torch.randn(8, 4, generator=g)
        y = torch.randint(0, 2, (8,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    return loss.item()


model = Net()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
print("loss after 5", round(train_steps(model, opt, sched, 5, 1), 6))
torch.save({"epoch": 5, "model_state_dict": model.state_dict(),
            "optimizer_state_dict": opt.state_dict(),
            "scheduler_state_dict": sched.state_dict()}, "ckpt.pt")
print("file saved", os.path.getsize("ckpt.pt") > 1000)
print("loss continued", round(train_steps(model, opt, sched, 4, 2), 6))

model2 = Net()
opt2 = torch.optim.Adam(model2.parameters(), lr=1e-2)
sched2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=3, gamma=0.5)
ckpt = torch.load("ckpt.pt", weights_only=True)
model2.load_state_dict(ckpt["model_state_dict"])
opt2.load_state_dict(ckpt["optimizer_state_dict"])
sched2.load_state_dict(ckpt["scheduler_state_dict"])
print("resumed epoch", ckpt["epoch"], sched2.get_last_lr(), opt2.param_groups[0]["lr"])
print("loss resumed", round(train_steps(model2, opt2, sched2, 4, 2), 6))
print("same weights", all(torch.equal(a, b) for a, b in
                          zip(model.state_dict().values(), model2.state_dict().values())))
print(list(ckpt["optimizer_state_dict"]["state"][0].keys()))
print(ckpt["optimizer_state_dict"]["param_groups"][0]["params"])
print(ckpt["scheduler_state_dict"]["last_epoch"],
      ckpt["model_state_dict"]["bn.num_batches_tracked"])

sd = model.state_dict()
sd["extra.weight"] = torch.zeros(1)
del sd["fc2.bias"]
result = Net().load_state_dict(sd, strict=False)
print("missing", result.missing_keys, "unexpected", result.unexpected_keys)
try:
    Net().load_state_dict(sd)
except RuntimeError as e:
    print("strict load failed:", str(e).splitlines()[0])
bad = {k: v for k, v in model.state_dict().items()}
bad["fc1.weight"] = torch.zeros(3, 4)
try:
    Net().load_state_dict(bad)
except RuntimeError as e:
    print(str(e).splitlines()[1].strip())

torch.save(model, "whole.pt")
whole = torch.load("whole.pt", weights_only=False)
print(type(whole).__name__, whole.fc1.weight.shape, whole.training)
try:
    torch.load("whole.pt", weights_only=True)
except Exception as e:
    print(type(e).__name__, "weights_only refused a module")
loaded = torch.load("ckpt.pt", map_location="cpu")
print(loaded["model_state_dict"]["fc1.weight"].device)
t = torch.randn(3, requires_grad=True)
buf = io.BytesIO()
torch.save(t, buf)
buf.seek(0)
t2 = torch.load(buf)
print(t2.requires_grad, t2.is_leaf, torch.equal(t, t2))
