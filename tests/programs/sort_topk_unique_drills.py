# Models: a tensor exercise set on ordering: sort (stable, descending, with ties and NaNs), argsort,
# topk/kthvalue/mode/median, unique with return_inverse/return_counts/dim, unique_consecutive,
# searchsorted with sorter and side, msort, and using inverse indices to rebuild the input.
import torch

torch.manual_seed(5)
x = torch.tensor([3.0, 1.0, 2.0, 1.0, float("nan"), 3.0, -0.0, 0.0])
v, i = torch.sort(x)
print("sort", v, i)
v, i = torch.sort(x, descending=True, stable=True)
print("sort desc stable", v, i)
print("argsort stable", torch.argsort(torch.tensor([2, 1, 2, 1, 0]), stable=True))
m = torch.randint(0, 5, (3, 6))
print(m)
print("sort dim 0\n", m.sort(dim=0).values)
print("msort == sort(0)", torch.equal(torch.msort(m), m.sort(0).values))
tv, ti = torch.topk(m.float(), 2, dim=1)
print("topk\n", tv, "\n", ti)
print("topk smallest", torch.topk(torch.tensor([5.0, 1.0, 3.0, 1.0]), 2, largest=False))
print("kthvalue", torch.kthvalue(torch.tensor([4.0, 2.0, 8.0, 6.0]), 3))
print("mode", torch.mode(torch.tensor([[1, 2, 2, 3, 3], [4, 4, 1, 1, 0]]), 1))
print(
    "median even length",
    torch.median(torch.tensor([1.0, 4.0, 2.0, 3.0])),
    torch.tensor([1.0, 4.0, 2.0, 3.0]).quantile(0.5),
)
print("nanmedian", torch.nanmedian(x), torch.median(x))
u = torch.tensor([2, 7, 2, 1, 7, 7, 3])
out, inv, cnt = torch.unique(u, return_inverse=True, return_counts=True)
print("unique", out, inv, cnt)
print("rebuild", torch.equal(out[inv], u))
print("unique unsorted", torch.unique(u, sorted=False).sort().values)
rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
print("unique rows", torch.unique(rows, dim=0, return_inverse=True, return_counts=True))
print("unique cols", torch.unique(torch.tensor([[1, 1, 2], [3, 3, 4]]), dim=1))
print(
    "unique_consecutive",
    torch.unique_consecutive(
        torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_inverse=True, return_counts=True
    ),
)
print(
    "unique bool/float",
    torch.unique(torch.tensor([True, False, True])),
    torch.unique(torch.tensor([0.5, -0.0, 0.0, 0.5])),
)
edges = torch.tensor([0.0, 1.0, 2.0, 2.0, 5.0])
q = torch.tensor([-1.0, 0.0, 2.0, 3.0, 9.0])
print(
    "searchsorted left",
    torch.searchsorted(edges, q),
    "right",
    torch.searchsorted(edges, q, right=True),
    "side",
    torch.searchsorted(edges, q, side="right"),
)
unsorted = torch.tensor([5.0, 0.0, 2.0, 1.0])
print("sorter", torch.searchsorted(unsorted, torch.tensor([1.5, 4.0]), sorter=unsorted.argsort()))
print(
    "batched searchsorted",
    torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3], [3]])),
)
print("bucketize int out", torch.bucketize(q, edges, out_int32=True))
counts = torch.bincount(torch.tensor([0, 1, 1, 3, 3, 3]), minlength=6)
print(
    "bincount",
    counts,
    torch.bincount(torch.tensor([0, 2, 2]), weights=torch.tensor([0.5, 1.0, 2.0])),
)
print("histc", torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0, 2.5]), bins=4, min=0, max=4))
scores = torch.randn(8)
ranks = torch.empty_like(scores, dtype=torch.long)
ranks[scores.argsort(descending=True)] = torch.arange(8)
print("ranks", ranks, scores.argsort().argsort())
print("sort grad:")
w = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
s, _ = w.sort()
(s * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(s.grad_fn.name(), w.grad)
w.grad = None
torch.topk(w, 1).values.sum().backward()
print("topk grad", w.grad)
try:
    torch.topk(torch.tensor([1.0, 2.0]), 3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.kthvalue(torch.tensor([1.0, 2.0]), 0)
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
