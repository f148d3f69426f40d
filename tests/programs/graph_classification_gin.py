# Models: graph-level classification in plain PyTorch (what PyG's DataLoader and global pooling
# do under the hood): a mini-batch of graphs stacked block-diagonally with node offsets, a
# batch vector from repeat_interleave, GIN layers (sum aggregation by index_add, learnable eps),
# global add / mean / max pooling by scatter_reduce, a segment softmax attention readout, and
# training on synthetic graphs labelled by whether they contain a triangle.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def random_graph(n, p, gen):
    upper = torch.triu(torch.rand(n, n, generator=gen) < p, diagonal=1)
    src, dst = upper.nonzero(as_tuple=True)
    edges = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], 1)
    adj = (upper | upper.T).float()
    has_triangle = torch.trace(adj @ adj @ adj) > 0
    deg = torch.bincount(edges[0], minlength=n).float()
    x = torch.stack([torch.ones(n), deg / 4], 1)
    return x, edges, int(has_triangle)


gen = torch.Generator().manual_seed(1)
graphs = [random_graph(int(torch.randint(5, 10, (1,), generator=gen)), 0.25, gen)
          for _ in range(96)]
labels = torch.tensor([g[2] for g in graphs])
print("graphs:", len(graphs), "with a triangle:", int(labels.sum()))


def collate(batch):
    xs, edge_list, ys, counts = [], [], [], []
    offset = 0
    for x, e, y in batch:
        xs.append(x)
        edge_list.append(e + offset)
        ys.append(y)
        counts.append(len(x))
        offset += len(x)
    counts = torch.tensor(counts)
    batch_vec = torch.repeat_interleave(torch.arange(len(batch)), counts)
    return torch.cat(xs), torch.cat(edge_list, 1), batch_vec, torch.tensor(ys)


x, edges, batch_vec, y = collate(graphs[:3])
print("collated nodes", x.shape[0], "edges", edges.shape[1], "batch vector", batch_vec)


def global_pool(h, batch_vec, n_graphs, reduce):
    index = batch_vec[:, None].expand_as(h)
    out = torch.zeros(n_graphs, h.shape[1])
    return out.scatter_reduce(0, index, h, reduce=reduce, include_self=False)


def segment_softmax(scores, batch_vec, n_graphs):
    seg_max = torch.full((n_graphs,), float("-inf")).scatter_reduce(
        0, batch_vec, scores, reduce="amax", include_self=True)
    e = torch.exp(scores - seg_max[batch_vec])
    denom = torch.zeros(n_graphs).index_add(0, batch_vec, e)
    return e / denom[batch_vec]


h = torch.arange(12, dtype=torch.float).view(6, 2)
bv = torch.tensor([0, 0, 0, 1, 1, 2])
for reduce in ["sum", "mean", "amax", "amin", "prod"]:
    print(f"{reduce:4s} pool:", global_pool(h, bv, 3, reduce).tolist())
att = segment_softmax(h[:, 0], bv, 3)
print("segment softmax:", att, "sums:", torch.zeros(3).index_add(0, bv, att))


class GINLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(nn.Linear(d_in, d_out), nn.BatchNorm1d(d_out), nn.ReLU(),
                                 nn.Linear(d_out, d_out), nn.ReLU())

    def forward(self, h, edges):
        agg = torch.zeros_like(h).index_add(0, edges[1], h[edges[0]])
        return self.mlp((1 + self.eps) * h + agg)


class GIN(nn.Module):
    def __init__(self, hidden=32, layers=3):
        super().__init__()
        dims = [2] + [hidden] * layers
        self.layers = nn.ModuleList(GINLayer(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.gate = nn.Linear(hidden, 1)
        self.head = nn.Linear(2 + hidden * layers * 2 + hidden, 2)

    def forward(self, x, edges, batch_vec, n_graphs):
        h, readouts = x, [global_pool(x, batch_vec, n_graphs, "sum")]
        for layer in self.layers:
            h = layer(h, edges)
            readouts.append(global_pool(h, batch_vec, n_graphs, "sum"))
            readouts.append(global_pool(h, batch_vec, n_graphs, "amax"))
        att = segment_softmax(self.gate(h).squeeze(1), batch_vec, n_graphs)
        readouts.append(torch.zeros(n_graphs, h.shape[1]).index_add(0, batch_vec, att[:, None] * h))
        return self.head(torch.cat(readouts, 1))


model = GIN()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
train_idx, test_idx = torch.arange(72), torch.arange(72, 96)
for epoch in range(25):
    model.train()
    total = 0.0
    for idx in train_idx[torch.randperm(72)].split(24):
        x, edges, bv, yb = collate([graphs[i] for i in idx])
        loss = F.cross_entropy(model(x, edges, bv, len(idx)), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    if epoch % 5 == 4:
        model.eval()
        with torch.no_grad():
            x, edges, bv, yb = collate([graphs[i] for i in test_idx])
            acc = (model(x, edges, bv, len(test_idx)).argmax(1) == yb).float().mean()
        print(f"epoch {epoch + 1} loss {total / 72:.4f} test acc {acc:.4f} eps "
              f"{[round(layer.eps.item(), 4) for layer in model.layers]}")
