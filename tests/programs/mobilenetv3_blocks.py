# Models: a MobileNetV3 / EfficientNet building-block walkthrough: depthwise-separable
# convolutions, squeeze-excitation with Hardsigmoid, Hardswish/Mish/SiLU/GLU activations,
# the padding modules (Reflection/Replication/Circular/Constant/Zero) and F.pad modes,
# stochastic depth, and one training step of a tiny net with printed shapes and grads.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=4)

t = torch.linspace(-4, 4, 9)
for act in [
    nn.Hardswish(),
    nn.Hardsigmoid(),
    nn.Mish(),
    nn.SiLU(),
    nn.Hardtanh(-2, 2),
    nn.ReLU6(),
    nn.Softsign(),
    nn.Tanhshrink(),
]:
    print(f"{act!s:28s}", act(t))
glu = nn.GLU(dim=-1)
print(glu, glu(torch.arange(8.0).view(2, 4)))

ta = t.clone().requires_grad_(True)
(F.hardswish(ta) + F.mish(ta)).sum().backward()
print("hardswish+mish grad", ta.grad)

img = torch.arange(16.0).view(1, 1, 4, 4)
pads = [
    nn.ReflectionPad2d(1),
    nn.ReplicationPad2d((1, 0, 2, 0)),
    nn.CircularPad2d(1),
    nn.ConstantPad2d((0, 1, 0, 1), -1.0),
    nn.ZeroPad2d((1, 1, 0, 0)),
]
for pad in pads:
    out = pad(img)
    print(pad, tuple(out.shape))
    print(out[0, 0, :3])
seq = torch.arange(5.0).view(1, 1, 5)
for mode in ["reflect", "replicate", "circular"]:
    print(mode, F.pad(seq, (2, 3), mode=mode))
print(nn.ReflectionPad1d(2)(seq), nn.ReplicationPad3d(1)(torch.ones(1, 1, 1, 1, 1)).shape)


class SqueezeExcite(nn.Module):
    def __init__(self, ch, r=4):
        super().__init__()
        self.fc1 = nn.Conv2d(ch, ch // r, 1)
        self.fc2 = nn.Conv2d(ch // r, ch, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        s = F.hardsigmoid(self.fc2(F.relu(self.fc1(s))))
        return x * s


class InvertedResidual(nn.Module):
    def __init__(self, cin, cout, expand, stride, drop_path=0.0):
        super().__init__()
        hid = cin * expand
        self.use_res = stride == 1 and cin == cout
        self.drop_path = drop_path
        self.block = nn.Sequential(
            nn.Conv2d(cin, hid, 1, bias=False),
            nn.BatchNorm2d(hid),
            nn.Hardswish(),
            nn.Conv2d(hid, hid, 3, stride, 1, groups=hid, bias=False),
            nn.BatchNorm2d(hid),
            nn.Hardswish(),
            SqueezeExcite(hid),
            nn.Conv2d(hid, cout, 1, bias=False),
            nn.BatchNorm2d(cout),
        )

    def forward(self, x):
        out = self.block(x)
        if not self.use_res:
            return out
        if self.training and self.drop_path > 0:
            keep = torch.rand(x.size(0), 1, 1, 1) >= self.drop_path
            out = out * keep / (1 - self.drop_path)
        return x + out


net = nn.Sequential(
    nn.Conv2d(3, 8, 3, 2, 1, bias=False),
    nn.BatchNorm2d(8),
    nn.Hardswish(),
    InvertedResidual(8, 8, 2, 1, drop_path=0.25),
    InvertedResidual(8, 12, 3, 2),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Dropout(0.2),
    nn.Linear(12, 5),
)
print(net[3].block[3])
print("params", sum(p.numel() for p in net.parameters()))
x = torch.randn(6, 3, 16, 16)
y = torch.randint(0, 5, (6,))
opt = torch.optim.RMSprop(net.parameters(), lr=1e-3, alpha=0.9, eps=1e-3, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
print("depthwise grad norm", f"{net[3].block[3].weight.grad.norm().item():.4f}")
net.eval()
with torch.no_grad():
    print(net(x).argmax(1), net(x)[0])
