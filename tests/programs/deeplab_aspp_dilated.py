# Models: DeepLabV3-style semantic segmentation code: an Atrous Spatial Pyramid Pooling head
# (parallel dilated 3x3 convolutions, a 1x1 branch and an image-pooling branch upsampled
# with bilinear interpolation), output stride via dilation instead of striding, a poly
# learning-rate schedule, cross-entropy with ignore_index on synthetic shape masks, and the
# confusion-matrix mIoU evaluation that segmentation repos print.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NC, IGNORE = 3, 255


def make_batch(n, size=24, g=None):
    """Images with a square (class 1) and a disc (class 2) on noise; a border is ignored."""
    ys, xs = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    imgs = torch.randn(n, 3, size, size, generator=g) * 0.3
    masks = torch.zeros(n, size, size, dtype=torch.long)
    for i in range(n):
        cx, cy = torch.randint(5, size - 5, (2,), generator=g).tolist()
        sq = ((xs - cx).abs() <= 3) & ((ys - cy).abs() <= 3)
        dx, dy = torch.randint(5, size - 5, (2,), generator=g).tolist()
        disc = (xs - dx) ** 2 + (ys - dy) ** 2 <= 9
        masks[i][sq] = 1
        masks[i][disc] = 2
        imgs[i, 0][sq] += 1.0
        imgs[i, 2][disc] += 1.0
        imgs[i, 1][sq | disc] -= 0.5
    masks[:, 0, :] = IGNORE
    masks[:, :, 0] = IGNORE
    return imgs, masks


class ASPP(nn.Module):
    def __init__(self, cin, cout, rates=(1, 2, 3)):
        super().__init__()
        self.branches = nn.ModuleList([nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False),
                                                     nn.BatchNorm2d(cout), nn.ReLU())])
        for r in rates[1:]:
            self.branches.append(nn.Sequential(
                nn.Conv2d(cin, cout, 3, padding=r, dilation=r, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU()))
        self.pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(cin, cout, 1), nn.ReLU())
        self.project = nn.Sequential(nn.Conv2d(cout * (len(rates) + 1), cout, 1, bias=False),
                                     nn.BatchNorm2d(cout), nn.ReLU(), nn.Dropout(0.1))

    def forward(self, x):
        outs = [b(x) for b in self.branches]
        pooled = F.interpolate(self.pool(x), size=x.shape[-2:], mode="bilinear",
                               align_corners=False)
        return self.project(torch.cat(outs + [pooled], 1))


class DeepLab(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 12, 3, stride=2, padding=1, bias=False),
                                  nn.BatchNorm2d(12), nn.ReLU(),
                                  nn.Conv2d(12, 16, 3, padding=2, dilation=2, bias=False),
                                  nn.BatchNorm2d(16), nn.ReLU())
        self.aspp = ASPP(16, 16)
        self.cls = nn.Conv2d(16, NC, 1)

    def forward(self, x):
        h = self.cls(self.aspp(self.stem(x)))
        return F.interpolate(h, size=x.shape[-2:], mode="bilinear", align_corners=False)


def confusion(pred, target):
    keep = target != IGNORE
    idx = target[keep] * NC + pred[keep]
    return torch.bincount(idx, minlength=NC * NC).reshape(NC, NC)


g = torch.Generator().manual_seed(1)
train = [make_batch(8, g=g) for _ in range(6)]
val_x, val_y = make_batch(8, g=g)
model = DeepLab()
print(model.aspp.branches[1])
print("params:", sum(p.numel() for p in model.parameters()))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
total = 8 * len(train)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda it: (1 - it / total) ** 0.9)
crit = nn.CrossEntropyLoss(ignore_index=IGNORE)
for epoch in range(8):
    model.train()
    run = 0.0
    for x, y in train:
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run += loss.item()
    model.eval()
    with torch.no_grad():
        pred = model(val_x).argmax(1)
    cm = confusion(pred, val_y)
    iou = cm.diag().float() / (cm.sum(0) + cm.sum(1) - cm.diag()).clamp(min=1).float()
    print(f"epoch {epoch} loss {run / len(train):.5f} lr {sched.get_last_lr()[0]:.5f} "
          f"mIoU {iou.mean().item():.4f}")
print("confusion:\n", cm)
print("per-class IoU:", iou)
print("pixel acc:", f"{(cm.diag().sum() / cm.sum()).item():.4f}")
