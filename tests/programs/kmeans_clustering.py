# Models: "k-means in PyTorch" notebooks -- Forgy initialisation with randperm, pairwise
# squared distances by broadcasting, argmin assignments, centroid updates with index_add_ and
# bincount, inertia per iteration until convergence, then k-means++ seeding with multinomial.
import torch

torch.manual_seed(0)
true_centers = torch.tensor([[0.0, 0.0], [5.0, 5.0], [0.0, 6.0], [6.0, 0.0]])
X = torch.cat([c + torch.randn(50, 2) * 0.8 for c in true_centers])
print(X.shape, X.mean(0), X.std(0))


def kmeans(X, k, centroids, iters=20):
    for it in range(iters):
        d2 = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(-1)
        assign = d2.argmin(1)
        counts = torch.bincount(assign, minlength=k).clamp(min=1)
        sums = torch.zeros_like(centroids).index_add_(0, assign, X)
        new = sums / counts[:, None].float()
        inertia = d2.gather(1, assign[:, None]).sum()
        shift = (new - centroids).norm(dim=1).max()
        centroids = new
        print(f"iter {it} inertia {inertia.item():.3f} shift {shift.item():.5f}")
        if shift < 1e-4:
            break
    return centroids, assign


init = X[torch.randperm(len(X))[:4]]
centroids, assign = kmeans(X, 4, init)
order = centroids[:, 0] * 10 + centroids[:, 1]
print(centroids[order.argsort()])
print(torch.bincount(assign).sort().values)


def kmeans_pp(X, k):
    centers = [X[torch.randint(len(X), (1,))].squeeze(0)]
    for _ in range(1, k):
        d2 = torch.stack([((X - c) ** 2).sum(1) for c in centers]).min(0).values
        probs = d2 / d2.sum()
        centers.append(X[torch.multinomial(probs, 1)].squeeze(0))
    return torch.stack(centers)


torch.manual_seed(1)
init = kmeans_pp(X, 4)
print(init)
centroids, assign = kmeans(X, 4, init)
print(((centroids[:, None] - true_centers[None]) ** 2).sum(-1).sqrt().min(1).values)
one_hot = torch.nn.functional.one_hot(assign, 4)
print(one_hot.sum(0), one_hot.dtype, torch.unique(assign, return_counts=True))
