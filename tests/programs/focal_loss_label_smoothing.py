# Models: imbalanced-classification recipes (RetinaNet's focal loss as in torchvision's
# sigmoid_focal_loss, CrossEntropyLoss(label_smoothing=...), class weights, a multi-class
# focal loss written with gather) trained on a skewed synthetic dataset; per-loss gradients,
# reductions and minority-class recall are printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2.0, reduction="none"):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, weight=None, label_smoothing=0.0):
        super().__init__()
        self.gamma = gamma
        self.register_buffer("weight", weight)
        self.label_smoothing = label_smoothing

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1)
        logp_t = logp.gather(1, target.unsqueeze(1)).squeeze(1)
        p_t = logp_t.exp()
        ce = F.cross_entropy(
            logits,
            target,
            weight=self.weight,
            reduction="none",
            label_smoothing=self.label_smoothing,
        )
        return ((1 - p_t) ** self.gamma * ce).mean()


logits = torch.tensor([[2.0, -1.0, 0.5], [0.1, 0.2, 3.0], [-1.0, 2.5, 0.0]], requires_grad=True)
target = torch.tensor([0, 2, 0])
for ls in [0.0, 0.1, 0.3]:
    loss = F.cross_entropy(logits, target, label_smoothing=ls)
    (g,) = torch.autograd.grad(loss, logits)
    print(f"label_smoothing={ls} loss={loss.item():.5f}")
    print(g)
w = torch.tensor([1.0, 3.0, 0.5])
print("weighted+smoothed", F.cross_entropy(logits, target, weight=w, label_smoothing=0.2).item())
print("sum", F.cross_entropy(logits, target, weight=w, label_smoothing=0.2, reduction="sum").item())
tgt_ignore = torch.tensor([0, -100, 1])
print("ignore_index+smoothing", F.cross_entropy(logits, tgt_ignore, label_smoothing=0.1).item())
soft = torch.softmax(torch.randn(3, 3), 1)
print("prob targets+smoothing", F.cross_entropy(logits, soft, label_smoothing=0.1).item())

x = torch.randn(6)
t = torch.tensor([1.0, 0.0, 0.0, 1.0, 0.0, 0.0])
print("sigmoid focal none", sigmoid_focal_loss(x, t))
print("sigmoid focal mean {:.6f}".format(sigmoid_focal_loss(x, t, reduction="mean").item()))
print(
    "gamma=0 alpha=-1 equals BCE:",
    torch.allclose(
        sigmoid_focal_loss(x, t, alpha=-1, gamma=0),
        F.binary_cross_entropy_with_logits(x, t, reduction="none"),
    ),
)

# imbalanced training
n = 600
y = (torch.rand(n) < 0.1).long() + (torch.rand(n) < 0.05).long()
X = torch.randn(n, 5) + F.one_hot(y, 3).float() @ torch.randn(3, 5) * 1.5
print("class counts", torch.bincount(y).tolist())
counts = torch.bincount(y).float()
class_w = counts.sum() / (len(counts) * counts)
print("class weights", class_w)

for name, crit in [
    ("ce", nn.CrossEntropyLoss()),
    ("ce weighted", nn.CrossEntropyLoss(weight=class_w)),
    ("ce smooth", nn.CrossEntropyLoss(label_smoothing=0.1)),
    ("focal", FocalLoss(gamma=2.0)),
    ("focal weighted", FocalLoss(gamma=2.0, weight=class_w, label_smoothing=0.05)),
]:
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for epoch in range(30):
        opt.zero_grad()
        loss = crit(model(X), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(X).argmax(1)
    recall = [((pred == c) & (y == c)).sum().item() / (y == c).sum().item() for c in range(3)]
    print(f"{name:15s} final loss {loss.item():.4f} recall {[round(r, 2) for r in recall]}")
print(FocalLoss(weight=class_w))
print("buffers", [k for k, _ in FocalLoss(weight=class_w).named_buffers()])
try:
    F.cross_entropy(logits, target, label_smoothing=1.5)
except RuntimeError as e:
    print("RuntimeError:", e)
