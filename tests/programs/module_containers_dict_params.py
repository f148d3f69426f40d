# Models: nn.ModuleDict / nn.ParameterList / nn.ParameterDict as used in multi-head and
# per-task models: printing, insertion order, update/pop, indexing, state_dict keys, and
# the errors raised by wrong keys or types.
import torch
import torch.nn as nn

torch.manual_seed(0)
heads = nn.ModuleDict({"cls": nn.Linear(4, 3), "reg": nn.Linear(4, 1)})
heads["aux"] = nn.Sequential(nn.Linear(4, 2), nn.Tanh())
print(heads)
print("keys", list(heads.keys()), "len", len(heads), "cls" in heads)
popped = heads.pop("reg")
print("popped", popped, list(heads))
heads.update({"seg": nn.Conv1d(1, 2, 3)})
print("items", [(k, type(v).__name__) for k, v in heads.items()])
x = torch.randn(2, 4)
print("cls out", heads["cls"](x))
try:
    heads["missing"]
except KeyError as e:
    print("KeyError:", e)
try:
    heads["bad"] = 3
except TypeError as e:
    print("TypeError:", e)

plist = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3, 2))])
plist.append(nn.Parameter(torch.full((1,), 5.0)))
print(plist)
print("len", len(plist), "shapes", [tuple(p.shape) for p in plist])
print("plist[-1]", plist[-1])
print("named", [n for n, _ in plist.named_parameters()])
plist.extend([nn.Parameter(torch.randn(2))])
print("after extend", len(plist))

pdict = nn.ParameterDict(
    {"alpha": nn.Parameter(torch.tensor(0.5)), "beta": nn.Parameter(torch.ones(2, 2))}
)
pdict["gamma"] = nn.Parameter(torch.zeros(1))
print(pdict)
print("keys", list(pdict.keys()))
print("alpha", pdict["alpha"])
g = pdict.pop("gamma")
print("popped gamma", g.shape, list(pdict))


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(4, 4)
        self.heads = nn.ModuleDict({"a": nn.Linear(4, 2), "b": nn.Linear(4, 1)})
        self.temps = nn.ParameterDict(
            {"a": nn.Parameter(torch.tensor(1.0)), "b": nn.Parameter(torch.tensor(2.0))}
        )
        self.gates = nn.ParameterList([nn.Parameter(torch.ones(4)) for _ in range(2)])

    def forward(self, x):
        h = self.trunk(x) * self.gates[0] * self.gates[1]
        return {k: self.heads[k](h) / self.temps[k] for k in self.heads}


m = MultiTask()
print("state_dict keys", list(m.state_dict()))
out = m(x)
print({k: v.shape for k, v in out.items()})
loss = sum(v.sum() for v in out.values())
loss.backward()
print("temp grads", m.temps["a"].grad, m.temps["b"].grad)
print("gate grad", m.gates[0].grad)
print("num params", sum(p.numel() for p in m.parameters()))
ml = nn.ModuleList([nn.ReLU(), nn.Linear(2, 2)])
ml.insert(1, nn.Dropout(0.1))
print(ml)
print("ml[1:]", ml[1:])
