# Models: the masking section of an attention tutorial: triu/tril with diagonal offsets,
# triu_indices/tril_indices for pairwise features, causal masks as bool and as additive -inf,
# sliding-window (banded) masks, diag_embed / diagonal with offsets, and masked softmax rows.
import torch

n = 5
print("tril\n", torch.tril(torch.ones(n, n)))
print("triu k=1\n", torch.ones(n, n).triu(1))
print("tril k=-1\n", torch.ones(n, n).tril(-1))
print("triu_indices", torch.triu_indices(4, 4, 1))
print("tril_indices offset", torch.tril_indices(3, 4, offset=1))
x = torch.arange(4.0)
pairs = torch.triu_indices(4, 4, 1)
print("pairwise products", x[pairs[0]] * x[pairs[1]])
causal = torch.ones(n, n, dtype=torch.bool).tril()
additive = torch.zeros(n, n).masked_fill(~causal, float("-inf"))
print("additive\n", additive)
window = 2
band = causal & ~torch.ones(n, n, dtype=torch.bool).tril(-window)
print("banded\n", band.int())
torch.manual_seed(0)
scores = torch.randn(n, n)
print("masked softmax\n", (scores + additive).softmax(-1))
print("band softmax row 4", scores[4].masked_fill(~band[4], float("-inf")).softmax(-1))
print("diag_embed\n", torch.diag_embed(torch.tensor([1.0, 2.0]), offset=1))
m = torch.arange(16.0).reshape(4, 4)
print("diagonal +1", m.diagonal(1), "-2", m.diagonal(-2), "diag", torch.diag(m, -1))
print("batched tril", torch.tril(torch.ones(2, 3, 3))[1])
print("mask sums", causal.sum(1), band.sum(1))
y = torch.ones(3, 3, requires_grad=True)
y.triu().sum().backward()
print("triu grad\n", y.grad)
