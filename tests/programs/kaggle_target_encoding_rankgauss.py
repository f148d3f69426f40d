# Models: the feature-engineering cells of a Kaggle tabular notebook: frequency encoding with
# bincount, out-of-fold target encoding with smoothing computed by index_add_ (no leakage into
# the fold being encoded), rank-gauss transformation via argsort ranks and torch.erfinv, quantile
# clipping of outliers, interaction features, and a logistic-regression check that the encoded
# features carry signal (train/valid AUC by the rank-sum formula).
import math

import torch

torch.manual_seed(7)
n = 600
cat_a = torch.randint(0, 30, (n,))
cat_b = torch.randint(0, 5, (n,))
x_num = torch.randn(n).exp() * 10
effect_a = torch.randn(30)
logit = effect_a[cat_a] + 0.3 * (cat_b == 2).float() + 0.05 * (x_num - 10)
y = (torch.rand(n) < torch.sigmoid(logit)).float()
print("target mean", y.mean().item(), "categories seen", cat_a.unique().numel())

freq = torch.bincount(cat_a, minlength=30).float() / n
f_enc = freq[cat_a]
print("frequency encoding head", f_enc[:6])


def target_encode(cat, y, train_idx, apply_idx, n_cat, prior, alpha=10.0):
    sums = torch.zeros(n_cat).index_add_(0, cat[train_idx], y[train_idx])
    counts = torch.zeros(n_cat).index_add_(0, cat[train_idx], torch.ones(len(train_idx)))
    smooth = (sums + alpha * prior) / (counts + alpha)
    return smooth[cat[apply_idx]]


perm = torch.randperm(n)
train_idx, valid_idx = perm[:450], perm[450:]
prior = y[train_idx].mean()
te = torch.zeros(n)
folds = train_idx[torch.randperm(len(train_idx))].chunk(5)
for k, fold in enumerate(folds):
    rest = torch.cat([f for j, f in enumerate(folds) if j != k])
    te[fold] = target_encode(cat_a, y, rest, fold, 30, prior)
te[valid_idx] = target_encode(cat_a, y, train_idx, valid_idx, 30, prior)
print(f"prior {prior.item():.4f}, OOF target-encoding range [{te[train_idx].min().item():.4f}, "
      f"{te[train_idx].max().item():.4f}]")
print("corr(te, true effect)",
      torch.corrcoef(torch.stack([te, effect_a[cat_a]]))[0, 1].item() > 0.3)


def rank_gauss(x, eps=1e-3):
    r = x.argsort().argsort().float()
    r = r / (len(x) - 1) * 2 - 1
    r = r.clamp(-1 + eps, 1 - eps)
    return torch.erfinv(r)


rg = rank_gauss(x_num)
print(f"raw skew {((x_num - x_num.mean()) ** 3).mean().item() / x_num.std().item() ** 3:.3f}, "
      f"rank-gauss mean {rg.mean().item():.4f} std {rg.std().item():.4f}")
lo, hi = torch.quantile(x_num, torch.tensor([0.01, 0.99]))
clipped = x_num.clamp(lo.item(), hi.item())
n_clipped = (clipped != x_num).sum().item()
print(f"clip at [{lo.item():.4f}, {hi.item():.4f}], clipped values {n_clipped}")
inter = cat_b * 30 + cat_a
print("interaction feature cardinality", inter.unique().numel())

X = torch.stack([te, f_enc, rg, (cat_b == 2).float()], 1)
mu, sd = X[train_idx].mean(0), X[train_idx].std(0)
X = (X - mu) / sd
w = torch.zeros(4, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.LBFGS([w, b], max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = torch.nn.functional.binary_cross_entropy_with_logits(X[train_idx] @ w + b, y[train_idx])
    loss.backward()
    return loss


loss = opt.step(closure)
print(f"train loss {closure().item():.4f}", "weights", w.detach())


def auc(scores, labels):
    ranks = scores.argsort().argsort().float() + 1
    pos = labels == 1
    n_pos, n_neg = pos.sum().item(), (~pos).sum().item()
    return (ranks[pos].sum().item() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


with torch.no_grad():
    s = X @ w + b
print(f"train AUC {auc(s[train_idx], y[train_idx]):.4f} "
      f"valid AUC {auc(s[valid_idx], y[valid_idx]):.4f}")
valid_loss = torch.nn.functional.binary_cross_entropy_with_logits(s[valid_idx], y[valid_idx])
prior_loss = -(prior * math.log(prior) + (1 - prior) * math.log(1 - prior))
print(f"log loss valid {valid_loss.item():.4f} vs prior {prior_loss.item():.4f}")
