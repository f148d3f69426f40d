# Models: channel and spatial attention blocks (Squeeze-and-Excitation, CBAM, ECA) inside a
# residual network with stochastic depth (drop path), trained briefly on a toy image task.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def drop_path(x, p, training):
    if p == 0.0 or not training:
        return x
    keep = 1 - p
    mask = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(keep)
    return x * mask / keep


class SE(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.fc = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(c, c // r, 1),
            nn.SiLU(),
            nn.Conv2d(c // r, c, 1),
            nn.Sigmoid(),
        )

    def forward(self, x):
        return x * self.fc(x)


class ECA(nn.Module):
    def __init__(self, c, gamma=2, b=1):
        super().__init__()
        k = int(abs(math.log2(c) / gamma + b / gamma))
        k = k if k % 2 else k + 1
        self.conv = nn.Conv1d(1, 1, k, padding=k // 2, bias=False)

    def forward(self, x):
        y = x.mean((2, 3)).unsqueeze(1)
        return x * torch.sigmoid(self.conv(y)).transpose(1, 2).unsqueeze(-1)


class CBAM(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(c, c // r), nn.ReLU(), nn.Linear(c // r, c))
        self.spatial = nn.Conv2d(2, 1, 7, padding=3)

    def forward(self, x):
        ca = torch.sigmoid(
            self.mlp(F.adaptive_avg_pool2d(x, 1).flatten(1))
            + self.mlp(F.adaptive_max_pool2d(x, 1).flatten(1))
        )
        x = x * ca[:, :, None, None]
        s = torch.cat([x.mean(1, keepdim=True), x.amax(1, keepdim=True)], 1)
        return x * torch.sigmoid(self.spatial(s))


class Block(nn.Module):
    def __init__(self, c, attn, p):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(c, c, 3, padding=1, bias=False),
            nn.BatchNorm2d(c),
            nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=1, bias=False),
            nn.BatchNorm2d(c),
            attn,
        )
        self.p = p

    def forward(self, x):
        return F.relu(x + drop_path(self.body(x), self.p, self.training))


class Net(nn.Module):
    def __init__(self, attn_cls, c=16, depth=3):
        super().__init__()
        self.stem = nn.Conv2d(1, c, 3, padding=1)
        rates = torch.linspace(0, 0.3, depth).tolist()
        self.blocks = nn.Sequential(*[Block(c, attn_cls(c), p) for p in rates])
        self.head = nn.Linear(c, 2)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)).mean((2, 3)))


x = torch.randn(64, 1, 10, 10)
y = (x[:, :, 3:7, 3:7].mean((1, 2, 3)) > 0).long()
for attn in (SE, ECA, CBAM):
    torch.manual_seed(1)
    net = Net(attn)
    n_params = sum(p.numel() for p in net.parameters())
    print(attn.__name__, "params", n_params, "drop rates", [round(b.p, 3) for b in net.blocks])
    opt = torch.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.05)
    for epoch in range(6):
        net.train()
        for i in range(0, 64, 16):
            loss = F.cross_entropy(net(x[i : i + 16]), y[i : i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
    net.eval()
    with torch.no_grad():
        out = net(x)
    print(
        f"  final batch loss {loss.item():.4f} train acc {(out.argmax(1) == y).float().mean():.4f}"
    )
print(ECA(64).conv)
print(drop_path(torch.ones(6, 2), 0.5, True))
