# Models: a linear-algebra-for-ML exercise sheet: tensordot with integer and list dims, kron,
# inner/outer/ger, block_diag, chain_matmul / linalg.multi_dot, bilinear forms by einsum,
# cartesian_prod and batched traces, with shapes and values printed.
import torch

a = torch.arange(24.0).reshape(2, 3, 4)
b = torch.arange(12.0).reshape(4, 3)
print("tensordot dims=1", torch.tensordot(a, b, dims=1).shape)
print(torch.tensordot(a, b, dims=([1, 2], [1, 0])))
c = torch.arange(6.0).reshape(3, 2)
print("tensordot dims=0 shape", torch.tensordot(c, c, dims=0).shape)
print("kron\n", torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print("kron ints", torch.kron(torch.tensor([1, 2]), torch.tensor([[1, 10]])))
v, w = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0])
print("outer\n", torch.outer(v, w), "\nger same", torch.equal(torch.ger(v, w), torch.outer(v, w)))
print("inner", torch.inner(v, v), torch.inner(c, torch.ones(2)))
print("block_diag\n", torch.block_diag(torch.ones(2, 2), torch.tensor([[5.0]]), torch.zeros(1, 2)))
mats = [torch.arange(6.0).reshape(2, 3), torch.arange(12.0).reshape(3, 4),
        torch.arange(8.0).reshape(4, 2)]
print("multi_dot\n", torch.linalg.multi_dot(mats))
print("chain_matmul\n", torch.chain_matmul(*mats))
torch.manual_seed(0)
x, y, M = torch.randn(5, 3), torch.randn(5, 4), torch.randn(3, 4)
print("bilinear", torch.einsum("bi,ij,bj->b", x, M, y))
print("check", (x @ M * y).sum(1))
print("cartesian\n", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
batch = torch.arange(18.0).reshape(2, 3, 3)
print("batched trace", batch.diagonal(dim1=-2, dim2=-1).sum(-1))
print("vecdot", torch.linalg.vecdot(x, x)[:3])
print("addr\n", torch.addr(torch.zeros(3, 2), v, w, alpha=2))
xr = torch.randn(3, 4, requires_grad=True)
torch.tensordot(xr, torch.ones(4, 2), dims=1).sum().backward()
print("grad", xr.grad)
try:
    torch.tensordot(a, b, dims=([0], [0]))
except RuntimeError as e:
    print("RuntimeError:", e)
