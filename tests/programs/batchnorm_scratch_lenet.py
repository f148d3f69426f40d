# Models: the d2l.ai "Batch Normalization" chapter -- batch_norm from scratch with moving
# averages (train vs eval), a BatchNorm module wrapping it in LeNet, compared to nn.BatchNorm2d.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(42)


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean, self.moving_var, eps=1e-5, momentum=0.1
        )
        return Y


X = torch.randn(4, 3, 5, 5) * 2 + 0.5
mine = BatchNorm(3, num_dims=4)
ref = nn.BatchNorm2d(3)
print(ref)
print(ref.state_dict().keys())
Y1, Y2 = mine(X), ref(X)
print(Y1.shape, torch.allclose(Y1, Y2, atol=1e-5))
print(mine.moving_mean.flatten(), ref.running_mean)
# d2l uses the biased variance for the moving average, nn.BatchNorm the unbiased one
print(mine.moving_var.flatten(), ref.running_var)
n = X.numel() / X.shape[1]
print(
    torch.allclose(
        mine.moving_var.flatten() * n / (n - 1) - 0.9 * n / (n - 1) + 0.9, ref.running_var
    )
)
with torch.no_grad():
    print(mine(X[:1])[0, :, 0, :2])
ref.eval()
print(ref(X[:1])[0, :, 0, :2])
ref.train()

Y1.sum().backward()
print(mine.gamma.grad.flatten(), mine.beta.grad.flatten())
(Y2 * torch.arange(3.0).view(1, 3, 1, 1)).sum().backward()
print(ref.weight.grad, ref.bias.grad)

# batch norm of a fully connected layer
x2 = torch.randn(6, 4)
bn1 = BatchNorm(4, num_dims=2)
print(bn1(x2).mean(0), bn1(x2).std(0, unbiased=False))
print(F.batch_norm(x2, torch.zeros(4), torch.ones(4), training=True).var(0, unbiased=False))


def lenet(bn_factory):
    return nn.Sequential(
        nn.Conv2d(1, 6, kernel_size=5), bn_factory(6, 4), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Conv2d(6, 16, kernel_size=5), bn_factory(16, 4), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
        nn.Linear(16 * 4 * 4, 120), bn_factory(120, 2), nn.Sigmoid(),
        nn.Linear(120, 84), bn_factory(84, 2), nn.Sigmoid(),
        nn.Linear(84, 10),
    )  # fmt: skip


def concise_bn(num_features, num_dims):
    return nn.BatchNorm2d(num_features) if num_dims == 4 else nn.BatchNorm1d(num_features)


imgs = torch.rand(32, 1, 28, 28)
labels = torch.randint(0, 10, (32,))
for factory in (BatchNorm, concise_bn):
    torch.manual_seed(7)
    net = lenet(factory)
    x = imgs[:2]
    for layer in net:
        x = layer(x)
        print(layer.__class__.__name__, "output shape:\t", tuple(x.shape))
    opt = torch.optim.SGD(net.parameters(), lr=0.9)
    for step in range(8):
        opt.zero_grad()
        loss = F.cross_entropy(net(imgs), labels)
        loss.backward()
        opt.step()
        if step % 2 == 1:
            print(f"step {step} loss {loss.item():.5f}")
    g = net[1].gamma if factory is BatchNorm else net[1].weight
    b = net[1].beta if factory is BatchNorm else net[1].bias
    print(g.reshape((-1,)), b.reshape((-1,)))
    net.eval()
    with torch.no_grad():
        print(net(imgs[:3]).argmax(1), net(imgs[:3])[0, :4])
print(net[1].num_batches_tracked, net[5].running_mean[:4])
print(sum(p.numel() for p in net.parameters()), len(list(net.buffers())))
