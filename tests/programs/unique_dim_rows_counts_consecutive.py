# Models: a data-cleaning exercise: duplicate rows with torch.unique(dim=0) and its inverse and
# counts, unique over columns, unique_consecutive along a dim, sorted=False, deduplicating
# (user, item) pairs, and counting occurrences with bincount on the inverse.
import torch

rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 0], [3, 4], [1, 2]])
u, inv, cnt = torch.unique(rows, dim=0, return_inverse=True, return_counts=True)
print(u, inv, cnt, sep="\n")
print("reconstruct", torch.equal(u[inv], rows))
cols = torch.tensor([[1, 1, 0, 1], [2, 2, 5, 2]])
print("unique cols", torch.unique(cols, dim=1, return_counts=True))
seq = torch.tensor([[1, 1], [1, 1], [2, 2], [1, 1], [1, 1], [1, 1]])
print("consecutive rows", torch.unique_consecutive(seq, dim=0, return_counts=True))
print("unsorted", torch.unique(torch.tensor([3, 1, 3, 2]), sorted=False).sort().values)
print("float unique", torch.unique(torch.tensor([0.5, -0.0, 0.0, float("nan"), 0.5])))
pairs = torch.tensor([[0, 5], [1, 3], [0, 5], [2, 2], [1, 3], [1, 4]])
up, pinv = torch.unique(pairs, dim=0, return_inverse=True)
print("dedup pairs", up.tolist())
print("occurrences", torch.bincount(pinv).tolist())
first = torch.full((len(up),), len(pairs)).scatter_reduce(0, pinv, torch.arange(len(pairs)),
                                                          "amin")
print("first occurrence", first.tolist())
print("bool unique", torch.unique(torch.tensor([True, False, True]), return_counts=True))
print("empty", torch.unique(torch.tensor([], dtype=torch.long), return_counts=True))
print("3d dim=1", torch.unique(torch.tensor([[[1], [1]], [[2], [2]]]), dim=1).shape)
