# Models: a graph attention network (GAT) course exercise written without PyG -- an edge list
# with self loops, per-edge attention logits with leaky_relu, a softmax over each node's
# incoming edges via scatter_reduce("amax") / index_add_, multi-head concat and mean, and
# full-batch node classification with a train/val mask.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(7)
num_nodes, num_feats, num_classes = 30, 8, 3
labels = torch.randint(0, num_classes, (num_nodes,))
x = torch.randn(num_nodes, num_feats) + F.one_hot(labels, num_feats).float() * 1.5
src, dst = [], []
for i in range(num_nodes):
    for j in range(num_nodes):
        same = bool(labels[i] == labels[j])
        if i != j and torch.rand(()) < (0.25 if same else 0.03):
            src.append(i)
            dst.append(j)
edge_index = torch.tensor([src, dst])
print(edge_index.shape, edge_index[:, :8])
loops = torch.arange(num_nodes)
edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
deg = torch.bincount(edge_index[1], minlength=num_nodes)
print(deg[:10], deg.float().mean())


def scatter_softmax(e, index, num_nodes):
    # e: [E, H]; softmax over edges that share the same destination
    e_max = torch.full((num_nodes, e.shape[1]), float("-inf")).scatter_reduce(
        0, index.unsqueeze(1).expand_as(e), e, reduce="amax", include_self=True
    )
    e = (e - e_max[index]).exp()
    denom = torch.zeros(num_nodes, e.shape[1]).index_add_(0, index, e)
    return e / denom[index]


class GATLayer(nn.Module):
    def __init__(self, in_dim, out_dim, heads, concat=True, dropout=0.0):
        super().__init__()
        self.heads, self.out_dim, self.concat = heads, out_dim, concat
        self.lin = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.att_src = nn.Parameter(torch.empty(1, heads, out_dim))
        self.att_dst = nn.Parameter(torch.empty(1, heads, out_dim))
        self.bias = nn.Parameter(torch.zeros(heads * out_dim if concat else out_dim))
        self.dropout = dropout
        nn.init.xavier_uniform_(self.lin.weight)
        nn.init.xavier_uniform_(self.att_src)
        nn.init.xavier_uniform_(self.att_dst)

    def forward(self, x, edge_index):
        s, d = edge_index
        h = self.lin(x).view(-1, self.heads, self.out_dim)
        a_s = (h * self.att_src).sum(-1)
        a_d = (h * self.att_dst).sum(-1)
        e = F.leaky_relu(a_s[s] + a_d[d], negative_slope=0.2)
        alpha = scatter_softmax(e, d, x.shape[0])
        self.alpha = alpha
        alpha = F.dropout(alpha, p=self.dropout, training=self.training)
        msg = h[s] * alpha.unsqueeze(-1)
        out = torch.zeros(x.shape[0], self.heads, self.out_dim).index_add_(0, d, msg)
        if self.concat:
            out = out.reshape(-1, self.heads * self.out_dim)
        else:
            out = out.mean(dim=1)
        return out + self.bias

    def extra_repr(self):
        return f"heads={self.heads}, out_dim={self.out_dim}, concat={self.concat}"


class GAT(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GATLayer(num_feats, 4, heads=4, dropout=0.2)
        self.conv2 = GATLayer(16, num_classes, heads=2, concat=False)

    def forward(self, x, edge_index):
        x = F.dropout(x, p=0.2, training=self.training)
        x = F.elu(self.conv1(x, edge_index))
        x = F.dropout(x, p=0.2, training=self.training)
        return self.conv2(x, edge_index)


model = GAT()
print(model)
train_mask = torch.zeros(num_nodes, dtype=torch.bool)
train_mask[torch.randperm(num_nodes)[:12]] = True
val_mask = ~train_mask
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(1, 61):
    model.train()
    optimizer.zero_grad()
    out = model(x, edge_index)
    loss = F.cross_entropy(out[train_mask], labels[train_mask])
    loss.backward()
    optimizer.step()
    if epoch % 20 == 0:
        model.eval()
        with torch.no_grad():
            pred = model(x, edge_index).argmax(dim=1)
        acc = (pred[val_mask] == labels[val_mask]).float().mean()
        print(f"Epoch: {epoch:03d}, Loss: {loss:.4f}, Val Acc: {acc:.4f}")

alpha = model.conv2.alpha
sums = torch.zeros(num_nodes, 2).index_add_(0, edge_index[1], alpha)
print(alpha.shape, torch.allclose(sums, torch.ones_like(sums)))
print(alpha[-3:], model.conv1.att_src.grad.shape)
ref = torch.zeros(num_nodes, 2)
ref = ref.scatter_reduce(
    0, edge_index[1:].T.expand(-1, 2), alpha, reduce="mean", include_self=False
)
print(
    ref[:3],
    torch.zeros(3).scatter_reduce(
        0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 5.0, 2.0]), "prod"
    ),
)
dense = torch.zeros(num_nodes, num_nodes, 2)
dense[edge_index[1], edge_index[0]] = alpha.detach()
print(dense.sum(1)[:3], dense[0].nonzero().shape)
