# Models: a multi-label classification guide: BCEWithLogitsLoss with pos_weight per class and
# per-sample weight, agreement with BCELoss on sigmoid outputs, numerical stability at extreme
# logits, reduction modes, soft labels, and thresholded predictions with per-class F1.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(13)
logits = torch.randn(6, 4, requires_grad=True)
targets = (torch.rand(6, 4) > 0.6).float()
pos = targets.sum(0)
pos_weight = (6 - pos) / pos.clamp(min=1)
print("pos_weight", pos_weight)
crit = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
loss = crit(logits, targets)
loss.backward()
print("loss", loss, loss.grad_fn.name())
print("grad\n", logits.grad)
p = torch.sigmoid(logits.detach())
print("bce on sigmoid", F.binary_cross_entropy(p, targets),
      F.binary_cross_entropy_with_logits(logits.detach(), targets))
manual = -(pos_weight * targets * F.logsigmoid(logits) + (1 - targets) * F.logsigmoid(-logits))
print("by hand", manual.mean())
extreme = torch.tensor([-200.0, -30.0, 0.0, 30.0, 200.0])
t = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
print("stable", F.binary_cross_entropy_with_logits(extreme, t, reduction="none"))
print("unstable", F.binary_cross_entropy(torch.sigmoid(extreme), t, reduction="none"))
w = torch.tensor([1.0, 2.0, 0.5, 1.0, 1.0, 0.0]).unsqueeze(1)
print("weighted", F.binary_cross_entropy_with_logits(logits.detach(), targets, weight=w))
print("sum", F.binary_cross_entropy_with_logits(logits.detach(), targets, reduction="sum"))
soft = targets * 0.9 + 0.05
print("soft labels", F.binary_cross_entropy_with_logits(logits.detach(), soft))
pred = (p > 0.5).float()
tp = (pred * targets).sum(0)
fp = (pred * (1 - targets)).sum(0)
fn = ((1 - pred) * targets).sum(0)
f1 = 2 * tp / (2 * tp + fp + fn).clamp(min=1)
print("per-class F1", f1, "macro", f1.mean())
try:
    F.binary_cross_entropy_with_logits(logits, targets[:, :3])
except ValueError as e:
    print("ValueError:", e)
try:
    F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
