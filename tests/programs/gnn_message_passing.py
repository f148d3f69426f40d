# Models: a from-scratch graph convolutional network tutorial (GCN on a small random graph,
# messages gathered with index_select and summed with index_add_/scatter_add, degree
# normalisation, node classification with a train mask).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
num_nodes, num_feats, num_classes = 30, 8, 3
x = torch.randn(num_nodes, num_feats)
src = torch.randint(0, num_nodes, (90,))
dst = torch.randint(0, num_nodes, (90,))
edge_index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
loops = torch.arange(num_nodes)
edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
y = torch.randint(0, num_classes, (num_nodes,))
train_mask = torch.zeros(num_nodes, dtype=torch.bool)
train_mask[:20] = True

deg = torch.zeros(num_nodes).scatter_add_(0, edge_index[1], torch.ones(edge_index.size(1)))
print("degrees:", deg[:10].tolist())
norm = deg.pow(-0.5)
norm[torch.isinf(norm)] = 0


class GCNLayer(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.lin = nn.Linear(fin, fout, bias=False)
        self.bias = nn.Parameter(torch.zeros(fout))

    def forward(self, h):
        h = self.lin(h)
        row, col = edge_index
        w = norm[row] * norm[col]
        msg = h.index_select(0, row) * w.unsqueeze(-1)
        out = torch.zeros_like(h).index_add_(0, col, msg)
        return out + self.bias


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GCNLayer(num_feats, 16)
        self.conv2 = GCNLayer(16, num_classes)

    def forward(self, h):
        h = F.relu(self.conv1(h))
        h = F.dropout(h, p=0.5, training=self.training)
        return self.conv2(h)


model = GCN()
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(60):
    model.train()
    opt.zero_grad()
    out = model(x)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        model.eval()
        with torch.no_grad():
            pred = model(x).argmax(dim=1)
            acc = (pred[~train_mask] == y[~train_mask]).float().mean()
        print(f"epoch {epoch:3d} loss {loss.item():.4f} test acc {acc.item():.3f}")
model.eval()
with torch.no_grad():
    logits = model(x)
print(logits[:4])
print(torch.bincount(logits.argmax(1), minlength=num_classes))
src_feats = F.relu(model.conv1(x)).index_select(0, edge_index[0])
agg = torch.zeros(num_nodes, 16).scatter_reduce(0, edge_index[1].unsqueeze(1).expand(-1, 16),
                                                 src_feats, reduce="amax", include_self=False)
print(agg.sum().item(), agg.shape)
