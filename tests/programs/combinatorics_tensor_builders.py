# Models: a combinatorics and structured-matrix homework set: Kronecker products and block
# diagonals, Cartesian products and combinations for enumerating hands and pairs, triangular
# index lists, unique with counts over rows, scatter/index reductions and n-D histograms.
import torch

torch.manual_seed(0)
A = torch.tensor([[1, 2], [3, 4]])
I2 = torch.eye(2, dtype=torch.long)
print("kron(A, I)\n", torch.kron(A, I2))
print(
    "kron(I, A) shape",
    torch.kron(I2, A).shape,
    "kron 1-d",
    torch.kron(torch.tensor([1, 2]), torch.tensor([1, 10, 100])),
)
print("block_diag\n", torch.block_diag(A, torch.tensor([[5]]), torch.tensor([[6, 7]])))
print("block_diag mixed dtypes", torch.block_diag(torch.ones(1, 1), torch.tensor([[2]])).dtype)

suits = torch.arange(4)
ranks = torch.arange(13)
deck = torch.cartesian_prod(suits, ranks)
print("deck", deck.shape, deck[:3].tolist(), deck[-1].tolist())
pairs = torch.combinations(torch.arange(5), r=2)
print("C(5,2)", pairs.shape[0], pairs[:4].tolist())
print("with replacement", torch.combinations(torch.arange(3), r=2, with_replacement=True).tolist())
print("triples", torch.combinations(torch.arange(4), r=3).tolist())
print("empty combinations", torch.combinations(torch.arange(2), r=3).shape)

hands = torch.stack([deck[torch.randperm(52)[:5]] for _ in range(2000)])
hand_ranks = hands[..., 1]
counts = torch.zeros(2000, 13, dtype=torch.long).scatter_add_(
    1, hand_ranks, torch.ones_like(hand_ranks)
)
max_same = counts.amax(1)
print(
    "P(pair or better) ~",
    (max_same >= 2).float().mean().item(),
    "P(three of a kind+) ~",
    (max_same >= 3).float().mean().item(),
)
flush = (hands[..., 0] == hands[:, :1, 0]).all(1)
print("flushes", flush.sum().item())

r, c = torch.tril_indices(4, 4)
print("tril indices\n", torch.stack([r, c]))
print("triu offset 1", torch.triu_indices(3, 4, offset=1).tolist())
M = torch.arange(16).reshape(4, 4)
print("lower triangle values", M[torch.tril_indices(4, 4, offset=-1).unbind()])

rows = torch.tensor([[1, 2], [3, 4], [1, 2], [5, 6], [3, 4], [1, 2]])
u, inv, cnt = torch.unique(rows, dim=0, return_inverse=True, return_counts=True)
print("unique rows", u.tolist(), "inverse", inv.tolist(), "counts", cnt.tolist())
runs = torch.tensor([1, 1, 2, 2, 2, 3, 1, 1])
print("run lengths", torch.unique_consecutive(runs, return_counts=True))
print("sorted unique", torch.unique(runs, sorted=True, return_counts=True))

src = torch.tensor([5.0, 1.0, 7.0, 3.0, 2.0, 8.0])
index = torch.tensor([0, 1, 0, 1, 2, 0])
for reduce in ("sum", "prod", "mean", "amax", "amin"):
    out = torch.zeros(3).scatter_reduce(0, index, src, reduce=reduce, include_self=False)
    out2 = torch.ones(3).index_reduce(
        0, index, src, reduce if reduce != "sum" else "prod", include_self=True
    )
    print(f"scatter_reduce {reduce}: {out.tolist()} index_reduce: {out2.tolist()}")
print(
    "take_along_dim",
    torch.take_along_dim(M, torch.tensor([[0], [3], [1], [2]]), dim=1).flatten().tolist(),
)
pts = torch.rand(500, 2)
hist, edges = torch.histogramdd(pts, bins=[3, 2], range=[0.0, 1.0, 0.0, 1.0])
print("histogramdd\n", hist, [e.tolist() for e in edges])
h1 = torch.histogram(pts[:, 0], bins=4, range=(0.0, 1.0), density=True)
print("histogram density", h1.hist, h1.bin_edges)
print(
    "bucketize right",
    torch.bucketize(
        torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.0, 0.5, 1.0]), right=True
    ).tolist(),
    "left",
    torch.bucketize(torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.0, 0.5, 1.0])).tolist(),
)
print(
    "vander",
    torch.vander(torch.tensor([1, 2, 3]), N=3),
    torch.vander(torch.tensor([1, 2]), increasing=True),
)
