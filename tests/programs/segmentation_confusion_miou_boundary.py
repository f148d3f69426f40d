# Models: segmentation evaluation code: confusion matrix by bincount over (target*C + pred) with
# an ignore label, per-class IoU, mean IoU and frequency-weighted IoU, pixel accuracy, and a
# boundary F-score using max_pool2d as a dilation.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
C, IGN = 4, 255
target = torch.randint(0, C, (2, 10, 10))
target[:, :2, :2] = IGN
pred_logits = torch.randn(2, C, 10, 10) + 2 * F.one_hot(target.clamp(max=C - 1), C).permute(
    0, 3, 1, 2
)
pred = pred_logits.argmax(1)


def confusion(pred, target, C, ignore):
    k = target != ignore
    return torch.bincount(C * target[k] + pred[k], minlength=C * C).reshape(C, C)


cm = confusion(pred, target, C, IGN)
print(cm)
iou = cm.diag() / (cm.sum(0) + cm.sum(1) - cm.diag()).float()
print(iou, iou.mean())
freq = cm.sum(1).float() / cm.sum()
print("fwIoU", (freq * iou).sum().item(), "pixacc", (cm.diag().sum() / cm.sum()).item())
print(torch.nanmean(torch.tensor([0.5, float("nan"), 0.25])))


def boundary(mask):
    m = mask.float()[:, None]
    dil = F.max_pool2d(m, 3, stride=1, padding=1)
    ero = -F.max_pool2d(-m, 3, stride=1, padding=1)
    return (dil - ero)[:, 0].bool()


pb = boundary(pred == 1)
tb = boundary(target == 1)
tol_t = F.max_pool2d(tb.float()[:, None], 3, 1, 1)[:, 0].bool()
tol_p = F.max_pool2d(pb.float()[:, None], 3, 1, 1)[:, 0].bool()
prec = (pb & tol_t).sum() / pb.sum().clamp(min=1)
rec = (tb & tol_p).sum() / tb.sum().clamp(min=1)
print(pb.sum().item(), tb.sum().item(), f"{(2 * prec * rec / (prec + rec)).item():.6f}")
soft = pred_logits.softmax(1)
onehot = F.one_hot(target.masked_fill(target == IGN, 0), C).permute(0, 3, 1, 2).float()
valid = (target != IGN)[:, None].float()
inter = (soft * onehot * valid).sum((0, 2, 3))
dice = 2 * inter / ((soft * valid).sum((0, 2, 3)) + (onehot * valid).sum((0, 2, 3)))
print(dice)
