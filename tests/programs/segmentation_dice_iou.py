# Models: segmentation-loss code from public repos (segmentation_models_pytorch style): soft
# Dice and Jaccard losses for binary and multiclass masks (one_hot + permute), Tversky and
# Lovasz-hinge-free focal-Dice combos, confusion matrices with bincount, per-class IoU and
# mIoU ignoring an ignore_index, pixel accuracy, and a tiny conv net trained on blob masks.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, IGNORE = 3, 255


def soft_dice_loss(logits, target, eps=1.0, multiclass=True):
    if multiclass:
        probs = logits.softmax(1)
        onehot = F.one_hot(target.clamp(max=N_CLASSES - 1), N_CLASSES).permute(0, 3, 1, 2).float()
    else:
        probs = torch.sigmoid(logits)
        onehot = target.float()
    dims = (0, 2, 3)
    inter = torch.sum(probs * onehot, dims)
    card = torch.sum(probs + onehot, dims)
    dice = (2.0 * inter + eps) / (card + eps)
    return 1.0 - dice.mean(), dice


def jaccard_loss(logits, target, eps=1e-7):
    probs = logits.softmax(1)
    onehot = F.one_hot(target, N_CLASSES).permute(0, 3, 1, 2).to(probs.dtype)
    inter = (probs * onehot).sum((0, 2, 3))
    union = (probs + onehot).sum((0, 2, 3)) - inter
    return 1 - (inter / union.clamp_min(eps)).mean()


def tversky_loss(logits, target, alpha=0.3, beta=0.7, smooth=1.0):
    p = torch.sigmoid(logits).flatten()
    t = target.float().flatten()
    tp, fp, fn = (p * t).sum(), ((1 - t) * p).sum(), (t * (1 - p)).sum()
    return 1 - (tp + smooth) / (tp + alpha * fp + beta * fn + smooth)


def confusion_matrix(pred, target, n=N_CLASSES, ignore_index=IGNORE):
    keep = target != ignore_index
    idx = n * target[keep] + pred[keep]
    return torch.bincount(idx, minlength=n * n).reshape(n, n)


def iou_from_cm(cm):
    inter = cm.diag().float()
    union = cm.sum(0) + cm.sum(1) - cm.diag()
    iou = inter / union.float()
    return iou, torch.nanmean(iou)


pred = torch.tensor([[0, 0, 1, 1], [0, 2, 2, 1], [2, 2, 2, 0]])
target = torch.tensor([[0, 0, 1, 1], [0, 1, 2, 1], [IGNORE, 2, 0, 0]])
cm = confusion_matrix(pred, target)
print("confusion matrix:\n", cm)
iou, miou = iou_from_cm(cm)
print("per-class IoU:", iou, "mIoU:", miou)
print("pixel accuracy:", (cm.diag().sum() / cm.sum()).item())
cm_absent = confusion_matrix(torch.zeros(4, dtype=torch.long), torch.tensor([0, 0, 1, 1]))
print("IoU with an absent class:", iou_from_cm(cm_absent))

logits = torch.randn(2, N_CLASSES, 4, 4, requires_grad=True)
tgt = torch.randint(0, N_CLASSES, (2, 4, 4))
d, per_class = soft_dice_loss(logits, tgt)
print("dice loss:", d, per_class)
d.backward()
print("grad norm:", logits.grad.norm(), logits.grad.shape)
print("jaccard:", jaccard_loss(logits, tgt))
bin_logits = torch.randn(2, 1, 4, 4)
bin_tgt = (torch.rand(2, 1, 4, 4) > 0.5).long()
print("binary dice:", soft_dice_loss(bin_logits, bin_tgt, multiclass=False)[0])
print("tversky:", tversky_loss(bin_logits, bin_tgt))
tgt_ign = tgt.clone()
tgt_ign[0, 0] = IGNORE
print("CE ignore_index:", F.cross_entropy(logits, tgt_ign, ignore_index=IGNORE))
print("CE class weights:", F.cross_entropy(logits, tgt, weight=torch.tensor([0.2, 1.0, 2.0])))


def make_sample(h=16, w=16):
    yy, xx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    mask = torch.zeros(h, w, dtype=torch.long)
    for cls in (1, 2):
        cy, cx = torch.randint(3, h - 3, (2,)).tolist()
        r = torch.randint(2, 4, (1,)).item()
        mask[(yy - cy) ** 2 + (xx - cx) ** 2 <= r * r] = cls
    img = torch.stack([(mask == 1).float(), (mask == 2).float()]) + 0.3 * torch.randn(2, h, w)
    return img, mask


imgs, masks = zip(*[make_sample() for _ in range(8)])
imgs, masks = torch.stack(imgs), torch.stack(masks)
print("class pixel counts:", torch.bincount(masks.flatten()))
net = nn.Sequential(
    nn.Conv2d(2, 8, 3, padding=1),
    nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=2, dilation=2),
    nn.ReLU(),
    nn.Conv2d(8, N_CLASSES, 1),
)
opt = torch.optim.Adam(net.parameters(), lr=0.03)
for step in range(40):
    out = net(imgs)
    ce = F.cross_entropy(out, masks, weight=torch.tensor([0.2, 1.0, 1.0]))
    dl, _ = soft_dice_loss(out, masks)
    loss = ce + dl
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 39:
        cm = confusion_matrix(out.argmax(1).flatten(), masks.flatten())
        print(
            f"step {step:2d} ce {ce.item():.4f} dice {dl.item():.4f} "
            f"mIoU {iou_from_cm(cm)[1].item():.4f}"
        )
print("final confusion:\n", cm)
