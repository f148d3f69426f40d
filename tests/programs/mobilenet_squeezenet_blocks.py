# Models: compact CNN building blocks from MobileNetV1/V2 and SqueezeNet written as in the
# papers' reference code: depthwise-separable convs (groups=in_channels), inverted residuals
# with ReLU6 and linear bottlenecks, _make_divisible, Fire modules, FLOP/param counting by hooks.
import torch
import torch.nn as nn

torch.manual_seed(0)


def _make_divisible(v, divisor, min_value=None):
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


print([_make_divisible(c * 0.75, 8) for c in (16, 24, 32, 64, 96, 160, 320)])


def dw_separable(cin, cout, stride):
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
        nn.BatchNorm2d(cin),
        nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers += [
                nn.Conv2d(inp, hidden, 1, bias=False),
                nn.BatchNorm2d(hidden),
                nn.ReLU6(inplace=True),
            ]
        layers += [
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(inplace=True),
            nn.Conv2d(hidden, oup, 1, bias=False),
            nn.BatchNorm2d(oup),
        ]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


class Fire(nn.Module):
    def __init__(self, inplanes, squeeze, e1, e3):
        super().__init__()
        self.squeeze = nn.Conv2d(inplanes, squeeze, 1)
        self.squeeze_activation = nn.ReLU(inplace=True)
        self.expand1x1 = nn.Conv2d(squeeze, e1, 1)
        self.expand3x3 = nn.Conv2d(squeeze, e3, 3, padding=1)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        x = self.squeeze_activation(self.squeeze(x))
        return torch.cat([self.act(self.expand1x1(x)), self.act(self.expand3x3(x))], 1)


net = nn.Sequential(
    nn.Conv2d(3, 8, 3, 2, 1, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU6(inplace=True),
    dw_separable(8, 16, 1),
    InvertedResidual(16, 16, 1, 6),
    InvertedResidual(16, 24, 2, 6),
    Fire(24, 6, 12, 12),
    nn.MaxPool2d(3, 2, ceil_mode=True),
    Fire(24, 8, 16, 16),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Dropout(0.2),
    nn.Linear(32, 5),
)
print(net[4])
print(net[6])
flops = {}


def hook(m, inp, out):
    if isinstance(m, nn.Conv2d):
        k = m.kernel_size[0] * m.kernel_size[1] * (m.in_channels // m.groups)
        flops[len(flops)] = (type(m).__name__, m.groups, out.numel() * k)


hs = [m.register_forward_hook(hook) for m in net.modules() if isinstance(m, nn.Conv2d)]
x = torch.randn(2, 3, 16, 16)
net.eval()
with torch.no_grad():
    y = net(x)
for h in hs:
    h.remove()
print(y)
print(len(flops), sum(v[2] for v in flops.values()))
print([v[1] for v in flops.values()])
print(
    sum(p.numel() for p in net.parameters()),
    sum(p.numel() for p in net.parameters() if p.dim() == 4),
)
net.train()
y = net(x)
y.logsumexp(1).mean().backward()
print(net[3][0].weight.grad.shape, net[4].conv[3].weight.grad.abs().sum() > 0)
print(net[7](torch.randn(1, 1, 7, 7)).shape)
