# Models: checkpoint-compatibility code in a model zoo: register_state_dict_pre_hook and
# state-dict post hooks that rename keys, register_load_state_dict_pre_hook migrating an old
# checkpoint, register_load_state_dict_post_hook inspecting incompatible keys, strict=False
# reports (missing/unexpected), assign=True loading, buffers with persistent=False, and
# get_submodule/set_submodule/get_parameter/get_buffer.
import io

import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.norm = nn.LayerNorm(4)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("cache", torch.zeros(4), persistent=False)

    def forward(self, x):
        return self.norm(self.proj(x)) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.block(x))


net = Net()
sd = net.state_dict()
print(list(sd.keys()))
print(type(sd).__name__, sd._metadata[""], sd._metadata["block.proj"])
print([n for n, _ in net.named_buffers()])

calls = []
net.register_state_dict_pre_hook(
    lambda mod, prefix, keep_vars: calls.append(("pre", prefix, keep_vars))
)
net.block.register_state_dict_pre_hook(
    lambda mod, prefix, keep_vars: calls.append(("pre-block", prefix))
)
sd = net.state_dict(keep_vars=True)
print(calls, type(sd["head.weight"]).__name__)


def migrate(
    module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
):
    for k in list(state_dict):
        if k.startswith(prefix + "fc."):
            state_dict[k.replace(prefix + "fc.", prefix + "proj.")] = state_dict.pop(k)


old = {k.replace("proj", "fc"): v.clone() for k, v in Net().state_dict().items()}
print("old keys", list(old))
net.block.register_load_state_dict_pre_hook(migrate)
reports = []
net.register_load_state_dict_post_hook(
    lambda mod, incompatible: reports.append(
        (list(incompatible.missing_keys), list(incompatible.unexpected_keys))
    )
)
res = net.load_state_dict(old)
print(res, reports)
print(torch.equal(net.block.proj.weight, old["block.fc.weight"]))

partial = {"head.weight": torch.zeros(2, 4), "extra.bias": torch.ones(1)}
res = net.load_state_dict(partial, strict=False)
print("missing", res.missing_keys)
print("unexpected", res.unexpected_keys)
try:
    net.load_state_dict(partial)
except RuntimeError as e:
    print(str(e))
try:
    net.load_state_dict({**net.state_dict(), "head.weight": torch.zeros(3, 4)})
except RuntimeError as e:
    print(str(e))

fresh = Net()
before = fresh.head.weight
fresh.load_state_dict(net.state_dict(), assign=True)
print(
    "assign replaced the parameter:",
    fresh.head.weight is not before,
    type(fresh.head.weight).__name__,
)
print(torch.equal(fresh.head.weight, net.head.weight), fresh.head.weight.requires_grad)
copied = Net()
before = copied.head.weight
copied.load_state_dict(net.state_dict())
print("copy kept the parameter:", copied.head.weight is before)

print(
    type(net.get_submodule("block.norm")).__name__,
    net.get_parameter("block.norm.weight").shape,
    net.get_buffer("block.scale"),
)
net.set_submodule("block.norm", nn.Identity())
print(net.block)
try:
    net.get_submodule("block.missing")
except AttributeError as e:
    print("AttributeError:", e)
try:
    net.get_parameter("block.scale")
except AttributeError as e:
    print("AttributeError:", e)

buf = io.BytesIO()
torch.save({"model": net.state_dict(), "step": 7}, buf)
buf.seek(0)
ck = torch.load(buf)
print(sorted(ck["model"].keys()), ck["step"])
