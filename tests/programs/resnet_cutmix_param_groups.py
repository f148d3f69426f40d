# Models: the CIFAR training recipe of timm-style scripts shrunk to toy size: CutMix with a
# Beta-sampled box (numpy RNG) and MixUp, label-smoothed cross-entropy on mixed targets, SGD
# with Nesterov momentum and weight decay excluded from BatchNorm and bias parameters, a
# linear-warmup-then-cosine schedule with SequentialLR, and per-epoch top-1/top-3 accuracy.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(150)
np.random.seed(150)


def block(cin, cout, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


model = nn.Sequential(block(3, 8, 1), block(8, 16, 2), block(16, 16, 1),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 5))
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if p.ndim <= 1 else decay).append(p)
print(len(decay), len(no_decay), sum(p.numel() for p in decay))
opt = torch.optim.SGD([{"params": decay, "weight_decay": 5e-4},
                       {"params": no_decay, "weight_decay": 0.0}], lr=0.1, momentum=0.9,
                      nesterov=True)
epochs, steps = 6, 4
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=steps)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=(epochs - 1) * steps, eta_min=1e-4)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [warm, cos], milestones=[steps])
X = torch.rand(64, 3, 12, 12)
Y = torch.randint(0, 5, (64,))
X[torch.arange(64), Y % 3] += 0.5


def rand_bbox(h, w, lam):
    cut = np.sqrt(1.0 - lam)
    ch, cw = int(h * cut), int(w * cut)
    cy, cx = np.random.randint(h), np.random.randint(w)
    y1, y2 = np.clip(cy - ch // 2, 0, h), np.clip(cy + ch // 2, 0, h)
    x1, x2 = np.clip(cx - cw // 2, 0, w), np.clip(cx + cw // 2, 0, w)
    return y1, y2, x1, x2


def accuracy(out, target, topk=(1, 3)):
    pred = out.topk(max(topk), 1).indices.t()
    correct = pred.eq(target.view(1, -1).expand_as(pred))
    return [correct[:k].reshape(-1).float().sum(0).item() * 100.0 / len(target) for k in topk]


for epoch in range(epochs):
    model.train()
    perm = torch.randperm(64)
    for i, idx in enumerate(perm.split(16)):
        x, y = X[idx].clone(), Y[idx]
        lam = np.random.beta(1.0, 1.0)
        rand_index = torch.randperm(x.size(0))
        if i % 2 == 0:
            y1, y2, x1, x2 = rand_bbox(12, 12, lam)
            x[:, :, y1:y2, x1:x2] = x[rand_index, :, y1:y2, x1:x2]
            lam = 1 - ((y2 - y1) * (x2 - x1) / (12 * 12))
        else:
            x = lam * x + (1 - lam) * x[rand_index]
        out = model(x)
        loss = lam * F.cross_entropy(out, y, label_smoothing=0.1) + \
            (1 - lam) * F.cross_entropy(out, y[rand_index], label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    model.eval()
    with torch.no_grad():
        top1, top3 = accuracy(model(X), Y)
    print(f"epoch {epoch} loss {loss.item():.5f} lam {lam:.4f} top1 {top1:.2f} top3 {top3:.2f} "
          f"lr {[round(g['lr'], 6) for g in opt.param_groups]}")
print(sched.state_dict()["_milestones"], sched.last_epoch)
print(opt.param_groups[0]["weight_decay"], opt.param_groups[1]["nesterov"])
print(model[0][1].running_mean, model[-1].bias)
