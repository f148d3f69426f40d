# Models: the d2l.ai "Convolutional Neural Networks" chapter -- corr2d from scratch, learning an
# edge-detection kernel, padding/stride output shapes, multi-channel input/output and 1x1
# convolution as a matmul, and pooling from scratch vs nn.MaxPool2d / nn.AvgPool2d.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i : i + h, j : j + w] * K).sum()
    return Y


X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(corr2d(X, K))


class Conv2D(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(kernel_size))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return corr2d(x, self.weight) + self.bias


X = torch.ones((6, 8))
X[:, 2:6] = 0
print(X)
K = torch.tensor([[1.0, -1.0]])
Y = corr2d(X, K)
print(Y)
print(corr2d(X.t(), K))

layer = Conv2D(kernel_size=(1, 2))
print(layer(X).shape, layer.weight)
conv2d = nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False)
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
lr = 3e-2
for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    conv2d.weight.data[:] -= lr * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f"epoch {i + 1}, loss {l.sum():.3f}")
print(conv2d.weight.data.reshape((1, 2)))


def comp_conv2d(conv2d, X):
    X = X.reshape((1, 1) + X.shape)
    Y = conv2d(X)
    return Y.reshape(Y.shape[2:])


X = torch.rand(size=(8, 8))
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=3, padding=1), X).shape)
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=(5, 3), padding=(2, 1)), X).shape)
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=3, padding=1, stride=2), X).shape)
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4)), X).shape)
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=3, padding="same", dilation=2), X).shape)


def corr2d_multi_in(X, K):
    return sum(corr2d(x, k) for x, k in zip(X, K))


X = torch.tensor(
    [[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
     [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]
)  # fmt: skip
K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
print(corr2d_multi_in(X, K))


def corr2d_multi_in_out(X, K):
    return torch.stack([corr2d_multi_in(X, k) for k in K], 0)


K = torch.stack((K, K + 1, K + 2), 0)
print(K.shape)
print(corr2d_multi_in_out(X, K))
print(torch.equal(corr2d_multi_in_out(X, K), F.conv2d(X.unsqueeze(0), K)[0]))


def corr2d_multi_in_out_1x1(X, K):
    c_i, h, w = X.shape
    c_o = K.shape[0]
    X = X.reshape((c_i, h * w))
    K = K.reshape((c_o, c_i))
    Y = torch.matmul(K, X)
    return Y.reshape((c_o, h, w))


X = torch.normal(0, 1, (3, 3, 3))
K = torch.normal(0, 1, (2, 3, 1, 1))
Y1 = corr2d_multi_in_out_1x1(X, K)
Y2 = corr2d_multi_in_out(X, K)
print(float(torch.abs(Y1 - Y2).sum()) < 1e-6, Y1[0])


def pool2d(X, pool_size, mode="max"):
    p_h, p_w = pool_size
    Y = torch.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            if mode == "max":
                Y[i, j] = X[i : i + p_h, j : j + p_w].max()
            elif mode == "avg":
                Y[i, j] = X[i : i + p_h, j : j + p_w].mean()
    return Y


X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
print(pool2d(X, (2, 2)), pool2d(X, (2, 2), "avg"))
X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))
print(X)
pool2d_layer = nn.MaxPool2d(3)
print(pool2d_layer(X))
pool2d_layer = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d_layer(X))
pool2d_layer = nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))
print(pool2d_layer(X))
X = torch.cat((X, X + 1), 1)
print(nn.AvgPool2d(3, padding=1, stride=2)(X))
print(nn.AvgPool2d(3, padding=1, stride=2, count_include_pad=False)(X)[0, 1])
print(nn.MaxPool2d(2, return_indices=True)(X)[1])
print(nn.MaxPool2d(3, stride=2, ceil_mode=True)(X).shape, nn.LPPool2d(2, 2)(X)[0, 0])

# a trainable conv learns a blur: gradients flow through unfold/fold just like through conv2d
img = torch.rand(1, 1, 7, 7)
target = F.avg_pool2d(img, 3, stride=1, padding=1)
conv = nn.Conv2d(1, 1, 3, padding=1, padding_mode="replicate")
opt = torch.optim.Adam(conv.parameters(), lr=0.05)
for step in range(60):
    opt.zero_grad()
    loss = F.mse_loss(conv(img), target)
    loss.backward()
    opt.step()
print(f"loss {loss.item():.6f}", conv.weight.data[0, 0], conv.bias.data)
patches = F.unfold(img, kernel_size=3, padding=1)
manual = (conv.weight.view(1, -1) @ patches).view(1, 1, 7, 7) + conv.bias.view(1, -1, 1, 1)
print(patches.shape, torch.allclose(manual, F.conv2d(img, conv.weight, conv.bias, padding=1)))
print(F.fold(patches, (7, 7), kernel_size=3, padding=1)[0, 0, :3, :3] / img[0, 0, :3, :3])
