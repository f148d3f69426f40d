# Models: Dive into Deep Learning's "Modern CNNs" chapter (DenseNet dense blocks with
# transition layers, GoogLeNet Inception branches, NiN blocks with global average pooling),
# the chapter's layer-by-layer shape walk-through and a few SGD steps on synthetic images.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


def conv_block(input_channels, num_channels):
    return nn.Sequential(
        nn.BatchNorm2d(input_channels), nn.ReLU(),
        nn.Conv2d(input_channels, num_channels, kernel_size=3, padding=1))


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
        nn.AvgPool2d(kernel_size=2, stride=2))


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


def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU())


blk = DenseBlock(2, 3, 10)
X = torch.randn(4, 3, 8, 8)
Y = blk(X)
print("dense block:", Y.shape)
print("transition:", transition_block(23, 10)(Y).shape)

b1 = nn.Sequential(nn.Conv2d(1, 16, kernel_size=3, stride=1, padding=1),
                   nn.BatchNorm2d(16), nn.ReLU(),
                   nn.MaxPool2d(kernel_size=3, stride=2, padding=1))
num_channels, growth_rate = 16, 8
num_convs_in_dense_blocks = [2, 2]
blks = []
for i, num_convs in enumerate(num_convs_in_dense_blocks):
    blks.append(DenseBlock(num_convs, num_channels, growth_rate))
    num_channels += num_convs * growth_rate
    if i != len(num_convs_in_dense_blocks) - 1:
        blks.append(transition_block(num_channels, num_channels // 2))
        num_channels = num_channels // 2
densenet = nn.Sequential(b1, *blks, nn.BatchNorm2d(num_channels), nn.ReLU(),
                         nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(num_channels, 10))
X = torch.rand(size=(2, 1, 16, 16))
for layer in densenet:
    X = layer(X)
    print(layer.__class__.__name__, "output shape:\t", X.shape)

googlenet = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),
    Inception(8, 4, (4, 8), (2, 4), 4), Inception(20, 8, (4, 8), (2, 4), 4),
    nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
    nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(24, 10))
nin = nn.Sequential(
    nin_block(1, 8, kernel_size=5, strides=2, padding=2), nn.MaxPool2d(3, stride=2),
    nn.Dropout(0.5), nin_block(8, 10, kernel_size=3, strides=1, padding=1),
    nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten())
print(googlenet[2])

data = torch.rand(32, 1, 16, 16)
labels = torch.randint(0, 10, (32,))


def init_weights(m):
    if type(m) in (nn.Linear, nn.Conv2d):
        nn.init.xavier_uniform_(m.weight)


for name, net in [("densenet", densenet), ("googlenet", googlenet), ("nin", nin)]:
    net.apply(init_weights)
    trainer = torch.optim.SGD(net.parameters(), lr=0.1)
    loss = nn.CrossEntropyLoss()
    net.train()
    for epoch in range(3):
        total, correct = 0.0, 0
        for i in range(0, 32, 8):
            Xb, yb = data[i:i + 8], labels[i:i + 8]
            trainer.zero_grad()
            y_hat = net(Xb)
            l = loss(y_hat, yb)
            l.backward()
            trainer.step()
            total += l.item() * yb.numel()
            correct += (y_hat.argmax(axis=1) == yb).sum().item()
        print(f"{name} epoch {epoch + 1}, loss {total / 32:.4f}, train acc {correct / 32:.3f}")
    net.eval()
    with torch.no_grad():
        print(name, "params:", sum(p.numel() for p in net.parameters()),
              "eval logits[0]:", net(data[:1]).squeeze()[:4])
