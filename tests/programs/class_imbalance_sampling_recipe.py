# Models: the "my classifier ignores the rare class" recipe: a 95/5 imbalanced binary set, an
# MLP trained plainly, with class-weighted cross-entropy (inverse-frequency weights), with
# BCEWithLogits pos_weight, and with a WeightedRandomSampler that balances batches; reported by
# accuracy, balanced accuracy, recall/precision/F1 of the minority class, PR-AUC by average
# precision, and the threshold that maximises F1.
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

torch.manual_seed(13)
n_major, n_minor = 570, 30
Xa = torch.randn(n_major, 4)
Xb = torch.randn(n_minor, 4) * 0.8 + torch.tensor([1.3, 1.0, 0.0, -0.7])
X = torch.cat([Xa, Xb])
y = torch.cat([torch.zeros(n_major), torch.ones(n_minor)]).long()
Xt = torch.cat([torch.randn(190, 4), torch.randn(10, 4) * 0.8 + torch.tensor([1.3, 1.0, 0.0,
               -0.7])])
yt = torch.cat([torch.zeros(190), torch.ones(10)]).long()
counts = torch.bincount(y)
print("class counts", counts.tolist())
class_w = counts.sum() / (2 * counts.float())
print("inverse-frequency weights", class_w)


def metrics(scores, y, thr=0.5):
    pred = (scores > thr).long()
    tp = ((pred == 1) & (y == 1)).sum().item()
    fp = ((pred == 1) & (y == 0)).sum().item()
    fn = ((pred == 0) & (y == 1)).sum().item()
    tn = ((pred == 0) & (y == 0)).sum().item()
    recall = tp / max(tp + fn, 1)
    precision = tp / max(tp + fp, 1)
    f1 = 2 * precision * recall / max(precision + recall, 1e-12)
    bal = 0.5 * (recall + tn / max(tn + fp, 1))
    return (tp + tn) / len(y), bal, recall, precision, f1


def average_precision(scores, y):
    order = scores.argsort(descending=True)
    hits = y[order].float()
    prec = hits.cumsum(0) / torch.arange(1, len(y) + 1)
    return (prec * hits).sum().item() / hits.sum().item()


def train(mode):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    ds = TensorDataset(X, y)
    if mode == "sampler":
        sample_w = class_w[y]
        sampler = WeightedRandomSampler(sample_w, num_samples=len(y), replacement=True,
                                        generator=torch.Generator().manual_seed(1))
        loader = DataLoader(ds, batch_size=60, sampler=sampler)
    else:
        loader = DataLoader(ds, batch_size=60, shuffle=True,
                            generator=torch.Generator().manual_seed(1))
    seen_pos = 0
    for epoch in range(12):
        for xb, yb in loader:
            logits = net(xb).squeeze(1)
            if mode == "pos_weight":
                loss = F.binary_cross_entropy_with_logits(logits, yb.float(),
                                                          pos_weight=counts[0] / counts[1])
            elif mode == "weighted CE":
                two = torch.stack([torch.zeros_like(logits), logits], 1)
                loss = F.cross_entropy(two, yb, weight=class_w)
            else:
                loss = F.binary_cross_entropy_with_logits(logits, yb.float())
            opt.zero_grad()
            loss.backward()
            opt.step()
            if epoch == 0:
                seen_pos += yb.sum().item()
    with torch.no_grad():
        return torch.sigmoid(net(Xt).squeeze(1)), seen_pos


for mode in ("plain", "weighted CE", "pos_weight", "sampler"):
    s, seen_pos = train(mode)
    acc, bal, rec, prec, f1 = metrics(s, yt)
    print(f"{mode:<11} acc {acc:.3f} balanced {bal:.3f} recall {rec:.3f} precision {prec:.3f} "
          f"F1 {f1:.3f} AP {average_precision(s, yt):.3f} (positives seen in epoch 1: {seen_pos})")
    thr = torch.linspace(0.05, 0.95, 19)
    f1s = torch.tensor([metrics(s, yt, t.item())[4] for t in thr])
    print(f"            best F1 {f1s.max().item():.3f} at threshold {thr[f1s.argmax()].item():.2f}")
