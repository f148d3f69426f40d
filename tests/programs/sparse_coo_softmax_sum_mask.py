# Models: a graph-attention preprocessing snippet on sparse COO tensors: torch.sparse.softmax
# and log_softmax over rows (only stored entries), torch.sparse.sum over dims, sparse_mask
# of a dense tensor, to_dense of the results, and the gradient of the sparse softmax values.
import torch

i = torch.tensor([[0, 0, 1, 2, 2, 2], [0, 2, 1, 0, 1, 2]])
v = torch.tensor([1.0, 2.0, 3.0, -1.0, 0.0, 1.0])
s = torch.sparse_coo_tensor(i, v, (3, 3)).coalesce()
sm = torch.sparse.softmax(s, dim=1)
print("softmax values", sm.coalesce().values())
print(sm.to_dense())
lsm = torch.sparse.log_softmax(s, dim=1)
print("log_softmax", lsm.coalesce().values())
print("sum dim 0", torch.sparse.sum(s, dim=0))
print("sum dim 1 dense", torch.sparse.sum(s, dim=1).to_dense())
print("sum all", torch.sparse.sum(s))
dense = torch.arange(9.0).reshape(3, 3)
masked = dense.sparse_mask(s)
print("sparse_mask", masked.coalesce().values(), masked.coalesce().indices())
sv = torch.sparse_coo_tensor(i, v, (3, 3)).coalesce().requires_grad_()
out = torch.sparse.softmax(sv, dim=1)
(out.coalesce().values() * torch.arange(6.0)).sum().backward()
print("grad values", sv.grad.coalesce().values())
print("sparse mm", torch.sparse.mm(s, torch.ones(3, 2)))
print("addmm", torch.sparse.addmm(torch.ones(3, 2), s, torch.ones(3, 2), beta=0.5, alpha=2.0))
print("transpose", s.t().coalesce().indices())
