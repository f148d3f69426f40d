# Models: the building blocks of ResNeXt, ShuffleNet, DenseNet-BC, SENet/CBAM and
# Res2Net-style code from public model zoos: grouped convolutions and their parameter counts,
# channel shuffle by view/transpose, dense connectivity with a bottleneck and transition,
# squeeze-excitation and CBAM channel+spatial attention, stochastic depth, and a forward/backward
# check of each with printed shapes and parameter counts.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def count(m):
    return sum(p.numel() for p in m.parameters())


def channel_shuffle(x, groups):
    b, c, h, w = x.size()
    x = x.view(b, groups, c // groups, h, w)
    x = torch.transpose(x, 1, 2).contiguous()
    return x.view(b, -1, h, w)


x = torch.arange(8.0).view(1, 8, 1, 1)
print(
    "channel shuffle:",
    channel_shuffle(x, 2).flatten().tolist(),
    channel_shuffle(x, 4).flatten().tolist(),
)
print(nn.ChannelShuffle(2)(x).flatten().tolist(), nn.ChannelShuffle(2))


class ResNeXtBottleneck(nn.Module):
    def __init__(self, cin, cardinality=4, width=4, stride=1):
        super().__init__()
        d = cardinality * width
        self.conv1 = nn.Conv2d(cin, d, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(d)
        self.conv2 = nn.Conv2d(d, d, 3, stride, 1, groups=cardinality, bias=False)
        self.bn2 = nn.BatchNorm2d(d)
        self.conv3 = nn.Conv2d(d, cin * 2, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(cin * 2)
        self.short = nn.Sequential(
            nn.Conv2d(cin, cin * 2, 1, stride, bias=False), nn.BatchNorm2d(cin * 2)
        )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = F.relu(self.bn2(self.conv2(out)))
        return F.relu(self.bn3(self.conv3(out)) + self.short(x))


class ShuffleUnit(nn.Module):
    def __init__(self, channels, groups=2):
        super().__init__()
        mid = channels // 4
        self.groups = groups
        self.g1 = nn.Conv2d(channels, mid, 1, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(mid)
        self.dw = nn.Conv2d(mid, mid, 3, padding=1, groups=mid, bias=False)
        self.bn2 = nn.BatchNorm2d(mid)
        self.g2 = nn.Conv2d(mid, channels, 1, groups=groups, bias=False)
        self.bn3 = nn.BatchNorm2d(channels)

    def forward(self, x):
        out = F.relu(self.bn1(self.g1(x)))
        out = channel_shuffle(out, self.groups)
        out = self.bn3(self.g2(self.bn2(self.dw(out))))
        return F.relu(x + out)


class DenseLayer(nn.Module):
    def __init__(self, cin, growth, bn_size=2):
        super().__init__()
        self.norm1, self.conv1 = (
            nn.BatchNorm2d(cin),
            nn.Conv2d(cin, bn_size * growth, 1, bias=False),
        )
        self.norm2 = nn.BatchNorm2d(bn_size * growth)
        self.conv2 = nn.Conv2d(bn_size * growth, growth, 3, padding=1, bias=False)

    def forward(self, features):
        x = torch.cat(features, 1)
        x = self.conv1(F.relu(self.norm1(x)))
        return self.conv2(F.relu(self.norm2(x)))


class DenseBlock(nn.ModuleDict):
    def __init__(self, n_layers, cin, growth):
        super().__init__()
        for i in range(n_layers):
            self.add_module(f"denselayer{i + 1}", DenseLayer(cin + i * growth, growth))

    def forward(self, x):
        feats = [x]
        for _, layer in self.items():
            feats.append(layer(feats))
        return torch.cat(feats, 1)


class Transition(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__()
        self.add_module("norm", nn.BatchNorm2d(cin))
        self.add_module("relu", nn.ReLU(inplace=True))
        self.add_module("conv", nn.Conv2d(cin, cout, 1, bias=False))
        self.add_module("pool", nn.AvgPool2d(2, 2))


class SqueezeExcite(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.fc = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(c, c // r),
            nn.ReLU(inplace=True),
            nn.Linear(c // r, c),
            nn.Sigmoid(),
        )

    def forward(self, x):
        return x * self.fc(x)[:, :, None, None]


class CBAM(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv2d(c, c // r, 1), nn.ReLU(), nn.Conv2d(c // r, c, 1))
        self.spatial = nn.Conv2d(2, 1, 7, padding=3)

    def forward(self, x):
        ca = torch.sigmoid(
            self.mlp(F.adaptive_avg_pool2d(x, 1)) + self.mlp(F.adaptive_max_pool2d(x, 1))
        )
        x = x * ca
        sa = torch.cat([x.mean(1, keepdim=True), x.amax(1, keepdim=True)], 1)
        return x * torch.sigmoid(self.spatial(sa))


def stochastic_depth(x, p, training):
    if not training or p == 0.0:
        return x
    keep = torch.empty(x.shape[0], 1, 1, 1).bernoulli_(1 - p)
    return x * keep / (1 - p)


inp = torch.randn(2, 8, 8, 8)
blocks = {
    "resnext": ResNeXtBottleneck(8, stride=2),
    "shuffle": ShuffleUnit(8),
    "dense": DenseBlock(3, 8, 4),
    "transition": Transition(8, 4),
    "se": SqueezeExcite(8),
    "cbam": CBAM(8),
}
for name, block in blocks.items():
    out = block(inp)
    out.square().mean().backward()
    grads = sum(p.grad.abs().sum() for p in block.parameters())
    print(
        f"{name:10s} out {tuple(out.shape)} params {count(block):4d} "
        f"out mean {out.mean().item():.5f} grad sum {grads.item():.5f}"
    )

print(blocks["dense"])
print(
    "grouped conv weight:",
    blocks["resnext"].conv2.weight.shape,
    "dense vs grouped params:",
    count(nn.Conv2d(16, 16, 3, bias=False)),
    count(blocks["resnext"].conv2),
)
print("depthwise weight:", blocks["shuffle"].dw.weight.shape)
print("stochastic depth (train):", stochastic_depth(torch.ones(6, 1, 1, 1), 0.5, True).flatten())
print("stochastic depth (eval):", stochastic_depth(torch.ones(3, 1, 1, 1), 0.5, False).flatten())

net = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    ShuffleUnit(8),
    SqueezeExcite(8),
    ResNeXtBottleneck(8, stride=2),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(16, 2),
)
data = torch.randn(16, 3, 8, 8)
labels = (data[:, 0].mean((1, 2)) > 0).long()
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
for step in range(15):
    loss = F.cross_entropy(net(data), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(f"step {step + 1} loss {loss.item():.4f}")
net.eval()
print("eval accuracy:", (net(data).argmax(1) == labels).float().mean().item())
print("running_var of first BN:", net[1].running_var)
