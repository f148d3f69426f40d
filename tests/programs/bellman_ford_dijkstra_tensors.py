# Models: shortest paths on a small weighted digraph with tensors: Bellman-Ford as repeated
# min-plus relaxation over an edge list (scatter_reduce amin), negative-cycle detection, a
# Dijkstra with a visited mask and argmin over tentative distances, predecessor recovery,
# all-pairs distances from min-plus matrix "squaring", and a check against each other.
import torch

inf = float("inf")
edges = torch.tensor([[0, 1], [0, 2], [1, 2], [1, 3], [2, 1], [2, 3], [2, 4], [3, 4], [4, 3],
                      [3, 5], [4, 5]])
w = torch.tensor([4.0, 2.0, 5.0, 10.0, 1.0, 8.0, 3.0, 2.0, 1.0, 6.0, 9.0])
n = 6


def bellman_ford(src, edges, w, n):
    dist = torch.full((n,), inf)
    dist[src] = 0
    pred = torch.full((n,), -1)
    for it in range(n - 1):
        cand = dist[edges[:, 0]] + w
        new = dist.scatter_reduce(0, edges[:, 1], cand, reduce="amin")
        improved = new < dist
        for v in improved.nonzero().flatten().tolist():
            mask = (edges[:, 1] == v) & (cand == new[v])
            pred[v] = edges[mask.nonzero()[0, 0], 0]
        if not improved.any():
            return dist, pred, it, False
        dist = new
    cand = dist[edges[:, 0]] + w
    negative = bool((cand < dist[edges[:, 1]]).any())
    return dist, pred, n - 1, negative


dist, pred, its, neg = bellman_ford(0, edges, w, n)
print("bellman-ford dist", dist, "pred", pred.tolist(), "rounds", its, "negative cycle", neg)


def path_to(pred, v):
    out = [v]
    while pred[out[-1]] >= 0:
        out.append(pred[out[-1]].item())
    return out[::-1]


for v in range(1, n):
    print(f"0 -> {v}: {path_to(pred, v)} cost {dist[v].item()}")


def dijkstra(src, W):
    n = W.shape[0]
    dist = torch.full((n,), inf)
    dist[src] = 0
    visited = torch.zeros(n, dtype=torch.bool)
    order = []
    for _ in range(n):
        u = torch.where(visited, torch.tensor(inf), dist).argmin().item()
        if dist[u] == inf:
            break
        visited[u] = True
        order.append(u)
        dist = torch.minimum(dist, dist[u] + W[u])
    return dist, order


W = torch.full((n, n), inf)
W[edges[:, 0], edges[:, 1]] = w
print("adjacency\n", W)
d2, order = dijkstra(0, W)
print("dijkstra", d2, "visit order", order, "agree", torch.equal(d2, dist))

D = W.clone()
D.fill_diagonal_(0)
for k in range(3):
    D = (D.unsqueeze(2) + D.unsqueeze(0)).min(dim=1).values
print("all pairs (min-plus squaring)\n", D)
print("row 0 equals bellman-ford:", torch.equal(D[0], dist))
print("reachable pairs:", torch.isfinite(D).sum().item())

neg_edges = torch.cat([edges, torch.tensor([[5, 2]])])
neg_w = torch.cat([w, torch.tensor([-20.0])])
_, _, _, neg = bellman_ford(0, neg_edges, neg_w, n)
print("with edge 5->2 of weight -20: negative cycle", neg)
