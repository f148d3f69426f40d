# Models: the checkpoint-loading glue of research repos: strip DataParallel's "module." prefix,
# rename keys of an older architecture, drop the classifier head on a shape mismatch, load with
# strict=False and print the missing/unexpected keys, non-persistent buffers, a module that
# migrates its old checkpoints in _load_from_state_dict by version, pre/post hooks, and
# assign=True.
import collections
import io

import torch
import torch.nn as nn

torch.manual_seed(1)


class Net(nn.Module):
    _version = 2

    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(4, n_classes)
        self.register_buffer("running_count", torch.zeros((), dtype=torch.long))
        self.register_buffer("cache", torch.ones(3), persistent=False)

    def forward(self, x):
        self.running_count += 1
        return self.fc(self.pool(self.features(x)).flatten(1))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        print("loading", repr(prefix), "version", version)
        if version is None or version < 2:
            old = prefix + "classifier.weight"
            if old in state_dict:
                state_dict[prefix + "fc.weight"] = state_dict.pop(old)
                state_dict[prefix + "fc.bias"] = state_dict.pop(prefix + "classifier.bias")
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)


src = Net()
src(torch.randn(2, 1, 6, 6))
sd = src.state_dict()
print(list(sd.keys()))
print(sd._metadata[""], sd._metadata["features.1"])
print("cache" in sd, sd["running_count"], sd["features.1.num_batches_tracked"])
wrapped = collections.OrderedDict(("module." + k, v) for k, v in sd.items())
wrapped._metadata = collections.OrderedDict(
    ("module." + k if k else "module", v) for k, v in sd._metadata.items())
buf = io.BytesIO()
torch.save({"model": wrapped, "epoch": 7}, buf)
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
print(ckpt["epoch"], list(ckpt["model"])[:3])
dst = Net()
try:
    dst.load_state_dict(ckpt["model"])
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
    print(len(str(e).splitlines()))
stripped = {k.removeprefix("module."): v for k, v in ckpt["model"].items()}
res = dst.load_state_dict(stripped)
print(res, res.missing_keys, res.unexpected_keys)
print(torch.equal(dst.fc.weight, src.fc.weight), dst.running_count)
old = collections.OrderedDict()
for k, v in sd.items():
    old[k.replace("fc.", "classifier.")] = v
old._metadata = collections.OrderedDict({"": {"version": 1}})
mig = Net()
print(mig.load_state_dict(old))
print(torch.equal(mig.fc.bias, src.fc.bias))
head100 = Net(100)
try:
    head100.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", *str(e).splitlines()[1:], sep="\n")
filtered = {k: v for k, v in sd.items() if not k.startswith("fc.")}
res = head100.load_state_dict(filtered, strict=False)
print("missing", res.missing_keys, "unexpected", res.unexpected_keys)
extra = dict(sd, **{"projector.weight": torch.zeros(2)})
print(Net().load_state_dict(extra, strict=False))


def post_hook(module, incompatible):
    print("post hook", type(module).__name__, incompatible.missing_keys[:2])
    incompatible.missing_keys.clear()


m = Net()
m.register_load_state_dict_post_hook(post_hook)
print(m.load_state_dict(filtered))


def sd_hook(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "note"] = torch.tensor(42)


m.register_state_dict_post_hook(sd_hook)
print(list(m.state_dict())[-2:])
half = {k: (v.half() if v.is_floating_point() else v) for k, v in sd.items()}
m2 = Net()
m2.load_state_dict(half)
print(m2.fc.weight.dtype, (m2.fc.weight - src.fc.weight).abs().max())
m3 = Net()
m3.load_state_dict(half, assign=True)
print(m3.fc.weight.dtype, type(m3.fc.weight).__name__, m3.fc.weight.requires_grad)
print(m3.features[1].running_var)
try:
    Net().load_state_dict({"fc.weight": torch.zeros(10, 4)}, strict=True)
except RuntimeError as e:
    print(str(e)[:160])
partial = Net().state_dict(prefix="backbone.", keep_vars=True)
print(list(partial)[:2], type(partial["backbone.fc.weight"]).__name__)
