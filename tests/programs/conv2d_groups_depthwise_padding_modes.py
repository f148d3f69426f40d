# Models: a CNN-architecture tutorial: grouped and depthwise-separable convolutions with their
# parameter counts, dilation and receptive fields, padding="same" and "valid", padding_mode
# reflect/replicate/circular, the even-kernel same-padding case, and the errors for bad groups.
import torch
import torch.nn as nn

torch.manual_seed(3)
x = torch.randn(2, 8, 10, 10)
std = nn.Conv2d(8, 16, 3, padding=1)
grp = nn.Conv2d(8, 16, 3, padding=1, groups=4)
dw = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1, groups=8), nn.Conv2d(8, 16, 1))
for name, m in [("standard", std), ("groups=4", grp), ("depthwise sep", dw)]:
    print(f"{name:14s} params {sum(p.numel() for p in m.parameters()):5d} out {tuple(m(x).shape)}")
print("grouped weight", grp.weight.shape)
for d in [1, 2, 3]:
    conv = nn.Conv2d(1, 1, 3, dilation=d, bias=False)
    print("dilation", d, "out", conv(torch.randn(1, 1, 15, 15)).shape[-1], "rf", 2 * d + 1)
img = torch.arange(25.0).reshape(1, 1, 5, 5)
for mode in ["zeros", "reflect", "replicate", "circular"]:
    conv = nn.Conv2d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    nn.init.ones_(conv.weight)
    print(mode, conv(img)[0, 0, 0])
same = nn.Conv2d(1, 1, 4, padding="same", bias=False)
nn.init.ones_(same.weight)
print("same even kernel", same(img).shape, same(img)[0, 0, 0])
valid = nn.Conv2d(1, 1, 3, padding="valid")
print("valid", valid(img).shape)
print("same dilated", nn.Conv2d(1, 2, 3, padding="same", dilation=2)(img).shape)
print(grp)
for bad in [lambda: nn.Conv2d(8, 16, 3, groups=3),
            lambda: nn.Conv2d(8, 16, 3, padding="same", stride=2)]:
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)
try:
    grp(torch.randn(2, 6, 10, 10))
except RuntimeError as e:
    print("RuntimeError:", e)
