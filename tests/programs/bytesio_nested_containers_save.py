# Models: torch.save / torch.load through io.BytesIO of the nested containers real checkpoints
# hold: dicts of lists of tuples of tensors, shared tensors and views keeping their sharing,
# non-tensor Python values, OrderedDict state_dicts, weights_only loading, and map_location.
import io
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)
base = torch.arange(12.0).reshape(3, 4)
view = base[1]
ckpt = {
    "epoch": 7,
    "name": "run-a",
    "metrics": [0.5, 0.25, None],
    "tensors": [base, view, (torch.tensor([1, 2], dtype=torch.int16), torch.tensor(True))],
    "nested": {"inner": {"deep": torch.ones(2, dtype=torch.float64)}},
    "odict": OrderedDict(b=torch.zeros(1), a=torch.ones(1)),
    "pair": (1, "x", 2.5),
}
buf = io.BytesIO()
torch.save(ckpt, buf)
buf.seek(0)
loaded = torch.load(buf)
print("keys", list(loaded))
print("epoch", loaded["epoch"], "name", loaded["name"], "metrics", loaded["metrics"])
print("tensors", loaded["tensors"][0], loaded["tensors"][1])
print("tuple", loaded["tensors"][2], type(loaded["tensors"][2]).__name__)
print("deep", loaded["nested"]["inner"]["deep"])
print("odict", type(loaded["odict"]).__name__, list(loaded["odict"]))
print("pair", loaded["pair"])
lb, lv = loaded["tensors"][0], loaded["tensors"][1]
lv.fill_(-1)
print("view sharing kept", lb)
print("view offset", lv.storage_offset(), lv.stride())
model = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
buf2 = io.BytesIO()
torch.save(
    {
        "model": model.state_dict(),
        "opt": torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9).state_dict(),
    },
    buf2,
)
buf2.seek(0)
state = torch.load(buf2, weights_only=True, map_location="cpu")
print("state keys", list(state["model"]))
print("opt param_groups", state["opt"]["param_groups"])
m2 = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
print(m2.load_state_dict(state["model"]))
print("weights equal", torch.equal(m2[0].weight, model[0].weight))
buf3 = io.BytesIO()
torch.save([torch.tensor(3.0), [torch.tensor([1.0])], {"k": [torch.tensor([[1, 2]])]}], buf3)
print("size > 0", buf3.tell() > 0)
buf3.seek(0)
print("list roundtrip", torch.load(buf3))
p = nn.Parameter(torch.tensor([1.0, 2.0]))
buf4 = io.BytesIO()
torch.save(p, buf4)
buf4.seek(0)
lp = torch.load(buf4)
print("parameter", type(lp).__name__, lp.requires_grad, lp)
g = torch.tensor([1.0], requires_grad=True) * 2
buf5 = io.BytesIO()
torch.save(g.detach(), buf5)
buf5.seek(0)
print("detached", torch.load(buf5).requires_grad)


class Custom:
    pass


buf6 = io.BytesIO()
torch.save({"obj": Custom()}, buf6)
buf6.seek(0)
try:
    torch.load(buf6, weights_only=True)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
