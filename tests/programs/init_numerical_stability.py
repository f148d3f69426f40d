# Models: the d2l.ai "Numerical Stability and Initialization" chapter and a course notebook on
# initialisation -- vanishing sigmoid gradients, exploding products of random matrices, and
# activation statistics through deep MLPs under default, xavier, kaiming and orthogonal init.
import math

import torch
from torch import nn

torch.manual_seed(0)
x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))
print(x.grad.max(), x.grad[::20])
print(x.grad[x.abs() > 6].max())

M = torch.normal(0, 1, size=(4, 4))
print("a single matrix \n", M)
for i in range(100):
    M = M @ torch.normal(0, 1, size=(4, 4))
print("after multiplying 100 matrices\n", M)
print(M.abs().max().log10().floor())

W = torch.empty(3, 5)
print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("tanh"))
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("selu"))
print(nn.init.xavier_uniform_(W, gain=nn.init.calculate_gain("relu")))
print(nn.init.xavier_normal_(W))
print(nn.init.kaiming_uniform_(W, mode="fan_in", nonlinearity="relu"))
print(nn.init.kaiming_normal_(W, a=0.1, mode="fan_out", nonlinearity="leaky_relu"))
print((nn.init.orthogonal_(W) @ W.T - torch.eye(3)).abs().max() < 1e-6, W.shape)
print(nn.init.trunc_normal_(W, std=0.5, a=-0.5, b=0.5))
print(nn.init.constant_(W, 0.3)[0], nn.init.eye_(torch.empty(2, 3)))
print(nn.init.uniform_(W, -1 / math.sqrt(5), 1 / math.sqrt(5))[1])
print(nn.init.sparse_(torch.empty(6, 3), sparsity=0.5))

depth, width = 20, 64


def make_mlp(init, act):
    layers = []
    for _ in range(depth):
        lin = nn.Linear(width, width)
        if init == "small":
            nn.init.normal_(lin.weight, std=0.01)
        elif init == "xavier":
            nn.init.xavier_uniform_(lin.weight)
        elif init == "kaiming":
            nn.init.kaiming_normal_(lin.weight, nonlinearity="relu")
        elif init == "orthogonal":
            nn.init.orthogonal_(lin.weight, gain=nn.init.calculate_gain("tanh"))
        if init != "default":
            nn.init.zeros_(lin.bias)
        layers += [lin, act()]
    return nn.Sequential(*layers, nn.Linear(width, 1))


X = torch.randn(256, width)
for init, act in [
    ("default", nn.ReLU),
    ("small", nn.Tanh),
    ("xavier", nn.Tanh),
    ("kaiming", nn.ReLU),
    ("orthogonal", nn.Tanh),
    ("xavier", nn.Sigmoid),
]:
    torch.manual_seed(1)
    net = make_mlp(init, act)
    h = X
    stds = []
    for layer in net[:-1]:
        h = layer(h)
        if not isinstance(layer, nn.Linear):
            stds.append(h.std().item())
    out = net(X)
    out.pow(2).mean().backward()
    g_first = net[0].weight.grad.norm().item()
    g_last = net[-1].weight.grad.norm().item()
    print(
        f"{init:10s} {act.__name__:8s} act std first {stds[0]:.4e} last {stds[-1]:.4e} "
        f"grad norm first {g_first:.4e} last {g_last:.4e}"
    )

# symmetry: identical weights give identical gradients, so hidden units never differentiate
net = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 1))
for p in net.parameters():
    nn.init.constant_(p, 0.5)
out = net(torch.randn(8, 4)).sum()
out.backward()
print(net[0].weight.grad)
print(torch.allclose(net[0].weight.grad[0], net[0].weight.grad[1]))


def init_weights(m):
    if type(m) is nn.Linear:
        nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)


net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
print(net.apply(init_weights))
print(net[0].bias, net[2].weight)
conv = nn.Conv2d(3, 8, 3)
fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(conv.weight)
print(fan_in, fan_out, 1 / math.sqrt(fan_in))
print(
    conv.weight.abs().max() <= 1 / math.sqrt(fan_in), conv.bias.abs().max() <= 1 / math.sqrt(fan_in)
)
print(
    torch.finfo(torch.float32).eps, torch.finfo(torch.float16).max, torch.finfo(torch.bfloat16).tiny
)
z = torch.tensor([1000.0, 1001.0, 1002.0])
print(torch.exp(z) / torch.exp(z).sum(), torch.softmax(z, 0))
print(
    torch.log(torch.sigmoid(torch.tensor(-200.0))), nn.functional.logsigmoid(torch.tensor(-200.0))
)
print(torch.logsumexp(z, 0), torch.log1p(torch.tensor(1e-10)), torch.log(1 + torch.tensor(1e-10)))
print(torch.tensor(1e-8, dtype=torch.float16), torch.tensor(70000.0).half())
