# Models: tabular preprocessing in plain torch for a model with missing data: NaN masks, median
# imputation with nanmedian, missing-indicator columns, clipping outliers at quantiles,
# one-hot and ordinal encodings, and a logistic model with class weights.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N = 50
age = torch.randint(18, 80, (N,)).float()
income = torch.exp(torch.randn(N) * 0.5 + 10)
score = torch.randn(N)
X = torch.stack([age, income, score], 1)
X[torch.rand(N, 3) < 0.15] = float("nan")
nan_mask = torch.isnan(X)
print(nan_mask.sum(0))
med = X.nanmedian(dim=0).values
print(med)
print(torch.nanmean(X, dim=0), torch.nansum(X, dim=0))
X_imp = torch.where(nan_mask, med.expand_as(X), X)
lo, hi = torch.nanquantile(X, torch.tensor([0.05, 0.95]), dim=0)
print(lo, hi)
X_clip = X_imp.clamp(min=lo, max=hi)
X_std = (X_clip - X_clip.mean(0)) / X_clip.std(0, unbiased=False)
cat = torch.randint(0, 4, (N,))
onehot = F.one_hot(cat, num_classes=4).float()
size = torch.randint(0, 3, (N,))
ordinal = size.float() / 2
feats = torch.cat([X_std, nan_mask.float(), onehot, ordinal[:, None]], 1)
print(feats.shape, feats[:2])
y = ((X_imp[:, 2] > 0) & (cat != 1)).long()
counts = torch.bincount(y, minlength=2)
weights = counts.sum() / (2 * counts.float())
print(counts, weights)
model = nn.Linear(feats.shape[1], 2)
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=20)


def closure():
    opt.zero_grad()
    loss = F.cross_entropy(model(feats), y, weight=weights) + 1e-3 * model.weight.pow(2).sum()
    loss.backward()
    return loss


for _ in range(3):
    loss = opt.step(closure)
    print(f"{loss.item():.6f}")
pred = model(feats).argmax(1)
tp = ((pred == 1) & (y == 1)).sum()
print("acc", (pred == y).float().mean().item(), "tp", tp.item())
print(torch.nan_to_num(X[:3], nan=-1.0))
