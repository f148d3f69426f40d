# Models: a "broadcasting puzzles" worksheet (Sasha Rush's tensor puzzles and einsum-is-all-you-
# need blog): outer products, batched matmul, traces, bilinear forms, broadcasting shape rules
# and their error messages, each checked against an einsum.
import torch

torch.manual_seed(3)
a, b = torch.arange(3.0), torch.arange(4.0)
print("outer broadcast\n", a[:, None] * b[None, :])
print("outer einsum == broadcast", torch.equal(torch.einsum("i,j->ij", a, b), a[:, None] * b))
shapes = [((5, 1, 4), (3, 1)), ((2, 3), (3,)), ((1,), (7, 1, 1)), ((4, 1, 2), (1, 3, 1))]
for s1, s2 in shapes:
    print(
        s1,
        "+",
        s2,
        "->",
        tuple(torch.broadcast_shapes(s1, s2)),
        tuple((torch.zeros(s1) + torch.zeros(s2)).shape),
    )
try:
    torch.zeros(2, 3) + torch.zeros(3, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.broadcast_shapes((2, 3), (4,))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(3).expand(2, 4)
except RuntimeError as e:
    print("RuntimeError:", e)
A = torch.randn(2, 3, 4)
B = torch.randn(2, 4, 5)
print("bmm == einsum", torch.allclose(torch.einsum("bij,bjk->bik", A, B), A @ B, atol=1e-6))
M = torch.randn(4, 4)
print("trace", torch.einsum("ii", M).item() == M.trace().item())
print("diag", torch.einsum("ii->i", M).tolist() == M.diag().tolist())
print("transpose", torch.equal(torch.einsum("ij->ji", M), M.t()))
x, y = torch.randn(4), torch.randn(4)
print(
    "bilinear x^T M y",
    round(torch.einsum("i,ij,j->", x, M, y).item(), 4),
    round((x @ M @ y).item(), 4),
)
print("sum of all", torch.einsum("ijk->", A).item() - A.sum().item() < 1e-5)
print("batch outer", torch.einsum("bi,bj->bij", A[:, 0], A[:, 1]).shape)
print("ellipsis", torch.einsum("...ij,...jk->...ik", A, B).shape)
print("repeated output error:")
try:
    torch.einsum("ij->ii", M)
except RuntimeError as e:
    print(" ", e)
try:
    torch.einsum("ij,jk->ik", M, torch.randn(3, 2))
except RuntimeError as e:
    print(" ", e)


# puzzle solutions with broadcasting only
def ones(i):
    return torch.where(torch.arange(i) > -1, 1, 0)


def arange_sum(n):
    return (torch.arange(n)[:, None] >= torch.arange(n)).long() @ torch.arange(n)


def eye(j):
    return (torch.arange(j)[:, None] == torch.arange(j)).long()


def triu(j):
    return (torch.arange(j)[:, None] <= torch.arange(j)).long()


def diff(a):
    return a - torch.cat([a[:1] * 0, a[:-1]])


def vstack(a, b):
    return torch.where(torch.arange(2)[:, None] == 0, a, b)


def roll(a):
    n = a.shape[0]
    return a[(torch.arange(n) + 1) % n]


def flip(a):
    n = a.shape[0]
    return a[n - 1 - torch.arange(n)]


def compress(g, v, n):
    return (
        v @ (torch.where(g, torch.cumsum(g.long(), 0) - 1, -1)[:, None] == torch.arange(n)).long()
    )


def bucketize(v, boundaries):
    return (v[:, None] >= boundaries).sum(1)


print("ones", ones(4))
print("cumsum by matmul", arange_sum(5))
print("eye\n", eye(3))
print("triu\n", triu(3))
print("diff", diff(torch.tensor([1, 4, 9, 16])))
print("vstack\n", vstack(torch.tensor([1, 2]), torch.tensor([3, 4])))
print("roll", roll(torch.arange(5)), "flip", flip(torch.arange(5)))
print("compress", compress(torch.tensor([True, False, True, True]), torch.tensor([5, 6, 7, 8]), 4))
print(
    "bucketize",
    bucketize(torch.tensor([2, 5, 9, 1]), torch.tensor([1, 3, 7])),
    torch.bucketize(torch.tensor([2, 5, 9, 1]), torch.tensor([1, 3, 7]), right=True),
)
