# Models: a Kaggle notebook's cross-validation helper without scikit-learn: stratified k-fold
# indices built per class with a seeded randperm, fold class balance printed, out-of-fold
# predictions from a closed-form logistic-ish model, and the OOF accuracy.
import torch

g = torch.Generator().manual_seed(2023)
n, k = 30, 3
y = torch.cat([torch.zeros(18, dtype=torch.long), torch.ones(12, dtype=torch.long)])
X = torch.randn(n, 2, generator=g) + y.unsqueeze(1).float() * 1.5
folds = torch.empty(n, dtype=torch.long)
for c in y.unique():
    idx = (y == c).nonzero().flatten()
    idx = idx[torch.randperm(len(idx), generator=g)]
    folds[idx] = torch.arange(len(idx)) % k
print("fold ids", folds.tolist())
for f in range(k):
    val = folds == f
    print(f"fold {f}: n_val {int(val.sum())} class counts {torch.bincount(y[val]).tolist()}")
oof = torch.zeros(n)
for f in range(k):
    tr, va = folds != f, folds == f
    Xt = torch.cat([X[tr], torch.ones(int(tr.sum()), 1)], 1)
    w = torch.linalg.lstsq(Xt, y[tr].float().unsqueeze(1)).solution
    Xv = torch.cat([X[va], torch.ones(int(va.sum()), 1)], 1)
    oof[va] = (Xv @ w).squeeze(1)
    acc = ((oof[va] > 0.5).long() == y[va]).float().mean()
    print(f"fold {f} acc {acc.item():.4f}")
print("oof acc", ((oof > 0.5).long() == y).float().mean().item())
print("oof head", oof[:5])
