# Models: a "graph algorithms with tensors" course notebook: PageRank by power iteration on a
# column-stochastic matrix with dangling nodes, all-pairs shortest paths by Floyd-Warshall
# with broadcasting, BFS levels by boolean matrix products, connected components by
# min-label propagation with scatter_reduce, triangle counting and the spectrum of the
# normalised Laplacian.
import torch

edges = torch.tensor(
    [
        [0, 1],
        [1, 2],
        [2, 0],
        [2, 3],
        [3, 4],
        [4, 5],
        [5, 3],
        [6, 7],
        [7, 8],
        [8, 6],
        [9, 9],
        [1, 3],
        [4, 0],
    ]
)
n = 10
A = torch.zeros(n, n)
A[edges[:, 0], edges[:, 1]] = 1.0
print("adjacency", A.shape, int(A.sum()), "self loops", int(A.diagonal().sum()))
out_deg = A.sum(1)
print("out degree", out_deg)

d = 0.85
M = torch.where(
    out_deg[:, None] > 0, A / out_deg.clamp(min=1)[:, None], torch.full_like(A, 1.0 / n)
).T
print("column sums", M.sum(0))
r = torch.full((n,), 1.0 / n)
for it in range(100):
    r_new = (1 - d) / n + d * M @ r
    delta = (r_new - r).abs().sum()
    r = r_new
    if delta < 1e-6:
        break
print("pagerank converged after", it + 1, "iterations, sum", r.sum().item())
print(r)
print("ranking", torch.argsort(r, descending=True))

W = torch.tensor(
    [
        [0, 3, 8, float("inf"), -4],
        [float("inf"), 0, float("inf"), 1, 7],
        [float("inf"), 4, 0, float("inf"), float("inf")],
        [2, float("inf"), -5, 0, float("inf")],
        [float("inf"), float("inf"), float("inf"), 6, 0],
    ]
)
D = W.clone()
for k in range(D.shape[0]):
    D = torch.minimum(D, D[:, k : k + 1] + D[k : k + 1, :])
print("floyd-warshall\n", D)
print("negative cycle:", bool((D.diagonal() < 0).any()))

U = ((A + A.T) > 0).float()
U.fill_diagonal_(0)
level = torch.full((n,), -1, dtype=torch.long)
frontier = torch.zeros(n, dtype=torch.bool)
frontier[0] = True
visited = frontier.clone()
depth = 0
while frontier.any():
    level[frontier] = depth
    nxt = (U[frontier].sum(0) > 0) & ~visited
    visited |= nxt
    frontier = nxt
    depth += 1
print("bfs levels from 0:", level)

src, dst = U.nonzero(as_tuple=True)
labels = torch.arange(n)
for step in range(n):
    new = labels.scatter_reduce(0, dst, labels[src], reduce="amin", include_self=True)
    if torch.equal(new, labels):
        break
    labels = new
print("components", labels, "count", labels.unique().numel(), "steps", step)
sizes = torch.bincount(labels, minlength=n)
print("component sizes", sizes[sizes > 0])

tri = torch.trace(U @ U @ U) / 6
print("triangles", tri.item())
deg = U.sum(1)
print(
    "undirected degrees",
    deg,
    "clustering",
    (torch.diagonal(U @ U @ U) / (deg * (deg - 1)).clamp(min=1)),
)

Dm = torch.diag(deg.clamp(min=1).rsqrt())
L = torch.eye(n, dtype=torch.float64) - (Dm @ U @ Dm).double()
evals = torch.linalg.eigvalsh(L)
print("laplacian eigenvalues", evals)
print("zero eigenvalues", (evals.abs() < 1e-9).sum().item())

deg_in = torch.zeros(n).index_add_(0, edges[:, 1], torch.ones(len(edges)))
print("in degree", deg_in)
hubs = torch.zeros(n)
auth = torch.ones(n)
for _ in range(50):
    hubs = A @ auth
    hubs = hubs / hubs.norm()
    auth = A.T @ hubs
    auth = auth / auth.norm()
print("HITS hubs", hubs)
print("HITS authorities", auth)
