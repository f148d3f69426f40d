# Models: a course notebook on low-precision inference and checkpoint plumbing -- a model cast
# with .half() / .bfloat16() compared to float32 (nn.Linear on 2-D and 3-D inputs), a module
# keeping a step counter as extra state in its state_dict, state-dict pre/post hooks that rename
# legacy keys, load_state_dict post hooks, set_submodule surgery and Sequential repetition.
import io

import torch
from torch import nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.act = nn.GELU()
        self.steps = 0

    def forward(self, x):
        if self.training:
            self.steps += 1
        return x + self.act(self.fc(x))

    def get_extra_state(self):
        return {"steps": self.steps}

    def set_extra_state(self, state):
        self.steps = state["steps"]


model = nn.Sequential(nn.Linear(6, 8), *(nn.Sequential(Block(8)) * 2), nn.Linear(8, 3))
print(model)
print(model[1] is model[2], len(model))
model = nn.Sequential(nn.Linear(6, 8), Block(8), Block(8), nn.Linear(8, 3))
x = torch.randn(16, 6)
y = torch.randint(0, 3, (16,))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(5):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
print(f"loss {loss.item():.5f}", model[1].steps, model[2].steps)

sd = model.state_dict()
print(list(sd.keys()))
print(sd["1._extra_state"], sd["2._extra_state"])
buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
restored = nn.Sequential(nn.Linear(6, 8), Block(8), Block(8), nn.Linear(8, 3))
print(restored.load_state_dict(torch.load(buf, weights_only=False)), restored[2].steps)
partial = {k: v for k, v in sd.items() if not k.endswith("_extra_state")}
print(restored.load_state_dict(partial, strict=False))
try:
    restored.load_state_dict(partial)
except RuntimeError as e:
    print(e)


def rename_legacy(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
    for old, new in (("w", "weight"), ("b", "bias")):
        if prefix + old in state_dict:
            state_dict[prefix + new] = state_dict.pop(prefix + old)


legacy = {"w": torch.ones(3, 8), "b": torch.zeros(3)}
head = nn.Linear(8, 3)
head.register_load_state_dict_pre_hook(rename_legacy)
seen = []
head.register_load_state_dict_post_hook(lambda m, keys: seen.append(repr(keys)))
print(head.load_state_dict(legacy), seen, head.weight.sum())
calls = []
model.register_state_dict_pre_hook(lambda m, prefix, keep_vars: calls.append((prefix, keep_vars)))


def add_version(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "version"] = torch.tensor(2)


model[3].register_state_dict_post_hook(add_version)
print(list(model.state_dict(prefix="net.").keys())[-3:], calls)
model.set_submodule("3", nn.Linear(8, 3, bias=False))
print(model[3], "3.version" in model.state_dict())

# low precision inference
model.eval()
with torch.no_grad():
    ref = model(x)
    half = model.half()(x.half())
    print(half.dtype, half[:2])
    print((half.float() - ref).abs().max() < 1e-2)
    seq = torch.randn(2, 5, 6)
    print(model(seq.half())[0, :2])
    print(model(seq.half().transpose(0, 1))[:2, 0])
    bf = model.float().bfloat16()
    out_bf = bf(x.bfloat16())
    print(out_bf.dtype, out_bf[:2], next(bf.parameters()).dtype)
    print((out_bf.float() - ref).abs().max() < 5e-2)
model.float()
a, b = torch.randn(4, 3).half(), torch.randn(3, 5).half()
bias = torch.randn(5).half()
print(torch.addmm(bias, a, b, beta=0.5, alpha=2.0))
print(torch.baddbmm(bias, a.expand(2, 4, 3), b.expand(2, 3, 5), alpha=0.3))
print(torch.addr(torch.zeros(4, 5), torch.arange(4.0), torch.arange(5.0), alpha=0.5))
c = torch.zeros(4, 5)
c.addmm_(a.float(), b.float())
c.addr_(torch.ones(4), torch.ones(5), beta=2)
print(c)
