# Models: the d2l.ai "Modern Convolutional Neural Networks" chapter -- tiny AlexNet, VGG blocks,
# NiN, GoogLeNet Inception and a DenseNet dense block, printing each layer's output shape.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


def layer_summary(net, X_shape):
    X = torch.randn(*X_shape)
    for layer in net:
        X = layer(X)
        print(layer.__class__.__name__, "output shape:\t", X.shape)
    return X


alexnet = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=11, stride=4, padding=1), nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2),
    nn.Conv2d(8, 16, kernel_size=5, padding=2), nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2),
    nn.Conv2d(16, 24, kernel_size=3, padding=1), nn.ReLU(),
    nn.Conv2d(24, 24, kernel_size=3, padding=1), nn.ReLU(),
    nn.Conv2d(24, 16, kernel_size=3, padding=1), nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2), nn.Flatten(),
    nn.Linear(16 * 5 * 5, 64), nn.ReLU(), nn.Dropout(p=0.5),
    nn.Linear(64, 64), nn.ReLU(), nn.Dropout(p=0.5),
    nn.Linear(64, 10),
)  # fmt: skip
out = layer_summary(alexnet, (1, 1, 224, 224))
print(out)


def vgg_block(num_convs, in_channels, out_channels):
    layers = []
    for _ in range(num_convs):
        layers.append(nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1))
        layers.append(nn.ReLU())
        in_channels = out_channels
    layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
    return nn.Sequential(*layers)


def vgg(conv_arch):
    conv_blks = []
    in_channels = 1
    for num_convs, out_channels in conv_arch:
        conv_blks.append(vgg_block(num_convs, in_channels, out_channels))
        in_channels = out_channels
    return nn.Sequential(
        *conv_blks, nn.Flatten(),
        nn.Linear(out_channels * 2 * 2, 32), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(32, 10),
    )  # fmt: skip


conv_arch = ((1, 4), (1, 8), (2, 16), (2, 16), (2, 16))
net = vgg(conv_arch)
print(net[0])
layer_summary(net, (1, 1, 64, 64))
print(sum(p.numel() for p in net.parameters()))


def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(),
    )  # fmt: skip


nin = nn.Sequential(
    nin_block(1, 8, kernel_size=11, strides=4, padding=0),
    nn.MaxPool2d(3, stride=2),
    nin_block(8, 16, kernel_size=5, strides=1, padding=2),
    nn.MaxPool2d(3, stride=2),
    nin_block(16, 24, kernel_size=3, strides=1, padding=1),
    nn.MaxPool2d(3, stride=2),
    nn.Dropout(0.5),
    nin_block(24, 10, kernel_size=3, strides=1, padding=1),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
)
nin.eval()
print(layer_summary(nin, (2, 1, 224, 224)))


class Inception(nn.Module):
    def __init__(self, in_channels, c1, c2, c3, c4, **kwargs):
        super().__init__(**kwargs)
        self.p1_1 = nn.Conv2d(in_channels, c1, kernel_size=1)
        self.p2_1 = nn.Conv2d(in_channels, c2[0], kernel_size=1)
        self.p2_2 = nn.Conv2d(c2[0], c2[1], kernel_size=3, padding=1)
        self.p3_1 = nn.Conv2d(in_channels, c3[0], kernel_size=1)
        self.p3_2 = nn.Conv2d(c3[0], c3[1], kernel_size=5, padding=2)
        self.p4_1 = nn.MaxPool2d(kernel_size=3, stride=1, padding=1)
        self.p4_2 = nn.Conv2d(in_channels, c4, kernel_size=1)

    def forward(self, x):
        p1 = F.relu(self.p1_1(x))
        p2 = F.relu(self.p2_2(F.relu(self.p2_1(x))))
        p3 = F.relu(self.p3_2(F.relu(self.p3_1(x))))
        p4 = F.relu(self.p4_2(self.p4_1(x)))
        return torch.cat((p1, p2, p3, p4), dim=1)


b1 = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=7, stride=2, padding=3), nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
)  # fmt: skip
b3 = nn.Sequential(
    Inception(8, 4, (4, 8), (2, 4), 4),
    Inception(20, 8, (8, 12), (4, 6), 6),
    nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
)
googlenet = nn.Sequential(b1, b3, nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(32, 10))
print(googlenet[1][0])
layer_summary(googlenet, (1, 1, 96, 96))


def conv_block(input_channels, num_channels):
    return nn.Sequential(
        nn.BatchNorm2d(input_channels), nn.ReLU(),
        nn.Conv2d(input_channels, num_channels, kernel_size=3, padding=1),
    )  # fmt: skip


class DenseBlock(nn.Module):
    def __init__(self, num_convs, input_channels, num_channels):
        super().__init__()
        layer = []
        for i in range(num_convs):
            layer.append(conv_block(num_channels * i + input_channels, num_channels))
        self.net = nn.Sequential(*layer)

    def forward(self, X):
        for blk in self.net:
            Y = blk(X)
            X = torch.cat((X, Y), dim=1)
        return X


def transition_block(input_channels, num_channels):
    return nn.Sequential(
        nn.BatchNorm2d(input_channels), nn.ReLU(),
        nn.Conv2d(input_channels, num_channels, kernel_size=1),
        nn.AvgPool2d(kernel_size=2, stride=2),
    )  # fmt: skip


blk = DenseBlock(2, 3, 10)
X = torch.randn(4, 3, 8, 8)
Y = blk(X)
print(Y.shape)
blk2 = transition_block(23, 10)
print(blk2(Y).shape)
print(blk)
Z = blk2(Y)
Z.mean().backward()
print(blk.net[0][2].weight.grad[0, 0], blk.net[1][0].weight.grad)
print(Z[0, :2])
