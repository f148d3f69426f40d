# Models: the d2l.ai "Transposed Convolution" and "Fully Convolutional Networks" chapters --
# trans_conv from scratch vs nn.ConvTranspose2d (padding, stride, channels), the transposed
# convolution as a matrix multiply, a bilinear-kernel upsampler, and a tiny FCN head trained
# with a per-pixel cross-entropy on synthetic masks.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


def trans_conv(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] + h - 1, X.shape[1] + w - 1))
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            Y[i : i + h, j : j + w] += X[i, j] * K
    return Y


X = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(trans_conv(X, K))
X, K = X.reshape(1, 1, 2, 2), K.reshape(1, 1, 2, 2)
tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, bias=False)
tconv.weight.data = K
print(tconv(X))
tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, padding=1, bias=False)
tconv.weight.data = K
print(tconv(X))
tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, stride=2, bias=False)
tconv.weight.data = K
print(tconv(X))
X = torch.rand(size=(1, 10, 16, 16))
conv = nn.Conv2d(10, 20, kernel_size=5, padding=2, stride=3)
tconv = nn.ConvTranspose2d(20, 10, kernel_size=5, padding=2, stride=3)
print(conv(X).shape, tconv(conv(X)).shape == X.shape)
tconv = nn.ConvTranspose2d(20, 10, kernel_size=5, padding=2, stride=3, output_padding=2)
print(tconv(conv(X)).shape)
print(tconv)

X = torch.arange(9.0).reshape(3, 3)
K = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
Y = F.conv2d(X.view(1, 1, 3, 3), K.view(1, 1, 2, 2))[0, 0]
print(Y)


def kernel2matrix(K):
    k, W = torch.zeros(5), torch.zeros((4, 9))
    k[:2], k[3:5] = K[0, :], K[1, :]
    W[0, :5], W[1, 1:6], W[2, 3:8], W[3, 4:] = k, k, k, k
    return W


W = kernel2matrix(K)
print(W)
print(Y == torch.matmul(W, X.reshape(-1)).reshape(2, 2))
Z = trans_conv(Y, K)
print(Z == torch.matmul(W.T, Y.reshape(-1)).reshape(3, 3))


def bilinear_kernel(in_channels, out_channels, kernel_size):
    factor = (kernel_size + 1) // 2
    if kernel_size % 2 == 1:
        center = factor - 1
    else:
        center = factor - 0.5
    og = (torch.arange(kernel_size).reshape(-1, 1), torch.arange(kernel_size).reshape(1, -1))
    filt = (1 - torch.abs(og[0] - center) / factor) * (1 - torch.abs(og[1] - center) / factor)
    weight = torch.zeros((in_channels, out_channels, kernel_size, kernel_size))
    weight[range(in_channels), range(out_channels), :, :] = filt
    return weight


print(bilinear_kernel(1, 1, 4)[0, 0])
conv_trans = nn.ConvTranspose2d(3, 3, kernel_size=4, padding=1, stride=2, bias=False)
conv_trans.weight.data.copy_(bilinear_kernel(3, 3, 4))
img = torch.rand(1, 3, 5, 6)
up = conv_trans(img)
print(up.shape, up[0, 0, :4, :4])
ref = F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=False)
print((up - ref)[0, 0, 1:-1, 1:-1].abs().max() < 1e-6, (up - ref)[0, 0, 0, :4])

num_classes = 3
net = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU(),
    nn.Conv2d(16, 16, 3, padding=1, stride=2), nn.ReLU(),
)  # fmt: skip
net.add_module("final_conv", nn.Conv2d(16, num_classes, kernel_size=1))
net.add_module(
    "transpose_conv",
    nn.ConvTranspose2d(num_classes, num_classes, kernel_size=8, padding=2, stride=4),
)
W = bilinear_kernel(num_classes, num_classes, 8)
net.transpose_conv.weight.data.copy_(W)
print(net)
imgs = torch.rand(6, 1, 16, 16)
masks = torch.zeros(6, 16, 16, dtype=torch.long)
masks[imgs[:, 0] > 0.66] = 2
masks[(imgs[:, 0] > 0.33) & (imgs[:, 0] <= 0.66)] = 1
print(net(imgs).shape, masks.flatten().bincount())


def loss(inputs, targets):
    return F.cross_entropy(inputs, targets, reduction="none").mean(1).mean(1)


opt = torch.optim.SGD(net.parameters(), lr=0.1, weight_decay=1e-3, momentum=0.9)
for epoch in range(15):
    opt.zero_grad()
    out = net(imgs)
    l = loss(out, masks)
    l.sum().backward()
    opt.step()
    if epoch % 5 == 4:
        acc = (out.argmax(dim=1) == masks).float().mean()
        print(f"epoch {epoch + 1} loss {l.sum().item():.5f} pixel acc {acc.item():.4f}")
print(l)
pred = net(imgs[:1]).argmax(dim=1)
print(pred.shape, pred[0, :4, :8])
print(net.transpose_conv.weight.grad.shape, net.final_conv.bias.grad)
