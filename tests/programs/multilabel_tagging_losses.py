# Models: a multi-label image-tagging tutorial (one image, several tags): a small MLP trained
# with BCEWithLogitsLoss and pos_weight for rare tags, compared with MultiLabelSoftMarginLoss,
# MultiLabelMarginLoss (target index lists padded with -1), MultiMarginLoss and
# SoftMarginLoss; per-tag precision/recall at a threshold and exact-match accuracy.
import torch
import torch.nn as nn

torch.manual_seed(0)
n, d, k = 96, 10, 5
features = torch.randn(n, d)
proj = torch.randn(d, k)
logits_true = features @ proj
targets = (logits_true > torch.tensor([0.0, 0.5, 1.0, 1.5, 2.5])).float()
print("tag frequency", targets.mean(0))

pos_weight = (1 - targets.mean(0)) / targets.mean(0).clamp(min=1e-3)
print("pos_weight", pos_weight)

criteria = {
    "bce": nn.BCEWithLogitsLoss(),
    "bce_pw": nn.BCEWithLogitsLoss(pos_weight=pos_weight),
    "mlsm": nn.MultiLabelSoftMarginLoss(),
}


def margin_targets(t):
    out = torch.full(t.shape, -1, dtype=torch.long)
    for i, row in enumerate(t):
        idx = row.nonzero().flatten()
        out[i, : len(idx)] = idx
    return out


mlm_targets = margin_targets(targets)
print(targets[:3])
print(mlm_targets[:3])
criteria["mlm"] = lambda out, t: nn.MultiLabelMarginLoss()(out, mlm_targets)
criteria["soft_margin"] = lambda out, t: nn.SoftMarginLoss()(out, 2 * t - 1)

for name, crit in criteria.items():
    torch.manual_seed(2)
    model = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, k))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(60):
        opt.zero_grad()
        loss = crit(model(features), targets)
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = (model(features) > 0).float()
    tp = (pred * targets).sum(0)
    precision = tp / pred.sum(0).clamp(min=1)
    recall = tp / targets.sum(0).clamp(min=1)
    exact = (pred == targets).all(dim=1).float().mean()
    print(f"{name:12s} loss {loss.item():.4f} exact {exact.item():.4f}")
    print("   precision", precision)
    print("   recall   ", recall)

# reductions and per-sample values of the margin losses
out = torch.tensor([[0.1, 0.2, 0.4, 0.8], [0.5, -0.3, 0.0, 0.2]], requires_grad=True)
y_idx = torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1]])
per = nn.MultiLabelMarginLoss(reduction="none")(out, y_idx)
print("multilabel margin", per)
per.sum().backward()
print(out.grad)
cls = torch.tensor([3, 1])
for p, margin in [(1, 1.0), (2, 0.5)]:
    w = torch.tensor([1.0, 2.0, 1.0, 0.5])
    v = nn.MultiMarginLoss(p=p, margin=margin, weight=w, reduction="none")(out, cls)
    print(f"multi margin p={p}", v)
print(
    nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 0.0, 1.0, 2.0]), reduction="none")(
        out, (y_idx >= 0).float()
    )
)
print(nn.SoftMarginLoss(reduction="sum")(out, torch.sign(out.detach() - 0.1)))
