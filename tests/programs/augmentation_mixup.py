# Models: tensor-only image augmentation and mixup/cutmix as in timm / public training scripts --
# random horizontal flips with torch.flip on a mask, random crops with padding via indexing,
# per-channel normalisation with mean/std, mixup with a Beta-sampled lambda, cutmix boxes,
# soft-target cross entropy, and label smoothing, on a small CNN.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
images = torch.rand(16, 3, 12, 12)
labels = torch.randint(0, 4, (16,))
mean = images.mean(dim=(0, 2, 3))
std = images.std(dim=(0, 2, 3))
print("mean", mean, "std", std)


def normalize(x, mean, std):
    return (x - mean[None, :, None, None]) / std[None, :, None, None]


def random_hflip(x, p=0.5):
    flip = torch.rand(x.shape[0]) < p
    out = x.clone()
    out[flip] = x[flip].flip(-1)
    return out, flip


def random_crop(x, size, padding):
    n = x.shape[0]
    padded = F.pad(x, (padding,) * 4, mode="reflect")
    top = torch.randint(0, 2 * padding + 1, (n,))
    left = torch.randint(0, 2 * padding + 1, (n,))
    rows = top[:, None] + torch.arange(size)[None, :]
    cols = left[:, None] + torch.arange(size)[None, :]
    batch = torch.arange(n)[:, None, None, None]
    chans = torch.arange(x.shape[1])[None, :, None, None]
    return padded[batch, chans, rows[:, None, :, None], cols[:, None, None, :]], top, left


x = normalize(images, mean, std)
print("normalized", x.mean().item() < 1e-5, x.std(dim=(0, 2, 3)))
flipped, mask = random_hflip(x)
print("flipped", mask.int().tolist())
print(torch.equal(flipped[mask][:, :, :, 0], x[mask][:, :, :, -1]))
cropped, top, left = random_crop(x, 12, 2)
print("crop", cropped.shape, top.tolist(), left.tolist())
print(cropped[0, 0, :2, :4])
rot = torch.rot90(x[:2], k=1, dims=(2, 3))
print("rot90", rot.shape, torch.allclose(rot[0, 0, 0], x[0, 0, :, -1]))
jitter = (x * (1 + 0.2 * (torch.rand(16, 1, 1, 1) - 0.5))).clamp(-3, 3)
gray = (0.299 * images[:, 0] + 0.587 * images[:, 1] + 0.114 * images[:, 2]).unsqueeze(1)
print("jitter", jitter.abs().max(), "gray", gray.shape, gray[0, 0, 0, :3])


def mixup_data(x, y, alpha=0.4):
    lam = np.random.beta(alpha, alpha) if alpha > 0 else 1
    index = torch.randperm(x.size(0))
    mixed_x = lam * x + (1 - lam) * x[index, :]
    return mixed_x, y, y[index], lam


def rand_bbox(size, lam):
    W, H = size[2], size[3]
    cut_rat = np.sqrt(1.0 - lam)
    cut_w, cut_h = int(W * cut_rat), int(H * cut_rat)
    cx, cy = np.random.randint(W), np.random.randint(H)
    bbx1, bby1 = np.clip(cx - cut_w // 2, 0, W), np.clip(cy - cut_h // 2, 0, H)
    bbx2, bby2 = np.clip(cx + cut_w // 2, 0, W), np.clip(cy + cut_h // 2, 0, H)
    return bbx1, bby1, bbx2, bby2


def cutmix(x, y, beta=1.0):
    lam = np.random.beta(beta, beta)
    rand_index = torch.randperm(x.size(0))
    bbx1, bby1, bbx2, bby2 = rand_bbox(x.size(), lam)
    x = x.clone()
    x[:, :, bbx1:bbx2, bby1:bby2] = x[rand_index, :, bbx1:bbx2, bby1:bby2]
    lam = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (x.size()[-1] * x.size()[-2]))
    return x, y, y[rand_index], lam


def soft_target_cross_entropy(logits, target):
    return torch.sum(-target * F.log_softmax(logits, dim=-1), dim=-1).mean()


model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
for step in range(6):
    xb, _ = random_hflip(x)
    xb, _, _ = random_crop(xb, 12, 2)
    if step % 2 == 0:
        xb, ya, yb, lam = mixup_data(xb, labels)
        kind = "mixup"
    else:
        xb, ya, yb, lam = cutmix(xb, labels)
        kind = "cutmix"
    out = model(xb)
    loss = lam * crit(out, ya) + (1 - lam) * crit(out, yb)
    target = lam * F.one_hot(ya, 4).float() + (1 - lam) * F.one_hot(yb, 4).float()
    soft = soft_target_cross_entropy(out, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"{step} {kind:6s} lam {float(lam):.4f} loss {loss.item():.4f} soft {soft.item():.4f}")

model.eval()
with torch.no_grad():
    logits = model(x)
    tta = (logits.softmax(-1) + model(x.flip(-1)).softmax(-1)) / 2
print("pred", logits.argmax(1).tolist())
print("tta", tta.argmax(1).tolist(), tta.sum(1).allclose(torch.ones(16)))
