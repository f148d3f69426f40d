# Models: gated and piecewise-linear feed-forward layers from the 2013-2015 literature: highway
# layers with carry gates biased negative, maxout units, and a plain deep MLP, trained on the
# same regression task with gradient-norm tracking per layer through full_backward hooks.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Highway(nn.Module):
    def __init__(self, d, gate_bias=-2.0):
        super().__init__()
        self.h = nn.Linear(d, d)
        self.t = nn.Linear(d, d)
        nn.init.constant_(self.t.bias, gate_bias)

    def forward(self, x):
        t = torch.sigmoid(self.t(x))
        return t * F.relu(self.h(x)) + (1 - t) * x


class Maxout(nn.Module):
    def __init__(self, d_in, d_out, pieces=3):
        super().__init__()
        self.pieces = pieces
        self.lin = nn.Linear(d_in, d_out * pieces)

    def forward(self, x):
        return self.lin(x).view(*x.shape[:-1], -1, self.pieces).amax(-1)


def make(kind, d=16, depth=8):
    layers = [nn.Linear(4, d)]
    for _ in range(depth):
        if kind == "highway":
            layers.append(Highway(d))
        elif kind == "maxout":
            layers.append(Maxout(d, d))
        else:
            layers += [nn.Linear(d, d), nn.Tanh()]
    layers.append(nn.Linear(d, 1))
    return nn.Sequential(*layers)


X = torch.randn(128, 4)
y = (X[:, :1] * X[:, 1:2]).sin() + 0.5 * X[:, 2:3] ** 2
for kind in ("plain", "highway", "maxout"):
    torch.manual_seed(1)
    net = make(kind)
    norms = {}

    def hook(mod, gin, gout, name=None, norms=norms):
        norms.setdefault(name, []).append(gout[0].norm().item())

    handles = [
        m.register_full_backward_hook(lambda m, gi, go, n=i, hook=hook: hook(m, gi, go, n))
        for i, m in enumerate(net)
        if isinstance(m, (Highway, Maxout, nn.Tanh))
    ]
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    for step in range(60):
        loss = F.mse_loss(net(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step in (0, 59):
            first = min(norms)
            last = max(norms)
            print(
                f"{kind:8s} step {step:3d} loss {loss.item():.5f} grad norm first/last block "
                f"{norms[first][-1]:.3e} / {norms[last][-1]:.3e}"
            )
    for h in handles:
        h.remove()
    print(f"{kind:8s} params {sum(p.numel() for p in net.parameters())}")
hw = Highway(4)
x = torch.randn(3, 4)
print("highway starts near identity:", (hw(x) - x).abs().mean().item() < 0.5)
print("gate values", torch.sigmoid(hw.t(x))[0])
mo = Maxout(4, 2, pieces=4)
out = mo(x)
which = mo.lin(x).view(3, 2, 4).argmax(-1)
print("maxout output", out, "\nwinning pieces", which)
