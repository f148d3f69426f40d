# Models: FixMatch semi-supervised learning code: a few labelled examples plus many
# unlabelled ones, weak augmentation (flip + small translation via torch.roll) producing
# pseudo-labels kept only above a confidence threshold, strong augmentation (noise, cutout
# masks, contrast jitter) trained toward them, the combined supervised + lambda_u
# unsupervised loss, an EMA model for evaluation, and mask-rate / pseudo-label accuracy
# statistics.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def images(n, g):
    """3 classes of 10x10 patterns: horizontal stripes, vertical stripes, a centred blob."""
    y = torch.randint(0, 3, (n,), generator=g)
    i = torch.arange(10).float()
    horiz = (torch.sin(i * 1.5)[:, None] * torch.ones(10)).expand(10, 10)
    vert = horiz.t()
    blob = torch.exp(-((i[:, None] - 4.5) ** 2 + (i[None] - 4.5) ** 2) / 8)
    base = torch.stack([horiz, vert, blob * 2 - 0.5])[y]
    return (base + 0.4 * torch.randn(n, 10, 10, generator=g))[:, None], y


def weak(x, g):
    flip = torch.rand(len(x), generator=g) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(-1), x)
    s = torch.randint(-1, 2, (2,), generator=g).tolist()
    return torch.roll(x, shifts=s, dims=(-2, -1))


def strong(x, g):
    x = weak(x, g)
    x = x * (0.5 + torch.rand(len(x), 1, 1, 1, generator=g))
    x = x + 0.3 * torch.randn(x.shape, generator=g)
    cy, cx = torch.randint(0, 7, (2,), generator=g).tolist()
    mask = torch.ones_like(x)
    mask[..., cy:cy + 4, cx:cx + 4] = 0
    return x * mask


def net():
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 3))


g = torch.Generator().manual_seed(5)
xl, yl = images(12, g)
xu, yu = images(300, g)
xt, yt = images(200, g)
model = net()
ema = copy.deepcopy(model)
ema.requires_grad_(False)
opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True,
                      weight_decay=5e-4)
TAU, LAMBDA_U, MU = 0.9, 1.0, 4
for step in range(80):
    li = torch.randint(0, 12, (8,), generator=g)
    ui = torch.randint(0, 300, (8 * MU,), generator=g)
    logits_l = model(weak(xl[li], g))
    with torch.no_grad():
        probs = model(weak(xu[ui], g)).softmax(1)
    conf, pseudo = probs.max(1)
    mask = (conf >= TAU).float()
    loss_s = F.cross_entropy(logits_l, yl[li])
    loss_u = (F.cross_entropy(model(strong(xu[ui], g)), pseudo, reduction="none") * mask).mean()
    loss = loss_s + LAMBDA_U * loss_u
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for pe, pm in zip(ema.parameters(), model.parameters()):
            pe.mul_(0.99).add_(pm, alpha=0.01)
    if step % 20 == 19:
        pl_acc = ((pseudo == yu[ui]).float() * mask).sum() / mask.sum().clamp(min=1)
        print(f"step {step + 1} Ls {loss_s.item():.5f} Lu {loss_u.item():.5f} "
              f"mask rate {mask.mean().item():.4f} pseudo acc {pl_acc.item():.4f}")
with torch.no_grad():
    acc = (model(xt).argmax(1) == yt).float().mean().item()
    acc_ema = (ema(xt).argmax(1) == yt).float().mean().item()
print(f"test acc {acc:.4f} ema {acc_ema:.4f}")
print("class histogram of predictions:", torch.bincount(model(xt).argmax(1), minlength=3))
