# Models: GNN code on sparse adjacency in CSR and COO layouts: to_sparse_csr / crow_indices /
# col_indices / values, torch.sparse.mm and sparse @ dense products, degree normalisation via
# torch.sparse.sum, sparse_coo_tensor coalescing of duplicate edges, torch.sparse.softmax over
# edges, index_add_ message passing, and printing of sparse tensors.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
N = 6
edges = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 0, 2, 2],
                      [1, 0, 2, 1, 4, 3, 0, 5, 3, 3]])
w = torch.ones(edges.shape[1])
A = torch.sparse_coo_tensor(edges, w, (N, N))
print(A.is_coalesced(), A._nnz())
A = A.coalesce()
print(A)
print(A.indices(), A.values())
deg = torch.sparse.sum(A, dim=1).to_dense()
print("degree:", deg)
eye = torch.sparse_coo_tensor(torch.arange(N).repeat(2, 1), torch.ones(N), (N, N))
A_hat = (A + eye).coalesce()
d = torch.sparse.sum(A_hat, dim=1).to_dense().pow(-0.5)
vals = d[A_hat.indices()[0]] * A_hat.values() * d[A_hat.indices()[1]]
A_norm = torch.sparse_coo_tensor(A_hat.indices(), vals, (N, N))
csr = A_norm.to_sparse_csr()
print(csr.layout, csr.crow_indices(), csr.col_indices())
print(csr.values())
X = torch.randn(N, 4)
print(torch.allclose(torch.sparse.mm(A_norm, X), csr @ X, atol=1e-6),
      torch.allclose(csr @ X, A_norm.to_dense() @ X, atol=1e-6))


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out, bias=False)
        self.bias = nn.Parameter(torch.zeros(d_out))

    def forward(self, x, adj):
        return torch.sparse.mm(adj, self.lin(x)) + self.bias


class EdgeAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.att = nn.Linear(2 * d, 1, bias=False)

    def forward(self, x, index):
        src, dst = index
        e = F.leaky_relu(self.att(torch.cat([x[dst], x[src]], dim=1)).squeeze(-1), 0.2)
        S = torch.sparse_coo_tensor(torch.stack([dst, src]), e, (x.shape[0], x.shape[0]))
        alpha = torch.sparse.softmax(S, dim=1).coalesce()
        out = torch.zeros_like(x)
        i, j = alpha.indices()
        out.index_add_(0, i, alpha.values().unsqueeze(1) * x[j])
        return out, alpha


y = torch.tensor([0, 0, 1, 1, 1, 0])
gcn1, gcn2 = GCNLayer(4, 8), GCNLayer(8, 2)
att = EdgeAttention(8)
opt = torch.optim.Adam([*gcn1.parameters(), *gcn2.parameters(), *att.parameters()], lr=0.05)
ei = A.indices()
for step in range(30):
    opt.zero_grad()
    h = F.relu(gcn1(X, A_norm))
    h, alpha = att(h, ei)
    out = gcn2(h, A_norm)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step}: loss {loss.item():.6f}")
print(alpha.values())
print(out.argmax(1).tolist(), gcn1.lin.weight.grad.abs().sum().item() > 0)
B = torch.tensor([[0.0, 2.0, 0.0], [3.0, 0.0, 4.0]])
print(B.to_sparse())
print(B.to_sparse_csr())
print(B.to_sparse(layout=torch.sparse_coo).to_dense().equal(B))
print(torch.sparse_csr_tensor(torch.tensor([0, 1, 3]), torch.tensor([1, 0, 2]),
                              torch.tensor([2.0, 3.0, 4.0]), (2, 3)).to_dense())
