# Models: decision trees (CART with Gini impurity) grown on tensors, bagged into a random
# forest with feature subsampling, out-of-bag accuracy and impurity-based feature importances.
import torch

torch.manual_seed(0)
n, d = 240, 5
X = torch.randn(n, d)
y = ((X[:, 0] > 0.2) & (X[:, 1] < 0.5) | (X[:, 2] > 1.0)).long()
print("class balance", torch.bincount(y).tolist())


def gini(counts):
    total = counts.sum(-1, keepdim=True).clamp_min(1)
    p = counts / total
    return 1 - (p**2).sum(-1)


def best_split(X, y, features):
    best = (None, None, float("inf"))
    n = len(y)
    for f in features.tolist():
        order = torch.argsort(X[:, f], stable=True)
        xs, ys = X[order, f], y[order]
        onehot = torch.nn.functional.one_hot(ys, 2).float()
        left = onehot.cumsum(0)[:-1]
        right = onehot.sum(0) - left
        nl = torch.arange(1, n, dtype=torch.float32)
        score = (nl * gini(left) + (n - nl) * gini(right)) / n
        valid = xs[1:] > xs[:-1]
        if not valid.any():
            continue
        score = torch.where(valid, score, torch.full_like(score, float("inf")))
        i = int(score.argmin())
        if score[i] < best[2]:
            best = (f, ((xs[i] + xs[i + 1]) / 2).item(), score[i].item())
    return best


def grow(X, y, depth, max_depth, max_features, gen, importances):
    counts = torch.bincount(y, minlength=2)
    if depth == max_depth or len(y) < 4 or (counts == 0).any():
        return {"leaf": int(counts.argmax())}
    feats = torch.randperm(X.shape[1], generator=gen)[:max_features]
    f, thr, score = best_split(X, y, feats)
    if f is None:
        return {"leaf": int(counts.argmax())}
    importances[f] += len(y) * (gini(counts.float()).item() - score)
    mask = X[:, f] <= thr
    return {
        "f": f,
        "t": thr,
        "l": grow(X[mask], y[mask], depth + 1, max_depth, max_features, gen, importances),
        "r": grow(X[~mask], y[~mask], depth + 1, max_depth, max_features, gen, importances),
    }


def predict_one(node, x):
    while "leaf" not in node:
        node = node["l"] if x[node["f"]] <= node["t"] else node["r"]
    return node["leaf"]


def predict(node, X):
    return torch.tensor([predict_one(node, x) for x in X.tolist()])


def depth_of(node):
    return 0 if "leaf" in node else 1 + max(depth_of(node["l"]), depth_of(node["r"]))


imp = torch.zeros(d)
tree = grow(X, y, 0, 3, d, torch.Generator().manual_seed(0), imp)
print("single tree root split: feature", tree["f"], "threshold", round(tree["t"], 4))
print("tree depth", depth_of(tree), "train acc", (predict(tree, X) == y).float().mean().item())

gen = torch.Generator().manual_seed(42)
trees, oob_votes = [], torch.zeros(n, 2)
importances = torch.zeros(d)
for b in range(15):
    idx = torch.randint(0, n, (n,), generator=gen)
    oob = torch.ones(n, dtype=torch.bool)
    oob[idx] = False
    t = grow(X[idx], y[idx], 0, 4, 2, gen, importances)
    trees.append(t)
    p = predict(t, X[oob])
    oob_votes[oob.nonzero().squeeze(1), p] += 1
    if b % 5 == 4:
        has = oob_votes.sum(1) > 0
        acc = (oob_votes[has].argmax(1) == y[has]).float().mean()
        print(f"trees {b + 1:2d} oob coverage {has.float().mean():.3f} oob acc {acc:.4f}")
Xt = torch.randn(200, d)
yt = ((Xt[:, 0] > 0.2) & (Xt[:, 1] < 0.5) | (Xt[:, 2] > 1.0)).long()
votes = torch.stack([predict(t, Xt) for t in trees])
forest = votes.float().mean(0).round().long()
print(
    "test acc single",
    (predict(tree, Xt) == yt).float().mean().item(),
    "forest",
    (forest == yt).float().mean().item(),
)
print("feature importances", importances / importances.sum())
print("vote agreement", (votes == forest).float().mean(1))
