# Models: density-based clustering on tensors: DBSCAN with a cdist neighbourhood matrix and a
# breadth-first cluster expansion, mean-shift with a Gaussian kernel and mode merging, and
# the adjusted Rand index against the true labels.
import math

import torch

torch.manual_seed(0)
centers = torch.tensor([[0.0, 0.0], [4.0, 0.5], [2.0, 4.0]])
X = torch.cat([torch.randn(40, 2) * 0.5 + c for c in centers] + [torch.rand(8, 2) * 8 - 2])
truth = torch.cat([torch.full((40,), i) for i in range(3)] + [torch.full((8,), -1)])
print("points", X.shape)


def dbscan(X, eps, min_pts):
    D = torch.cdist(X, X)
    neigh = D <= eps
    core = neigh.sum(1) >= min_pts
    labels = torch.full((len(X),), -1)
    cid = 0
    for i in range(len(X)):
        if labels[i] != -1 or not core[i]:
            continue
        labels[i] = cid
        queue = [i]
        while queue:
            j = queue.pop(0)
            if not core[j]:
                continue
            for k in neigh[j].nonzero().flatten().tolist():
                if labels[k] == -1:
                    labels[k] = cid
                    queue.append(k)
        cid += 1
    return labels, core


def adjusted_rand(a, b):
    a = torch.unique(a, return_inverse=True)[1]
    b = torch.unique(b, return_inverse=True)[1]
    table = torch.zeros(int(a.max()) + 1, int(b.max()) + 1)
    table.index_put_((a, b), torch.ones(len(a)), accumulate=True)

    def comb(t):
        return (t * (t - 1) / 2).sum()

    s = comb(table)
    sa, sb = comb(table.sum(1)), comb(table.sum(0))
    expected = sa * sb / (len(a) * (len(a) - 1) / 2)
    return ((s - expected) / (0.5 * (sa + sb) - expected)).item()


for eps, mp in [(0.5, 5), (0.7, 5), (1.0, 4)]:
    labels, core = dbscan(X, eps, mp)
    k = int(labels.max()) + 1
    noise, n_core = (labels == -1).sum().item(), core.sum().item()
    sizes = torch.bincount(labels[labels >= 0]).tolist()
    print(f"eps={eps} min_pts={mp}: clusters {k} noise {noise} core {n_core} sizes {sizes}")
    print(f"  ARI {adjusted_rand(labels, truth):.4f}")


def mean_shift(X, bandwidth, iters=30):
    modes = X.clone()
    for it in range(iters):
        w = torch.exp(-(torch.cdist(modes, X) ** 2) / (2 * bandwidth**2))
        new = (w @ X) / w.sum(1, keepdim=True)
        shift = (new - modes).norm(dim=1).max()
        modes = new
        if shift < 1e-4:
            break
    return modes, it


modes, iters = mean_shift(X, 0.8)
print("mean shift iterations", iters)
centers_found = []
assign = torch.empty(len(X), dtype=torch.long)
for i, m in enumerate(modes):
    for j, c in enumerate(centers_found):
        if (m - c).norm() < 0.4:
            assign[i] = j
            break
    else:
        centers_found.append(m)
        assign[i] = len(centers_found) - 1
C = torch.stack(centers_found)
big = torch.bincount(assign) >= 5
print("modes found", len(C), "with >= 5 points", big.sum().item())
print("major modes\n", C[big][torch.argsort(C[big][:, 0])])
print("ARI", round(adjusted_rand(assign, truth), 4))
print(
    "silhouette-ish spread",
    torch.stack([X[assign == j].std(0).mean() for j in big.nonzero().flatten().tolist()]),
)
print("kernel at distance 1:", math.exp(-1 / (2 * 0.8**2)))
