# Models: a clustering lecture's agglomerative (single and complete linkage) algorithm written
# with cdist and a merge loop, the merge heights, cutting the dendrogram at k clusters, and a
# comparison of the two linkages' labels.
import torch

torch.manual_seed(9)
pts = torch.cat([torch.randn(5, 2) * 0.3 + torch.tensor([0.0, 0.0]),
                 torch.randn(5, 2) * 0.3 + torch.tensor([3.0, 3.0]),
                 torch.randn(4, 2) * 0.3 + torch.tensor([0.0, 4.0])])
D = torch.cdist(pts, pts)
print("distance matrix diag", D.diagonal().abs().max().item())


def agglomerate(D, k, linkage):
    clusters = {i: [i] for i in range(D.shape[0])}
    heights = []
    while len(clusters) > k:
        keys = sorted(clusters)
        best = None
        for ai, a in enumerate(keys):
            for b in keys[ai + 1:]:
                block = D[clusters[a]][:, clusters[b]]
                d = block.min() if linkage == "single" else block.max()
                if best is None or d < best[0]:
                    best = (d, a, b)
        d, a, b = best
        clusters[a] = clusters[a] + clusters.pop(b)
        heights.append(round(d.item(), 5))
    labels = torch.empty(D.shape[0], dtype=torch.long)
    for lab, key in enumerate(sorted(clusters)):
        labels[clusters[key]] = lab
    return labels, heights


for linkage in ["single", "complete"]:
    labels, heights = agglomerate(D, 3, linkage)
    print(linkage, labels.tolist())
    print("  heights", heights)
    centers = torch.stack([pts[labels == c].mean(0) for c in range(3)])
    print("  centers", centers)
    within = sum(((pts[labels == c] - centers[c]) ** 2).sum() for c in range(3))
    print("  within SS", within.item())
