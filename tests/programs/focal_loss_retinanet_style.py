# Models: sigmoid focal loss as in RetinaNet / torchvision.ops.sigmoid_focal_loss written by hand,
# with alpha and gamma, reduction modes, the classification-head prior bias init
# (-log((1-pi)/pi)), and a short training loop on an imbalanced multilabel toy problem.
import math

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
    elif reduction != "none":
        raise ValueError(
            f"Invalid Value for arg 'reduction': '{reduction} \n "
            "Supported reduction modes: 'none', 'mean', 'sum'"
        )
    return loss


logits = torch.tensor([[2.0, -1.0, 0.0], [-3.0, 4.0, 0.5]])
targets = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
print(sigmoid_focal_loss(logits, targets))
print(
    sigmoid_focal_loss(logits, targets, reduction="mean"),
    sigmoid_focal_loss(logits, targets, gamma=0, alpha=-1, reduction="sum"),
)
print(F.binary_cross_entropy_with_logits(logits, targets, reduction="sum"))
try:
    sigmoid_focal_loss(logits, targets, reduction="avg")
except ValueError as e:
    print(e)

head = nn.Conv2d(8, 4, 3, padding=1)
prior = 0.01
nn.init.normal_(head.weight, std=0.01)
nn.init.constant_(head.bias, -math.log((1 - prior) / prior))
print(head.bias)
feats = torch.randn(4, 8, 5, 5)
tgt = (torch.rand(4, 4, 5, 5) < 0.05).float()
print("positives", int(tgt.sum()))
opt = torch.optim.SGD(head.parameters(), lr=0.5, momentum=0.9)
for it in range(10):
    out = head(feats)
    loss = sigmoid_focal_loss(out, tgt, reduction="sum") / max(1.0, tgt.sum().item())
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(f"iter {it} loss {loss.item():.6f} mean p {torch.sigmoid(out).mean().item():.5f}")
x = torch.randn(6, requires_grad=True)
t = torch.tensor([1.0, 0, 0, 1, 0, 1])
sigmoid_focal_loss(x, t, reduction="mean").backward()
print(x.grad)
