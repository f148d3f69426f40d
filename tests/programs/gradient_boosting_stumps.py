# Models: "gradient boosting from scratch" notebooks written with tensors: exhaustive split
# search for regression stumps and depth-2 trees via sort + cumsum of gradient statistics,
# XGBoost-style gain with L2 leaf regularisation, boosting on squared error and on logistic
# loss (Newton leaf values from gradients and hessians), shrinkage, feature-importance by total
# gain, and a staged test-error curve.
import torch

torch.manual_seed(0)
N, D = 400, 5
X = torch.rand(N, D) * 4 - 2
f_true = torch.sin(2 * X[:, 0]) + (X[:, 1] > 0.5).float() * 1.5 - 0.5 * X[:, 2] ** 2
y_reg = f_true + 0.2 * torch.randn(N)
y_cls = (f_true + 0.5 * torch.randn(N) > 0).float()
train, test = torch.arange(300), torch.arange(300, N)


def best_split(x, g, h, lam):
    """Best (feature, threshold, gain) for gradient/hessian statistics g, h."""
    G, H = g.sum(), h.sum()
    best = (None, None, torch.tensor(0.0))
    for j in range(x.shape[1]):
        vals, order = x[:, j].sort()
        gl, hl = g[order].cumsum(0)[:-1], h[order].cumsum(0)[:-1]
        gain = gl ** 2 / (hl + lam) + (G - gl) ** 2 / (H - hl + lam) - G ** 2 / (H + lam)
        valid = vals[1:] > vals[:-1]
        gain = torch.where(valid, gain, torch.full_like(gain, float("-inf")))
        k = int(gain.argmax())
        if gain[k] > best[2]:
            best = (j, ((vals[k] + vals[k + 1]) / 2).item(), gain[k])
    return best


def fit_tree(x, g, h, lam, depth):
    leaf = -g.sum() / (h.sum() + lam)
    if depth == 0 or len(g) < 10:
        return {"leaf": leaf.item()}
    j, thr, gain = best_split(x, g, h, lam)
    if j is None:
        return {"leaf": leaf.item()}
    left = x[:, j] <= thr
    return {"feature": j, "thr": thr, "gain": gain.item(),
            "left": fit_tree(x[left], g[left], h[left], lam, depth - 1),
            "right": fit_tree(x[~left], g[~left], h[~left], lam, depth - 1)}


def predict(tree, x):
    if "leaf" in tree:
        return torch.full((len(x),), tree["leaf"])
    left = x[:, tree["feature"]] <= tree["thr"]
    out = torch.empty(len(x))
    out[left] = predict(tree["left"], x[left])
    out[~left] = predict(tree["right"], x[~left])
    return out


def importance(tree, acc):
    if "leaf" not in tree:
        acc[tree["feature"]] += tree["gain"]
        importance(tree["left"], acc)
        importance(tree["right"], acc)
    return acc


for task in ["regression", "classification"]:
    y = y_reg if task == "regression" else y_cls
    base = y[train].mean() if task == "regression" else torch.logit(y[train].mean())
    F_train = torch.full((len(train),), base.item())
    F_test = torch.full((len(test),), base.item())
    trees, imp = [], torch.zeros(D)
    for m in range(30):
        if task == "regression":
            g, h = F_train - y[train], torch.ones(len(train))
        else:
            p = torch.sigmoid(F_train)
            g, h = p - y[train], p * (1 - p)
        tree = fit_tree(X[train], g, h, lam=1.0, depth=2)
        trees.append(tree)
        importance(tree, imp)
        F_train += 0.3 * predict(tree, X[train])
        F_test += 0.3 * predict(tree, X[test])
        if m % 10 == 9:
            if task == "regression":
                tr, te = (F_train - y[train]).pow(2).mean(), (F_test - y[test]).pow(2).mean()
                print(f"{task} trees {m + 1} train MSE {tr:.4f} test MSE {te:.4f}")
            else:
                loss = torch.nn.functional.binary_cross_entropy_with_logits(F_train, y[train])
                acc = ((F_test > 0).float() == y[test]).float().mean()
                print(f"{task} trees {m + 1} train logloss {loss:.4f} test acc {acc:.4f}")
    root = {k: (round(v, 4) if isinstance(v, float) else v)
            for k, v in trees[0].items() if k not in ("left", "right")}
    print("first tree:", root)
    print("feature importance (normalised):", imp / imp.sum())
    print("test predictions:", F_test[:6])
