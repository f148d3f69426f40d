# Models: a "100 tensor exercises" notebook: indexing, scatter/gather, unique, set-like ops,
# distances, combinatorics, and shape tricks.
import torch

torch.manual_seed(5)
a = torch.randint(0, 5, (4, 6))
print(a)
print(torch.unique(a), torch.unique(a, sorted=True, return_inverse=True, return_counts=True))
print(
    torch.unique(a, dim=0),
    torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True),
)
src = torch.arange(1.0, 7.0)
idx = torch.tensor([0, 1, 0, 1, 2, 1])
print(
    torch.zeros(3).scatter_reduce(0, idx, src, reduce="sum"),
    torch.zeros(3).scatter_reduce(0, idx, src, reduce="amax", include_self=False),
)
print(
    torch.zeros(3).scatter_reduce(0, idx, src, reduce="mean"),
    torch.ones(3).scatter_reduce(0, idx, src, reduce="prod"),
)
t = torch.zeros(5)
t.index_put_((torch.tensor([0, 2, 0]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(t, torch.zeros(2, 3).index_add_(1, torch.tensor([0, 2, 0]), torch.ones(2, 3)))
x = torch.randn(5, 3)
y = torch.randn(4, 3)
print(torch.cdist(x, y), torch.cdist(x, y, p=1).sum(), torch.pdist(x))
print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, offset=1))
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print(gx, gy)
print(
    torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])),
    torch.combinations(torch.arange(4), r=2),
)
print(
    torch.block_diag(torch.ones(2, 2), torch.eye(1) * 3),
    torch.kron(torch.eye(2), torch.tensor([[1, 2], [3, 4]])),
)
print(torch.diff(torch.tensor([1, 4, 9, 16])), torch.diff(x, dim=0, n=2).shape)
print(torch.roll(a, shifts=(1, -2), dims=(0, 1)), torch.rot90(a, 1, [0, 1]))
print(torch.nonzero(a > 3, as_tuple=True), torch.masked_select(a, a > 3), torch.argwhere(a == 0))
print(torch.take_along_dim(x, x.argsort(dim=1), dim=1), torch.take(a, torch.tensor([0, 5, 23])))
print(
    torch.einsum("ij,kj->ik", x, y),
    torch.einsum("ii->i", torch.arange(9.0).view(3, 3)),
    torch.einsum("bij,bjk->bik", torch.ones(2, 2, 3), torch.ones(2, 3, 1)).squeeze(-1),
)
print(torch.isin(a, torch.tensor([1, 3])), torch.bincount(a.flatten(), minlength=6))
print(torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([[0, 3], [6, 9]]), side="right"))
print(
    torch.tensor_split(torch.arange(10), 3),
    torch.chunk(torch.arange(10), 4),
    torch.split(torch.arange(7), [2, 5]),
)
print(
    torch.stack([x[:, 0], x[:, 1]], dim=1).shape,
    torch.hstack([x, x]).shape,
    torch.dstack([x, x]).shape,
    torch.column_stack([x[:, 0], x[:, 1]]).shape,
)
print(
    x.unfold(0, 2, 1).shape,
    torch.atleast_2d(torch.tensor(1.0)),
    torch.flatten(torch.ones(2, 3, 4), 1).shape,
)
print(
    torch.cummax(torch.tensor([1, 3, 2, 5, 4]), 0),
    torch.logcumsumexp(torch.tensor([0.0, 1.0, 2.0]), 0),
)
print(torch.clamp(x, min=torch.tensor([-0.5, 0.0, 0.5])), torch.where(x > 0, x, torch.zeros(())))
print(torch.corrcoef(x.T), torch.cov(x.T, correction=0))
print(torch.renorm(x, 2, 0, 1.0).norm(dim=1), torch.nn.functional.normalize(x, dim=0).norm(dim=0))
print(
    torch.vander(torch.tensor([1, 2, 3]), N=3),
    torch.trapezoid(torch.tensor([1.0, 4.0, 9.0])),
    torch.cumulative_trapezoid(torch.tensor([1.0, 4.0, 9.0])),
)
print(a.float().quantile(torch.tensor([0.25, 0.5]), dim=1), a.float().nanmedian(), a.mode(1))
