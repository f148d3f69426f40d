# Models: a k-nearest-neighbours classifier written in tensors (as in course exercises on
# "KNN from scratch in PyTorch"): pairwise distances with torch.cdist for several p, topk
# neighbours, majority vote with bincount/mode, distance-weighted voting with scatter_add_,
# leave-one-out accuracy for several k and a comparison against the explicit norm formula.
import torch

torch.manual_seed(0)

n_per_class, n_classes = 20, 3
centers = torch.tensor([[0.0, 0.0], [3.0, 3.0], [0.0, 4.0]])
x = torch.cat([centers[c] + torch.randn(n_per_class, 2) for c in range(n_classes)])
y = torch.arange(n_classes).repeat_interleave(n_per_class)
perm = torch.randperm(len(x))
x, y = x[perm], y[perm]
x_train, y_train, x_test, y_test = x[:45], y[:45], x[45:], y[45:]
print("train", tuple(x_train.shape), "test", tuple(x_test.shape))
print("class counts", torch.bincount(y_train, minlength=n_classes).tolist())

for p in [1.0, 2.0, float("inf")]:
    d = torch.cdist(x_test, x_train, p=p)
    print(f"p={p} dist shape {tuple(d.shape)} first row min {d[0].min().item():.4f}")

d2 = torch.cdist(x_test, x_train)
manual = ((x_test[:, None, :] - x_train[None, :, :]) ** 2).sum(-1).sqrt()
print("cdist vs manual max diff < 1e-5:", bool((d2 - manual).abs().max() < 1e-5))


def knn_predict(dist, labels, k):
    vals, idx = dist.topk(k, dim=1, largest=False)
    votes = labels[idx]
    pred, _ = torch.mode(votes, dim=1)
    return pred, vals, idx


for k in [1, 3, 5, 7]:
    pred, vals, idx = knn_predict(d2, y_train, k)
    acc = (pred == y_test).float().mean().item()
    print(f"k={k} acc={acc:.4f} preds={pred.tolist()}")

pred, vals, idx = knn_predict(d2, y_train, 5)
print("nearest distances (first 3 test points):")
print(vals[:3])
print("neighbour indices:")
print(idx[:3])

# distance-weighted voting
weights = 1.0 / (vals + 1e-6)
scores = torch.zeros(len(x_test), n_classes).scatter_add_(1, y_train[idx], weights)
wpred = scores.argmax(1)
print("weighted scores (first 3):")
print(scores[:3].round(decimals=3))
print("weighted acc", (wpred == y_test).float().mean().item())

# leave-one-out on the full set
dall = torch.cdist(x, x)
dall.fill_diagonal_(float("inf"))
for k in [1, 3, 5]:
    pred, _, _ = knn_predict(dall, y, k)
    print(f"LOO k={k} errors={(pred != y).sum().item()}")

# confusion matrix via bincount
pred, _, _ = knn_predict(dall, y, 3)
cm = torch.bincount(y * n_classes + pred, minlength=n_classes**2).reshape(n_classes, n_classes)
print("confusion matrix:")
print(cm)
print("per-class recall", (cm.diag().float() / cm.sum(1)).tolist())

# cosine-similarity neighbours
xn = torch.nn.functional.normalize(x_test, dim=1)
tn = torch.nn.functional.normalize(x_train, dim=1)
sim = xn @ tn.T
top_sim, top_idx = sim.topk(3, dim=1)
print("cosine top3 (first 2):")
print(top_sim[:2])
print(top_idx[:2])
print("topk sorted=False shape", tuple(sim.topk(3, dim=1, sorted=False).values.shape))
try:
    torch.cdist(x_test, x_train[:, :1])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    d2.topk(100, dim=1)
except RuntimeError as e:
    print("RuntimeError:", e)
