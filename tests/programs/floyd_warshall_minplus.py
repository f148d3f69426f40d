# Models: graph algorithms in tensor form: all-pairs shortest paths by Floyd-Warshall and by
# repeated min-plus products, path reconstruction, BFS levels by boolean matrix products,
# connected components by label propagation and transitive closure.
import torch

torch.manual_seed(0)
n = 8
edges = torch.tensor(
    [
        [0, 1, 4.0],
        [0, 2, 1.0],
        [2, 1, 2.0],
        [1, 3, 1.0],
        [2, 3, 5.0],
        [3, 4, 3.0],
        [4, 5, 1.0],
        [5, 3, 1.0],
        [6, 7, 2.0],
    ]
)
src, dst, w = edges[:, 0].long(), edges[:, 1].long(), edges[:, 2]
INF = float("inf")
D = torch.full((n, n), INF)
D.fill_diagonal_(0)
D[src, dst] = w
nxt = torch.where(D < INF, torch.arange(n).expand(n, n), torch.full((n, n), -1))
for k in range(n):
    via = D[:, k : k + 1] + D[k : k + 1, :]
    better = via < D
    D = torch.where(better, via, D)
    nxt = torch.where(better, nxt[:, k : k + 1].expand(n, n), nxt)
torch.set_printoptions(linewidth=120)
print(D)


def path(u, v):
    if nxt[u, v] < 0:
        return None
    out = [u]
    while u != v:
        u = int(nxt[u, v])
        out.append(u)
    return out


for u, v in [(0, 5), (0, 3), (4, 3), (6, 7), (7, 6), (0, 6)]:
    print(f"{u}->{v}: dist {D[u, v].item()} path {path(u, v)}")


def min_plus(A, B):
    return (A[:, :, None] + B[None, :, :]).amin(1)


A = torch.full((n, n), INF)
A.fill_diagonal_(0)
A[src, dst] = w
P = A.clone()
for _ in range(3):
    P = min_plus(P, P)
print("min-plus squaring agrees:", torch.equal(P, D))

adj = torch.zeros(n, n, dtype=torch.bool)
adj[src, dst] = True
und = adj | adj.T
frontier = torch.zeros(n, dtype=torch.bool)
frontier[0] = True
seen = frontier.clone()
level = torch.full((n,), -1)
level[0] = 0
d = 0
while frontier.any():
    d += 1
    frontier = ((frontier.float() @ adj.float()) > 0) & ~seen
    level[frontier] = d
    seen |= frontier
print("BFS levels from 0", level.tolist())

labels = torch.arange(n)
for it in range(n):
    neigh = torch.where(und, labels.expand(n, n), torch.full((n, n), n)).amin(1)
    new = torch.minimum(labels, neigh)
    if torch.equal(new, labels):
        break
    labels = new
print("components", labels.tolist(), "count", labels.unique().numel())
reach = adj | torch.eye(n, dtype=torch.bool)
for _ in range(3):
    reach = (reach.float() @ reach.float()) > 0
print("transitive closure agrees:", torch.equal(reach, D < INF))
print("reachable counts", reach.sum(1).tolist())
print(
    "in-degree",
    torch.bincount(dst, minlength=n).tolist(),
    "out-degree",
    torch.bincount(src, minlength=n).tolist(),
)
deg = und.sum(1).float()
L = torch.diag(deg) - und.float()
ev = torch.linalg.eigvalsh(L)
print("laplacian spectrum", ev, "zero eigenvalues", (ev.abs() < 1e-5).sum().item())
