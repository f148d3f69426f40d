# Models: nn.Module state_dict plumbing seen in library code: register_state_dict_pre_hook and
# state_dict post hooks that rename keys, register_load_state_dict_pre_hook migrating an old
# checkpoint format, register_load_state_dict_post_hook inspecting incompatible keys,
# get_submodule/set_submodule/get_parameter/get_buffer, non-persistent buffers, extra_state,
# load_state_dict(strict=False, assign=True) and the error messages of strict loading.
import torch
from torch import nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.register_buffer("scale", torch.ones(3))
        self.register_buffer("cache", torch.zeros(2), persistent=False)
        self.version = 2

    def get_extra_state(self):
        return {"version": self.version}

    def set_extra_state(self, state):
        self.version = state["version"]

    def forward(self, x):
        return self.lin(x) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = Block()
        self.head = nn.Linear(3, 1)

    def forward(self, x):
        return self.head(self.enc(x))


net = Net()
sd = net.state_dict()
print(list(sd.keys()))
print(sd["enc._extra_state"], type(sd).__name__, sd._metadata[""], sd._metadata["enc.lin"])

calls = []
net.register_state_dict_pre_hook(
    lambda m, prefix, keep_vars: calls.append(("pre", prefix, keep_vars)))


def post(module, state_dict, prefix, local_metadata):
    calls.append(("post", prefix, sorted(local_metadata)))
    state_dict[prefix + "note"] = torch.tensor(7)


net.register_state_dict_post_hook(post)
sd2 = net.state_dict(keep_vars=True)
print(calls, "note" in sd2, type(sd2["head.weight"]).__name__)


def migrate(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    for k in list(state_dict):
        if k.startswith(prefix + "fc."):
            state_dict[k.replace(prefix + "fc.", prefix + "lin.")] = state_dict.pop(k)


net.enc._register_load_state_dict_pre_hook(migrate, with_module=False)
seen = []
net.register_load_state_dict_post_hook(
    lambda m, inc: seen.append((list(inc.missing_keys), list(inc.unexpected_keys))))
old = {k.replace("enc.lin.", "enc.fc."): (v.clone() + 1 if torch.is_tensor(v) else v)
       for k, v in net.state_dict().items() if k != "note"}
print(sorted(old))
res = net.load_state_dict(old, strict=False)
print(res, seen, torch.equal(net.enc.lin.bias, old["enc.fc.bias"]))

try:
    net.load_state_dict({"head.weight": torch.zeros(2, 3)}, strict=True)
except RuntimeError as e:
    print(str(e))

print(net.get_submodule("enc.lin"), net.get_parameter("enc.lin.bias").shape,
      net.get_buffer("enc.scale"))
try:
    net.get_submodule("enc.nope")
except AttributeError as e:
    print("AttributeError:", e)
try:
    net.get_parameter("enc.scale")
except AttributeError as e:
    print("AttributeError:", e)
net.set_submodule("enc.lin", nn.Linear(3, 3, bias=False))
print(net.enc.lin, [n for n, _ in net.named_parameters()])

fresh = Net()
target = {k: torch.full_like(v, 0.5) if torch.is_tensor(v) else v
          for k, v in fresh.state_dict().items()}
meta_net = Net()
print(meta_net.head.weight.device, meta_net.head.weight.is_meta)
meta_net.load_state_dict(target, assign=True)
print(meta_net.head.weight, meta_net.enc.cache.is_meta, meta_net.enc.version)
print(meta_net.head.weight.requires_grad, isinstance(meta_net.head.weight, nn.Parameter))
inc = fresh.load_state_dict({"enc.lin.weight": torch.eye(3), "extra": torch.zeros(1)}, strict=False)
print(inc.missing_keys, inc.unexpected_keys)
print(fresh(torch.ones(1, 3)).shape)
for name, buf in fresh.named_buffers():
    print(name, buf)
print([n for n, _ in fresh.named_modules(prefix="model")])
