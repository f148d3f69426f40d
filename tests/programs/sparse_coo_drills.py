# Models: a sparse tensors exercise set: building COO tensors (with duplicates), coalesce,
# indices/values/nnz, to_dense/to_sparse round trips, sparse + sparse, sparse * scalar,
# torch.sparse.mm and sparse @ dense, torch.sparse.sum over dims, transpose, gradients flowing to
# a dense matrix through sparse.mm, and a sparse adjacency power iteration.
import torch

torch.manual_seed(60)
i = torch.tensor([[0, 1, 1, 2, 0], [2, 0, 0, 1, 2]])
v = torch.tensor([3.0, 4.0, 1.0, 5.0, -1.0])
s = torch.sparse_coo_tensor(i, v, (3, 3))
print("is_coalesced", s.is_coalesced(), "nnz", s._nnz())
c = s.coalesce()
print("coalesced indices", c.indices(), "values", c.values())
print("dense\n", s.to_dense())
d = torch.tensor([[0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [7.0, 0.0, 1.0]])
sd = d.to_sparse()
print("to_sparse", sd.indices(), sd.values(), sd.layout, sd.sparse_dim(), sd.dense_dim())
print("sum of sparse", (s + sd).to_dense())
print("scalar mul", (c * 2).to_dense()[1])
m = torch.randn(3, 2)
print("sparse.mm", torch.sparse.mm(c, m))
print("sparse @ dense == dense @ dense", torch.allclose(c @ m, c.to_dense() @ m))
print("sparse.sum all", torch.sparse.sum(c), "dim 0", torch.sparse.sum(c, dim=0).to_dense())
print("transpose", c.t().coalesce().indices())
print("shape/dtype", c.shape, c.dtype, c.is_sparse, c.to_dense().is_sparse)
W = torch.randn(3, 2, requires_grad=True)
out = torch.sparse.mm(c, W)
out.sum().backward()
print("grad to dense W\n", W.grad)
print("expected", c.to_dense().sum(0))
n = 6
src = torch.tensor([0, 1, 2, 3, 4, 5, 0, 2])
dst = torch.tensor([1, 2, 3, 4, 5, 0, 3, 5])
A = torch.sparse_coo_tensor(torch.stack([dst, src]), torch.ones(8), (n, n)).coalesce()
deg = torch.sparse.sum(A, dim=0).to_dense()
P = torch.sparse_coo_tensor(A.indices(), A.values() / deg[A.indices()[1]], (n, n))
r = torch.full((n,), 1.0 / n)
for it in range(50):
    r = 0.15 / n + 0.85 * torch.sparse.mm(P, r.unsqueeze(1)).squeeze(1)
print("pagerank", r.numpy().round(5).tolist(), "sum", round(r.sum().item(), 6))
print(
    "values of uncoalesced after coalesce are summed",
    s.coalesce().values().sum().item() == v.sum().item(),
)
try:
    torch.sparse_coo_tensor(torch.tensor([[0, 5]]), torch.tensor([1.0, 2.0]), (3,))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
try:
    s.indices()
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
