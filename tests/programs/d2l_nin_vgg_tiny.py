# Models: the Dive-into-Deep-Learning "VGG" and "Network in Network" chapters at toy size: a
# vgg_block builder from a conv_arch list, nin_block with 1x1 convolutions ending in global
# average pooling, the layer-by-layer output-shape walk, parameter counts, and a few epochs of
# SGD on synthetic 1x16x16 images.
import torch
from torch import nn

torch.manual_seed(0)


def vgg_block(num_convs, in_channels, out_channels):
    layers = []
    for _ in range(num_convs):
        layers.append(nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1))
        layers.append(nn.ReLU())
        in_channels = out_channels
    layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
    return nn.Sequential(*layers)


def vgg(conv_arch, num_classes=4):
    conv_blks = []
    in_channels = 1
    for (num_convs, out_channels) in conv_arch:
        conv_blks.append(vgg_block(num_convs, in_channels, out_channels))
        in_channels = out_channels
    return nn.Sequential(
        *conv_blks, nn.Flatten(),
        nn.Linear(out_channels * 2 * 2, 32), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(32, num_classes))


def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding),
        nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU())


def nin(num_classes=4):
    return nn.Sequential(
        nin_block(1, 8, kernel_size=5, strides=2, padding=2),
        nn.MaxPool2d(3, stride=2),
        nin_block(8, 12, kernel_size=3, strides=1, padding=1),
        nn.Dropout(0.3),
        nin_block(12, num_classes, kernel_size=3, strides=1, padding=1),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Flatten())


conv_arch = ((1, 4), (1, 8), (2, 8))
X = torch.randn(1, 1, 16, 16)
for name, net in [("vgg", vgg(conv_arch)), ("nin", nin())]:
    print(name)
    x = X
    for blk in net:
        x = blk(x)
        print(f"  {blk.__class__.__name__:<18} output shape: {tuple(x.shape)}")
    print("  params:", sum(p.numel() for p in net.parameters()))

print(vgg_block(2, 3, 5))

# a labelled toy set: class = which quadrant holds the bright blob
n = 64
imgs = 0.3 * torch.randn(n, 1, 16, 16)
labels = torch.randint(0, 4, (n,))
for i in range(n):
    r, c = divmod(labels[i].item(), 2)
    imgs[i, 0, r * 8 + 2:r * 8 + 6, c * 8 + 2:c * 8 + 6] += 1.5

for name, net in [("vgg", vgg(conv_arch)), ("nin", nin())]:
    torch.manual_seed(1)
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(6):
        net.train()
        perm = torch.randperm(n)
        total = 0.0
        for i in range(0, n, 16):
            idx = perm[i:i + 16]
            loss = loss_fn(net(imgs[idx]), labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        net.eval()
        with torch.no_grad():
            acc = (net(imgs).argmax(1) == labels).float().mean().item()
        print(f"{name} epoch {epoch} loss {total / n:.4f} train acc {acc:.3f}")
