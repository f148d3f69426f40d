# Models: a Kaggle tabular-competition notebook in plain torch: a synthetic table with three
# categorical and four numeric columns, label encoding with torch.unique(return_inverse=True),
# an MLP with one nn.Embedding per categorical column, 4-fold cross-validation with out-of-fold
# predictions, early stopping on the validation loss with patience and best-weights restore
# (copy.deepcopy of the state_dict), fold-averaged test predictions and a log-loss summary.
import copy
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(42)
n, n_test = 320, 64
cities = torch.randint(0, 7, (n + n_test,))
device_type = torch.randint(0, 3, (n + n_test,))
plan = torch.randint(0, 4, (n + n_test,)) * 10 + 5          # raw codes 5, 15, 25, 35
num = torch.randn(n + n_test, 4)
num[:, 2] = num[:, 2].exp()                                  # a skewed column
logit = 0.8 * num[:, 0] - 0.5 * num[:, 1] + 0.3 * (cities % 3).float() - 0.4 * (plan == 25).float()
target = (torch.rand(n + n_test) < torch.sigmoid(logit)).float()

codes, plan_idx = torch.unique(plan, return_inverse=True)
print("plan codes", codes.tolist(), "encoded head", plan_idx[:8].tolist())
cats = torch.stack([cities, device_type, plan_idx], 1)
cardinalities = [int(c.max()) + 1 for c in cats.T]
emb_dims = [min(50, (c + 1) // 2) for c in cardinalities]
print("cardinalities", cardinalities, "embedding dims", emb_dims)
num[:, 2] = torch.log1p(num[:, 2])
X_cat, X_num, y = cats[:n], num[:n], target[:n]
T_cat, T_num = cats[n:], num[n:]
print(f"positive rate {y.mean().item():.4f}")


class TabularNet(nn.Module):
    def __init__(self, cards, dims, n_num, hidden=32):
        super().__init__()
        self.embs = nn.ModuleList(nn.Embedding(c, d) for c, d in zip(cards, dims))
        self.emb_drop = nn.Dropout(0.1)
        self.bn = nn.BatchNorm1d(n_num)
        self.mlp = nn.Sequential(nn.Linear(sum(dims) + n_num, hidden), nn.ReLU(),
                                 nn.Dropout(0.2), nn.Linear(hidden, 1))

    def forward(self, x_cat, x_num):
        e = torch.cat([emb(x_cat[:, i]) for i, emb in enumerate(self.embs)], 1)
        return self.mlp(torch.cat([self.emb_drop(e), self.bn(x_num)], 1)).squeeze(1)


def fit_fold(tr, va, max_epochs=40, patience=4):
    model = TabularNet(cardinalities, emb_dims, 4)
    opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=1e-4)
    best, best_state, bad, best_epoch = math.inf, None, 0, -1
    for epoch in range(max_epochs):
        model.train()
        perm = tr[torch.randperm(len(tr))]
        for i in range(0, len(perm), 32):
            b = perm[i:i + 32]
            if len(b) < 2:
                continue
            loss = F.binary_cross_entropy_with_logits(model(X_cat[b], X_num[b]), y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val = F.binary_cross_entropy_with_logits(model(X_cat[va], X_num[va]), y[va]).item()
        if val < best - 1e-4:
            best, best_state, bad, best_epoch = val, copy.deepcopy(model.state_dict()), 0, epoch
        else:
            bad += 1
            if bad >= patience:
                break
    model.load_state_dict(best_state)
    return model, best, best_epoch, epoch


k = 4
folds = torch.randperm(n).chunk(k)
oof = torch.zeros(n)
test_pred = torch.zeros(n_test)
for f in range(k):
    va = folds[f]
    tr = torch.cat([folds[j] for j in range(k) if j != f])
    model, best, best_epoch, stopped = fit_fold(tr, va)
    model.eval()
    with torch.no_grad():
        oof[va] = torch.sigmoid(model(X_cat[va], X_num[va]))
        test_pred += torch.sigmoid(model(T_cat, T_num)) / k
    acc = ((oof[va] > 0.5).float() == y[va]).float().mean().item()
    print(f"fold {f}: best val loss {best:.4f} at epoch {best_epoch}, stopped at {stopped}, "
          f"acc {acc:.4f}")

oof_loss = F.binary_cross_entropy(oof, y).item()
oof_acc = ((oof > 0.5).float() == y).float().mean().item()
print(f"OOF log loss {oof_loss:.4f}, OOF accuracy {oof_acc:.4f}")
test_loss = F.binary_cross_entropy(test_pred, target[n:]).item()
print(f"test log loss {test_loss:.4f}")
print("test predictions (first 6)", test_pred[:6])
print("city embedding norms", model.embs[0].weight.norm(dim=1))
