# Models: a torchsummary/torchinfo clone as people paste it into notebooks: forward hooks on
# every leaf module recording output shapes and parameter counts, a MACs estimate for conv and
# linear layers, trainable vs frozen counts, the memory of parameters and activations in MB,
# and hook handles removed afterwards; run on a small ResNet-style classifier.
from collections import OrderedDict

import torch
import torch.nn as nn


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          nn.BatchNorm2d(cout))

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + self.shortcut(x))


class SmallResNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1, bias=False), nn.BatchNorm2d(8),
                                  nn.ReLU())
        self.layer1 = BasicBlock(8, 8)
        self.layer2 = BasicBlock(8, 16, 2)
        self.layer3 = BasicBlock(16, 32, 2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, n_classes)

    def forward(self, x):
        x = self.layer3(self.layer2(self.layer1(self.stem(x))))
        return self.fc(torch.flatten(self.pool(x), 1))


def summary(model, input_size, batch_size=2):
    records = OrderedDict()
    hooks = []

    def register(name):
        def hook(module, inp, out):
            key = f"{type(module).__name__}-{len(records) + 1}"
            params = sum(p.numel() for p in module.parameters(recurse=False))
            trainable = any(p.requires_grad for p in module.parameters(recurse=False))
            macs = 0
            if isinstance(module, nn.Conv2d):
                k = module.weight[0].numel()
                macs = out.numel() // out.shape[0] * k
            elif isinstance(module, nn.Linear):
                macs = module.in_features * module.out_features
            records[key] = dict(name=name, in_shape=list(inp[0].shape),
                                out_shape=list(out.shape), params=params,
                                trainable=trainable, macs=macs)
        return hook

    for name, m in model.named_modules():
        if len(list(m.children())) == 0 and not isinstance(m, nn.Identity):
            hooks.append(m.register_forward_hook(register(name)))
    model.eval()
    with torch.no_grad():
        model(torch.zeros(batch_size, *input_size))
    for h in hooks:
        h.remove()
    print("-" * 78)
    print(f"{'Layer (type)':>22}{'Name':>18}{'Output Shape':>24}{'Param #':>12}")
    print("=" * 78)
    total, trainable, macs, act = 0, 0, 0, 0
    for key, r in records.items():
        print(f"{key:>22}{r['name']:>18}{str(r['out_shape']):>24}{r['params']:>12,}")
        total += r["params"]
        trainable += r["params"] if r["trainable"] else 0
        macs += r["macs"]
        act += torch.Size(r["out_shape"][1:]).numel()
    print("=" * 78)
    print(f"Total params: {total:,}")
    print(f"Trainable params: {trainable:,}")
    print(f"Non-trainable params: {total - trainable:,}")
    print(f"MACs per sample: {macs:,}")
    mb = 4 / 1024 ** 2
    print(f"Params size (MB): {total * mb:.4f}")
    print(f"Forward/backward pass size (MB): {2 * act * mb:.4f}")
    return records


torch.manual_seed(0)
model = SmallResNet()
recs = summary(model, (3, 16, 16))
print(len(recs), list(recs)[:3])
for p in model.stem.parameters():
    p.requires_grad_(False)
recs = summary(model, (3, 8, 8), batch_size=1)
print(sum(1 for r in recs.values() if not r["trainable"] and r["params"]))
print(model._forward_hooks, [len(m._forward_hooks) for m in model.modules()][:5])
buffers = sum(b.numel() for b in model.buffers())
print("buffers", buffers, [n for n, _ in model.named_buffers()][:3])
out = model(torch.randn(2, 3, 16, 16))
print(out.shape, model.training, out[0, :4])
