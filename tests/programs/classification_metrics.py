# Models: evaluation metrics written from scratch with tensors, as in torchmetrics-free training
# scripts -- a confusion matrix with bincount, per-class precision/recall/F1 with macro/micro
# averages, balanced accuracy, top-k accuracy with topk, ROC-AUC and average precision via
# sort/cumsum, a calibration (ECE) histogram, and regression metrics (MAE, RMSE, R^2).
import torch

torch.manual_seed(42)
num_classes = 5
n = 200
targets = torch.randint(0, num_classes, (n,))
logits = torch.randn(n, num_classes) + 1.5 * torch.nn.functional.one_hot(targets, num_classes)
probs = logits.softmax(dim=1)
preds = probs.argmax(dim=1)


def confusion_matrix(preds, targets, num_classes):
    idx = targets * num_classes + preds
    return torch.bincount(idx, minlength=num_classes ** 2).reshape(num_classes, num_classes)


cm = confusion_matrix(preds, targets, num_classes)
print(cm)
tp = cm.diag()
fp = cm.sum(0) - tp
fn = cm.sum(1) - tp
precision = tp / (tp + fp).clamp(min=1)
recall = tp / (tp + fn).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall).clamp(min=1e-12)
print("precision", precision)
print("recall", recall)
print("f1", f1)
print(f"macro f1 {f1.mean().item():.6f}")
micro_p = tp.sum() / (tp.sum() + fp.sum())
print("micro precision", micro_p, "accuracy", (preds == targets).float().mean())
print("balanced accuracy", recall.mean())
support = cm.sum(1)
print("weighted f1", (f1 * support).sum() / support.sum())


def topk_accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


top1, top3 = topk_accuracy(logits, targets, topk=(1, 3))
print("top1", top1, "top3", top3)


def roc_auc(scores, labels):
    order = torch.argsort(scores, descending=True)
    labels = labels[order].float()
    tps = torch.cumsum(labels, 0)
    fps = torch.cumsum(1 - labels, 0)
    tpr = torch.cat([torch.zeros(1), tps / tps[-1]])
    fpr = torch.cat([torch.zeros(1), fps / fps[-1]])
    return torch.trapezoid(tpr, fpr), tpr, fpr


def average_precision(scores, labels):
    order = torch.argsort(scores, descending=True, stable=True)
    labels = labels[order].float()
    tps = torch.cumsum(labels, 0)
    precision = tps / torch.arange(1, len(labels) + 1)
    return (precision * labels).sum() / labels.sum()


binary = (targets == 2)
auc, tpr, fpr = roc_auc(probs[:, 2], binary)
ap = average_precision(probs[:, 2], binary)
print(f"auc {auc.item():.6f} ap {ap.item():.6f}")
print("tpr head", tpr[:6], "fpr tail", fpr[-3:])
ranks = probs[:, 2].argsort().argsort().float() + 1
n_pos = binary.sum()
n_neg = n - n_pos
mw = (ranks[binary].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
print("mann-whitney auc", mw)
aucs = []
for c in range(num_classes):
    aucs.append(roc_auc(probs[:, c], targets == c)[0])
print("ovr aucs", torch.stack(aucs))

# expected calibration error
conf, pred = probs.max(1)
bins = torch.linspace(0, 1, 11)
bin_ids = torch.bucketize(conf, bins[1:-1])
ece = torch.zeros(1)
for b in range(10):
    in_bin = bin_ids == b
    if in_bin.any():
        acc_b = (pred[in_bin] == targets[in_bin]).float().mean()
        ece += in_bin.float().mean() * (conf[in_bin].mean() - acc_b).abs()
print("ece", ece, "bin counts", torch.bincount(bin_ids, minlength=10).tolist())

# regression metrics
y = torch.randn(50, dtype=torch.float64)
y_hat = y + 0.3 * torch.randn(50, dtype=torch.float64)
mae = (y - y_hat).abs().mean()
rmse = ((y - y_hat) ** 2).mean().sqrt()
r2 = 1 - ((y - y_hat) ** 2).sum() / ((y - y.mean()) ** 2).sum()
pearson = torch.corrcoef(torch.stack([y, y_hat]))[0, 1]
print(f"mae {mae:.6f} rmse {rmse:.6f} r2 {r2:.6f} pearson {pearson:.6f}")
print("quantiles", torch.quantile(y - y_hat, torch.tensor([0.1, 0.5, 0.9], dtype=torch.float64)))
