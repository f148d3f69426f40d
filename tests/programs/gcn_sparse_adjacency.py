# Models: tkipf/pygcn (Kipf & Welling's graph convolutional network) -- a symmetric normalised
# sparse adjacency D^-1/2 (A + I) D^-1/2 as a torch sparse COO tensor, GraphConvolution layers
# computing adj @ (x @ W) with torch.spmm, dropout, log_softmax + nll_loss, Adam with weight
# decay, on a synthetic two-community graph; then learned edge weights through
# torch.sparse.mm (gradients reaching a sparse tensor's values), torch.sparse.sum, coalesce,
# and a save/load round trip of the adjacency.
import io
import math
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

warnings.filterwarnings("ignore", message="Sparse invariant checks")
torch.manual_seed(42)
rng = np.random.RandomState(42)

# ----- a graph: two communities of 60 nodes, dense inside, sparse across
n_nodes, n_feat, n_class = 120, 24, 2
labels_np = np.repeat(np.arange(n_class), n_nodes // n_class)
edges = set()
for i in range(n_nodes):
    for j in range(i + 1, n_nodes):
        p = 0.08 if labels_np[i] == labels_np[j] else 0.01
        if rng.rand() < p:
            edges.add((i, j))
edges = np.array(sorted(edges), dtype=np.int64).T
row = np.concatenate([edges[0], edges[1], np.arange(n_nodes)])
col = np.concatenate([edges[1], edges[0], np.arange(n_nodes)])
features = rng.randn(n_nodes, n_feat).astype(np.float32)
features[:, :4] += labels_np[:, None] * 0.6          # a weak signal in a few features
print("nodes", n_nodes, "edges", edges.shape[1], "nnz with self loops", row.size)


def normalize_adj(indices, values, n):
    """D^-1/2 A D^-1/2 of a sparse adjacency."""
    adj = torch.sparse_coo_tensor(indices, values, (n, n))
    deg = torch.sparse.sum(adj, dim=1).to_dense()
    d_inv_sqrt = deg.pow(-0.5)
    d_inv_sqrt[torch.isinf(d_inv_sqrt)] = 0.0
    i, j = indices
    return torch.sparse_coo_tensor(indices, d_inv_sqrt[i] * values * d_inv_sqrt[j], (n, n))


indices = torch.from_numpy(np.stack([row, col]))
adj = normalize_adj(indices, torch.ones(row.size), n_nodes).coalesce()
print("adj:", adj.layout, adj.is_sparse, adj.is_coalesced(), adj.sparse_dim(), adj.dense_dim(),
      adj._nnz(), tuple(adj.shape))
print("first row of adj:", adj.to_dense()[0, :12])
print(adj.indices()[:, :6], adj.values()[:6])

features = torch.from_numpy(features)
labels = torch.from_numpy(labels_np)
perm = torch.randperm(n_nodes)
idx_train, idx_val, idx_test = perm[:40], perm[40:70], perm[70:]


class GraphConvolution(nn.Module):
    """Simple GCN layer, similar to https://arxiv.org/abs/1609.02907"""

    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = nn.Parameter(torch.FloatTensor(in_features, out_features))
        if bias:
            self.bias = nn.Parameter(torch.FloatTensor(out_features))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-stdv, stdv)
        if self.bias is not None:
            self.bias.data.uniform_(-stdv, stdv)

    def forward(self, input, adj):
        support = torch.mm(input, self.weight)
        output = torch.spmm(adj, support)
        if self.bias is not None:
            return output + self.bias
        return output

    def __repr__(self):
        return f"{self.__class__.__name__} ({self.in_features} -> {self.out_features})"


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout):
        super().__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        x = self.gc2(x, adj)
        return F.log_softmax(x, dim=1)


def accuracy(output, labels):
    preds = output.max(1)[1].type_as(labels)
    correct = preds.eq(labels).double()
    return correct.sum() / len(labels)


model = GCN(nfeat=n_feat, nhid=16, nclass=n_class, dropout=0.5)
print(model)
optimizer = optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)

for epoch in range(60):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    acc_train = accuracy(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()
    if epoch % 10 == 0 or epoch == 59:
        model.eval()
        output = model(features, adj)
        loss_val = F.nll_loss(output[idx_val], labels[idx_val])
        acc_val = accuracy(output[idx_val], labels[idx_val])
        print(f"Epoch: {epoch + 1:04d} loss_train: {loss_train.item():.4f} "
              f"acc_train: {acc_train.item():.4f} loss_val: {loss_val.item():.4f} "
              f"acc_val: {acc_val.item():.4f}")

model.eval()
output = model(features, adj)
loss_test = F.nll_loss(output[idx_test], labels[idx_test])
print(f"Test set results: loss= {loss_test.item():.4f} "
      f"accuracy= {accuracy(output[idx_test], labels[idx_test]).item():.4f}")

# ----- learned edge weights: gradients reach the sparse tensor's values
edge_logits = torch.zeros(row.size, requires_grad=True)
lin = nn.Linear(n_feat, n_class)
opt2 = optim.SGD([edge_logits, *lin.parameters()], lr=0.5)
for step in range(20):
    opt2.zero_grad()
    w = torch.sigmoid(edge_logits)
    a = torch.sparse_coo_tensor(indices, w, (n_nodes, n_nodes))
    print_grad_fn = step == 0
    h = torch.sparse.mm(a, features)
    if print_grad_fn:
        print("grad_fn:", type(a.grad_fn).__name__, type(h.grad_fn).__name__)
    logits = lin(h / torch.sparse.sum(a, dim=1).to_dense().unsqueeze(1))
    loss = F.cross_entropy(logits[idx_train], labels[idx_train])
    loss.backward()
    opt2.step()
    if step % 5 == 0 or step == 19:
        print(f"step {step:2d} loss {loss.item():.5f} edge grad norm "
              f"{edge_logits.grad.norm().item():.6f}")
print("edge weights:", torch.sigmoid(edge_logits)[:8])

# ----- sparse arithmetic and a save/load round trip
two_hop = torch.sparse.mm(adj, adj.to_dense())
print("two-hop mass:", two_hop.sum().item(), "row 0:", two_hop[0, :6])
sym = (adj + adj.t()) * 0.5
print("symmetric part equals adj:", torch.equal(sym.to_dense(), adj.to_dense()),
      sym.is_coalesced())
buf = io.BytesIO()
torch.save({"adj": adj, "features": features[:2]}, buf)
buf.seek(0)
state = torch.load(buf)
print("reloaded:", state["adj"].layout, state["adj"]._nnz(),
      torch.equal(state["adj"].to_dense(), adj.to_dense()))
leaf = torch.sparse_coo_tensor(indices[:, :5], torch.ones(5), (n_nodes, n_nodes),
                               requires_grad=True)
torch.sparse.mm(leaf, features).sum().backward()
print(leaf.grad)
