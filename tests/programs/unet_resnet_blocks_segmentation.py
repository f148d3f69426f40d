# Models: a small U-Net for segmentation with ResNet basic blocks in the encoder: downsampling by
# strided conv, skip connections concatenated after ConvTranspose2d upsampling, BatchNorm,
# per-pixel cross-entropy with ignore_index, and dice score on the argmax mask.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = None
        if stride != 1 or inplanes != planes:
            self.downsample = nn.Sequential(
                nn.Conv2d(inplanes, planes, 1, stride, bias=False), nn.BatchNorm2d(planes)
            )

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + identity)


class Up(nn.Module):
    def __init__(self, cin, cskip, cout):
        super().__init__()
        self.up = nn.ConvTranspose2d(cin, cout, 2, stride=2)
        self.block = BasicBlock(cout + cskip, cout)

    def forward(self, x, skip):
        x = self.up(x)
        dy, dx = skip.size(2) - x.size(2), skip.size(3) - x.size(3)
        x = F.pad(x, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2])
        return self.block(torch.cat([skip, x], dim=1))


class UNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.inc = BasicBlock(1, 8)
        self.down1 = BasicBlock(8, 16, stride=2)
        self.down2 = BasicBlock(16, 32, stride=2)
        self.up1 = Up(32, 16, 16)
        self.up2 = Up(16, 8, 8)
        self.outc = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        return self.outc(self.up2(self.up1(x3, x2), x1))


net = UNet()
print(sum(p.numel() for p in net.parameters()))
print(net.up1)
img = torch.randn(2, 1, 12, 12)
mask = torch.zeros(2, 12, 12, dtype=torch.long)
mask[:, 3:9, 3:9] = 1
mask[:, 5:7, 5:7] = 2
mask[:, 0, :] = 255
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for ep in range(8):
    out = net(img)
    loss = F.cross_entropy(out, mask, ignore_index=255)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if ep % 2 == 0:
        print(f"epoch {ep} loss {loss.item():.5f}")
print(out.shape)
net.eval()
with torch.no_grad():
    pred = net(img).argmax(1)
valid = mask != 255
for c in range(3):
    p, t = (pred == c) & valid, (mask == c) & valid
    dice = 2 * (p & t).sum() / (p.sum() + t.sum()).clamp(min=1)
    print(c, f"{dice.item():.4f}")
print(net.inc.bn1.running_mean[:4], net.inc.bn1.num_batches_tracked)
