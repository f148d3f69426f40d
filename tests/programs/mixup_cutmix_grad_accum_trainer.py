# Models: an image-classification training loop with the usual tricks: mixup (Beta via
# torch.distributions, lam per batch) and cutmix (box from numpy-free torch RNG) on tiny
# images, soft-target cross entropy, gradient accumulation over micro-batches with loss
# scaling, clip_grad_value_ and clip_grad_norm_(norm_type=inf), and an EMA copy of the weights.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Beta

torch.manual_seed(0)
X = torch.randn(48, 3, 8, 8)
y = torch.randint(0, 3, (48,))
X[y == 1, 0] += 1.0
X[y == 2, 1] -= 1.0
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(8, 3),
)
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
beta = Beta(torch.tensor(0.4), torch.tensor(0.4))


def mixup(x, t):
    lam = beta.sample().item()
    perm = torch.randperm(x.size(0))
    return lam * x + (1 - lam) * x[perm], lam * t + (1 - lam) * t[perm], lam


def cutmix(x, t):
    lam = beta.sample().item()
    perm = torch.randperm(x.size(0))
    H, W = x.shape[2:]
    cut = (1 - lam) ** 0.5
    ch, cw = int(H * cut), int(W * cut)
    cy, cx = torch.randint(H, (1,)).item(), torch.randint(W, (1,)).item()
    y1, y2 = max(cy - ch // 2, 0), min(cy + ch // 2, H)
    x1, x2 = max(cx - cw // 2, 0), min(cx + cw // 2, W)
    x = x.clone()
    x[:, :, y1:y2, x1:x2] = x[perm, :, y1:y2, x1:x2]
    lam = 1 - (y2 - y1) * (x2 - x1) / (H * W)
    return x, lam * t + (1 - lam) * t[perm], lam


def soft_ce(logits, target):
    return torch.sum(-target * F.log_softmax(logits, dim=-1), dim=-1).mean()


@torch.no_grad()
def ema_update(ema, model, decay=0.9):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm, alpha=1 - decay)
    for be, bm in zip(ema.buffers(), model.buffers()):
        be.copy_(bm)


accum = 3
for epoch in range(4):
    perm = torch.randperm(48)
    opt.zero_grad()
    for i, start in enumerate(range(0, 48, 8)):
        idx = perm[start : start + 8]
        xb, tb = X[idx], F.one_hot(y[idx], 3).float()
        xb, tb, lam = (mixup if i % 2 == 0 else cutmix)(xb, tb)
        loss = soft_ce(model(xb), tb) / accum
        loss.backward()
        if (i + 1) % accum == 0:
            nn.utils.clip_grad_value_(model.parameters(), 1.0)
            total = nn.utils.clip_grad_norm_(model.parameters(), 2.0, norm_type=float("inf"))
            opt.step()
            opt.zero_grad()
            ema_update(ema, model)
    print(
        f"epoch {epoch} last loss {loss.item() * accum:.4f} lam {lam:.4f} inf-norm "
        f"{total.item():.4f}"
    )

model.eval()
ema.eval()
with torch.no_grad():
    for name, m in [("model", model), ("ema", ema)]:
        acc = (m(X).argmax(1) == y).float().mean().item()
        print(name, "acc", round(acc, 4))
print("bn running mean", ema[1].running_mean)
print("num_batches_tracked", ema[1].num_batches_tracked.item())
