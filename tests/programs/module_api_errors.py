# Models: the nn.Module mistakes people post about, each caught and printed: assigning tensors
# to parameter names, bad buffer and module names, strict state-dict loading with missing,
# unexpected and mis-shaped keys, frozen parameters in optimizers and device/dtype moves.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(f"{label}: ok -> {out}")
    except Exception as e:
        print(f"{label}: {type(e).__name__}: {e}")


torch.manual_seed(0)
lin = nn.Linear(3, 2)


def assign_tensor():
    lin.weight = torch.zeros(2, 3)


attempt("assign tensor to parameter", assign_tensor)
attempt("register_buffer dotted", lambda: lin.register_buffer("a.b", torch.ones(1)))
attempt("register_buffer empty", lambda: lin.register_buffer("", torch.ones(1)))
attempt("register_buffer existing attr", lambda: lin.register_buffer("weight", torch.ones(1)))
attempt("register_buffer non-tensor", lambda: lin.register_buffer("stat", [1, 2]))
attempt("register_parameter tensor", lambda: lin.register_parameter("p", torch.ones(1)))
attempt("add_module non-module", lambda: lin.add_module("sub", torch.ones(1)))
attempt("add_module dotted", lambda: lin.add_module("a.b", nn.ReLU()))
attempt("missing attribute", lambda: lin.wieght)
attempt("get_submodule", lambda: nn.Sequential(nn.Linear(2, 2)).get_submodule("0.bias"))
attempt("get_submodule missing", lambda: nn.Sequential(nn.Linear(2, 2)).get_submodule("1"))
attempt("get_parameter", lambda: nn.Sequential(nn.Linear(2, 2)).get_parameter("0.bias").shape)
attempt("sequential index", lambda: nn.Sequential(nn.ReLU())[3])
attempt("modulelist call", lambda: nn.ModuleList([nn.ReLU()])(torch.ones(1)))
attempt("moduledict key", lambda: nn.ModuleDict({"a": nn.ReLU()})["b"])
attempt("parameterlist append tensor", lambda: len(nn.ParameterList([torch.ones(1)])))

net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
sd = net.state_dict()
print(list(sd.keys()))
bad = dict(sd)
bad.pop("2.bias")
bad["extra.weight"] = torch.ones(1)
attempt("strict load", lambda: net.load_state_dict(bad))
res = net.load_state_dict(bad, strict=False)
print("non-strict:", res.missing_keys, res.unexpected_keys)
shaped = dict(sd)
shaped["0.weight"] = torch.ones(5, 4)
attempt("size mismatch", lambda: net.load_state_dict(shaped))
attempt("size mismatch non-strict", lambda: net.load_state_dict(shaped, strict=False))
attempt("load non-dict", lambda: net.load_state_dict([1, 2]))
prefixed = {"module." + k: v for k, v in sd.items()}
attempt("DataParallel prefix", lambda: net.load_state_dict(prefixed))
nn.modules.utils.consume_prefix_in_state_dict_if_present(prefixed, "module.")
print("after consume_prefix:", net.load_state_dict(prefixed))

for p in net[0].parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, net.parameters()), lr=0.1)
print("trainable tensors in optimizer", len(opt.param_groups[0]["params"]))
attempt("optimizer empty", lambda: torch.optim.SGD([], lr=0.1))
attempt(
    "optimizer tensor not leaf",
    lambda: torch.optim.SGD([torch.ones(1, requires_grad=True) * 2], lr=0.1),
)
attempt("optimizer duplicate", lambda: torch.optim.Adam([lin.weight, lin.weight]))
attempt("optimizer bad lr", lambda: torch.optim.Adam(lin.parameters(), lr=-1))
attempt("optimizer bad betas", lambda: torch.optim.Adam(lin.parameters(), betas=(1.0, 0.9)))
attempt(
    "param in two groups",
    lambda: torch.optim.SGD([{"params": [lin.bias]}, {"params": [lin.bias]}], lr=0.1),
)
attempt("to bad dtype", lambda: lin.to(torch.int64))
attempt("half forward with float input", lambda: nn.Linear(2, 2).half()(torch.ones(1, 2)))
attempt("double module float input", lambda: nn.Linear(2, 2).double()(torch.ones(1, 2)))
attempt("wrong in_features", lambda: nn.Linear(3, 2)(torch.ones(4, 5)))
attempt("conv wrong channels", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 1, 8, 8)))
attempt("conv too small", lambda: nn.Conv2d(1, 1, 5)(torch.ones(1, 1, 3, 3)))
attempt("batchnorm one value", lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)))
attempt("embedding out of range", lambda: nn.Embedding(5, 2)(torch.tensor([5])))
attempt("embedding float index", lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
attempt("lstm 4-D input", lambda: nn.LSTM(3, 4)(torch.ones(2, 2, 2, 3)))
attempt("lstm wrong features", lambda: nn.LSTM(3, 4, batch_first=True)(torch.ones(2, 5, 6)))
attempt(
    "cross entropy float target 1-D",
    lambda: nn.CrossEntropyLoss()(torch.ones(2, 3), torch.tensor([0.0, 1.0])),
)
attempt("nll 3 classes target 3", lambda: nn.NLLLoss()(torch.zeros(2, 3), torch.tensor([0, 3])))
print(lin.extra_repr(), "|", net)
