# Models: a graph convolutional network written from scratch the way GNN tutorials do it
# before reaching for PyG: edge_index -> symmetric normalisation with degree via
# scatter_add/index_add_, message passing with index_select + index_add_, a 2-layer GCN for
# semi-supervised node classification on a small two-community graph, plus a GAT-style
# attention layer with a scatter softmax (scatter_reduce amax) and masked accuracy.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
edges = [
    (0, 1),
    (0, 2),
    (1, 2),
    (2, 3),
    (3, 4),
    (0, 4),
    (1, 3),
    (5, 6),
    (5, 7),
    (6, 7),
    (7, 8),
    (8, 9),
    (6, 9),
    (5, 9),
    (4, 5),
    (2, 8),
]
src = torch.tensor([a for a, b in edges] + [b for a, b in edges])
dst = torch.tensor([b for a, b in edges] + [a for a, b in edges])
N = 10
loops = torch.arange(N)
src, dst = torch.cat([src, loops]), torch.cat([dst, loops])
edge_index = torch.stack([src, dst])
print("edge_index", edge_index.shape)
deg = torch.zeros(N).scatter_add_(0, dst, torch.ones(dst.numel()))
print("degree", deg)
norm = deg[src].rsqrt() * deg[dst].rsqrt()
labels = torch.tensor([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
train_mask = torch.zeros(N, dtype=torch.bool)
train_mask[[0, 9]] = True
X = torch.eye(N)


class GCNLayer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(i, o, bias=False)
        self.bias = nn.Parameter(torch.zeros(o))

    def forward(self, x):
        h = self.lin(x)
        msg = h.index_select(0, src) * norm.unsqueeze(1)
        out = torch.zeros_like(h).index_add_(0, dst, msg)
        return out + self.bias


class GATLayer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(i, o, bias=False)
        self.a_src = nn.Parameter(torch.randn(o) * 0.1)
        self.a_dst = nn.Parameter(torch.randn(o) * 0.1)

    def forward(self, x):
        h = self.lin(x)
        e = F.leaky_relu((h * self.a_src).sum(-1)[src] + (h * self.a_dst).sum(-1)[dst], 0.2)
        emax = torch.full((N,), float("-inf")).scatter_reduce(
            0, dst, e, reduce="amax", include_self=True
        )
        w = (e - emax[dst]).exp()
        denom = torch.zeros(N).index_add(0, dst, w)
        alpha = w / denom[dst]
        out = torch.zeros_like(h).index_add_(0, dst, alpha.unsqueeze(1) * h[src])
        return out, alpha


for name, layers in [
    ("GCN", (GCNLayer(N, 8), GCNLayer(8, 2))),
    ("GAT", (GATLayer(N, 8), GATLayer(8, 2))),
]:
    torch.manual_seed(1)
    l1, l2 = layers
    params = list(l1.parameters()) + list(l2.parameters())
    opt = torch.optim.Adam(params, lr=0.05, weight_decay=5e-4)
    for epoch in range(40):
        h = l1(X)
        h = h[0] if isinstance(h, tuple) else h
        h = F.dropout(F.relu(h), 0.2, training=True)
        out = l2(h)
        out = out[0] if isinstance(out, tuple) else out
        loss = F.cross_entropy(out[train_mask], labels[train_mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if epoch % 10 == 0:
            print(f"{name} epoch {epoch} loss {loss.item():.4f}")
    with torch.no_grad():
        h = l1(X)
        h = F.relu(h[0] if isinstance(h, tuple) else h)
        out = l2(h)
        if isinstance(out, tuple):
            out, alpha = out
            print("attention sums per node", torch.zeros(N).index_add(0, dst, alpha))
        pred = out.argmax(1)
        print(name, "pred", pred.tolist(), "acc", (pred == labels).float().mean().item())
