# Models: DARTS (Liu et al. 2019) in the "NAS from scratch" notebooks: a MixedOp summing
# candidate operations (zero, identity/skip, 3x3 and 5x5 separable-style convs, max and
# average pooling) weighted by a softmax over architecture parameters, a small cell of mixed
# edges, first-order bilevel optimisation alternating weight steps on train data and
# architecture steps on validation data, and the derived discrete genotype.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OPS = ["none", "skip", "conv3", "conv5", "max3", "avg3"]


class Zero(nn.Module):
    def forward(self, x):
        return x.mul(0.0)


def make_op(name, c):
    if name == "none":
        return Zero()
    if name == "skip":
        return nn.Identity()
    if name == "conv3":
        return nn.Sequential(nn.ReLU(), nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False),
                             nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c, affine=False))
    if name == "conv5":
        return nn.Sequential(nn.ReLU(), nn.Conv2d(c, c, 5, padding=2, groups=c, bias=False),
                             nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c, affine=False))
    if name == "max3":
        return nn.MaxPool2d(3, stride=1, padding=1)
    return nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)


class MixedOp(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ops = nn.ModuleList(make_op(n, c) for n in OPS)

    def forward(self, x, w):
        return sum(wi * op(x) for wi, op in zip(w, self.ops))


class Network(nn.Module):
    def __init__(self, c=4, edges=3, classes=3):
        super().__init__()
        self.stem = nn.Conv2d(1, c, 3, padding=1, bias=False)
        self.edges = nn.ModuleList(MixedOp(c) for _ in range(edges))
        self.alpha = nn.Parameter(1e-3 * torch.randn(edges, len(OPS)))
        self.head = nn.Linear(c, classes)

    def weights(self):
        return [p for n, p in self.named_parameters() if n != "alpha"]

    def forward(self, x):
        h = self.stem(x)
        w = F.softmax(self.alpha, dim=-1)
        for edge, we in zip(self.edges, w):
            h = edge(h, we)
        return self.head(F.adaptive_avg_pool2d(h, 1).flatten(1))


def make_data(n):
    y = torch.randint(0, 3, (n,))
    x = torch.randn(n, 1, 6, 6) * 0.3
    x[y == 0, :, 1:5, 2:4] += 1.0          # vertical bar
    x[y == 1, :, 2:4, 1:5] += 1.0          # horizontal bar
    x[y == 2, :, ::2, ::2] += 1.0          # dots
    return x, y


xtr, ytr = make_data(48)
xva, yva = make_data(48)
net = Network()
print(net.edges[0])
w_opt = torch.optim.SGD(net.weights(), lr=0.05, momentum=0.9, weight_decay=3e-4)
a_opt = torch.optim.Adam([net.alpha], lr=3e-2, betas=(0.5, 0.999), weight_decay=1e-3)
print("weights", sum(p.numel() for p in net.weights()), "arch params", net.alpha.numel())
for step in range(12):
    a_opt.zero_grad()
    F.cross_entropy(net(xva), yva).backward()
    a_opt.step()
    w_opt.zero_grad()
    loss = F.cross_entropy(net(xtr), ytr)
    loss.backward()
    nn.utils.clip_grad_norm_(net.weights(), 5.0)
    w_opt.step()
    if step % 3 == 0:
        with torch.no_grad():
            acc = (net(xva).argmax(1) == yva).float().mean()
        print(f"step {step:2d} train loss {loss.item():.5f} val acc {acc.item():.3f}")
probs = F.softmax(net.alpha, dim=-1).detach()
print("architecture weights\n", probs)
genotype = [OPS[i] for i in probs[:, 1:].argmax(1).add(1).tolist()]
print("genotype (excluding none)", genotype)
print("alpha grad", net.alpha.grad.abs().sum().item() > 0)
