# Models: the "Self-Normalizing Neural Networks" (SELU) recipe: LeCun-normal init applied
# with Module.apply, SELU vs ReLU activation statistics through a deep MLP, AlphaDropout and
# FeatureAlphaDropout keeping mean/variance, CELU/ELU/RReLU variants, and training a deep
# SNN classifier compared with a ReLU+BatchNorm baseline.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def lecun_init(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, mode="fan_in", nonlinearity="linear")
        nn.init.zeros_(m.bias)


def deep_mlp(act, depth=8, width=64):
    layers = []
    for i in range(depth):
        layers += [nn.Linear(32 if i == 0 else width, width), act()]
    return nn.Sequential(*layers)


x = torch.randn(512, 32)
for name, act in [
    ("selu", nn.SELU),
    ("relu", nn.ReLU),
    ("elu", nn.ELU),
    ("celu", lambda: nn.CELU(0.5)),
]:
    torch.manual_seed(1)
    net = deep_mlp(act).apply(lecun_init)
    h = x
    stats = []
    with torch.no_grad():
        for layer in net:
            h = layer(h)
            if not isinstance(layer, nn.Linear):
                stats.append(f"{h.mean().item():+.2f}/{h.std().item():.2f}")
    print(f"{name:5s}", " ".join(stats[::2]))

print(
    "selu constants",
    f"{F.selu(torch.tensor(-100.0)).item():.6f}",
    f"{F.selu(torch.tensor(1.0)).item():.6f}",
)
print("gain", nn.init.calculate_gain("selu"), nn.init.calculate_gain("leaky_relu", 0.2))

z = F.selu(torch.randn(20000))
for drop in [nn.AlphaDropout(0.2), nn.Dropout(0.2)]:
    drop.train()
    torch.manual_seed(2)
    d = drop(z)
    zeros = (d == 0).float().mean().item()
    print(f"{drop!s:30s} mean {d.mean().item():+.3f} std {d.std().item():.3f} zeros {zeros:.3f}")
fad = nn.FeatureAlphaDropout(0.5)
torch.manual_seed(3)
fm = fad(torch.ones(2, 4, 3))
print(fad, fm[:, :, 0])
print("eval is identity", torch.equal(nn.AlphaDropout(0.5).eval()(z), z))
print("alpha_dropout functional", F.alpha_dropout(torch.ones(6), 0.5, training=False))

rrelu = nn.RReLU(0.1, 0.3)
t = torch.linspace(-2, 2, 5)
torch.manual_seed(4)
print(rrelu, rrelu(t), rrelu.eval()(t), F.rrelu(t, training=False))
print(F.elu(t, alpha=2.0), F.celu(t, alpha=2.0), F.leaky_relu(t, 0.2))

# spirals
torch.manual_seed(5)
n = 200
theta = torch.rand(n) * 3 * math.pi
cls = torch.randint(0, 2, (n,))
r = theta / (3 * math.pi)
angle = theta + cls * math.pi
X = torch.stack([r * torch.cos(angle), r * torch.sin(angle)], 1) + 0.02 * torch.randn(n, 2)


def snn():
    torch.manual_seed(6)
    layers = [nn.Linear(2, 32), nn.SELU()]
    for _ in range(4):
        layers += [nn.Linear(32, 32), nn.SELU(), nn.AlphaDropout(0.05)]
    return nn.Sequential(*layers, nn.Linear(32, 2)).apply(lecun_init)


def bn_relu():
    torch.manual_seed(6)
    layers = [nn.Linear(2, 32, bias=False), nn.BatchNorm1d(32), nn.ReLU()]
    for _ in range(4):
        layers += [nn.Linear(32, 32, bias=False), nn.BatchNorm1d(32), nn.ReLU()]
    return nn.Sequential(*layers, nn.Linear(32, 2))


for name, make in [("snn", snn), ("bn_relu", bn_relu)]:
    model = make()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for _ in range(40):
        model.train()
        perm = torch.randperm(n)
        for i in range(0, n, 50):
            idx = perm[i : i + 50]
            opt.zero_grad()
            loss = F.cross_entropy(model(X[idx]), cls[idx])
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(1) == cls).float().mean().item()
    print(f"{name:8s} last loss {loss.item():.3f} acc {acc:.3f}")
