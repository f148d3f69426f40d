# Models: the d2l "ResNeXt block" exercise: grouped 3x3 convolutions between 1x1 bottlenecks,
# a 1x1 projection shortcut when the shape changes, BatchNorm in train and eval mode, the
# parameter saving of groups, and a tiny ResNeXt trained for a few steps with Adam.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


class ResNeXtBlock(nn.Module):
    """The ResNeXt block."""

    def __init__(self, in_channels, num_channels, groups, bot_mul, use_1x1conv=False, strides=1):
        super().__init__()
        bot_channels = int(round(num_channels * bot_mul))
        self.conv1 = nn.Conv2d(in_channels, bot_channels, kernel_size=1, stride=1, bias=False)
        self.conv2 = nn.Conv2d(bot_channels, bot_channels, kernel_size=3, stride=strides,
                               padding=1, groups=bot_channels // groups, bias=False)
        self.conv3 = nn.Conv2d(bot_channels, num_channels, kernel_size=1, stride=1, bias=False)
        self.bn1 = nn.BatchNorm2d(bot_channels)
        self.bn2 = nn.BatchNorm2d(bot_channels)
        self.bn3 = nn.BatchNorm2d(num_channels)
        if use_1x1conv:
            self.conv4 = nn.Conv2d(in_channels, num_channels, kernel_size=1, stride=strides,
                                   bias=False)
            self.bn4 = nn.BatchNorm2d(num_channels)
        else:
            self.conv4 = None

    def forward(self, X):
        Y = F.relu(self.bn1(self.conv1(X)))
        Y = F.relu(self.bn2(self.conv2(Y)))
        Y = self.bn3(self.conv3(Y))
        if self.conv4:
            X = self.bn4(self.conv4(X))
        return F.relu(Y + X)


blk = ResNeXtBlock(32, 32, 16, 1)
X = torch.randn(4, 32, 6, 6)
print(blk(X).shape)
blk = ResNeXtBlock(32, 16, 8, 0.5, use_1x1conv=True, strides=2)
print(blk(X).shape)
print(blk)
print("conv2 weight", tuple(blk.conv2.weight.shape), "groups", blk.conv2.groups)

dense = nn.Conv2d(16, 16, 3, padding=1, bias=False)
grouped = nn.Conv2d(16, 16, 3, padding=1, groups=4, bias=False)
print("dense params", dense.weight.numel(), "grouped params", grouped.weight.numel())

# a grouped conv equals per-group convs on channel slices
x = torch.randn(2, 16, 5, 5)
pieces = [F.conv2d(x[:, 4 * g:4 * g + 4], grouped.weight[4 * g:4 * g + 4], padding=1)
          for g in range(4)]
print("grouped == split convs:", torch.allclose(grouped(x), torch.cat(pieces, 1), atol=1e-6))

net = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
    ResNeXtBlock(16, 16, 4, 1),
    ResNeXtBlock(16, 32, 4, 0.5, use_1x1conv=True, strides=2),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 3))
print("total params", sum(p.numel() for p in net.parameters()))
data = torch.randn(24, 3, 8, 8)
target = (data.mean((1, 2, 3)) > 0).long() + (data[:, 0].std((1, 2)) > 1).long()
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
for step in range(8):
    net.train()
    loss = F.cross_entropy(net(data), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f}")
net.eval()
with torch.no_grad():
    out = net(data)
print("eval logits[:3]", out[:3])
print("bn running_mean", net[1].running_mean[:4])
print("bn num_batches_tracked", net[1].num_batches_tracked)
