# Models: a data-preprocessing exercise set: sort with stable ties, argsort descending,
# searchsorted left/right with a sorter, bucketize into bins, histogram counts by bucketize,
# kthvalue, msort, unique_consecutive with counts, and topk on ties.
import torch

x = torch.tensor([3, 1, 2, 3, 1, 3, 0, 2])
v, i = torch.sort(x, stable=True)
print("stable sort", v, i)
v, i = torch.sort(x, descending=True, stable=True)
print("stable desc", v, i)
print("argsort", torch.argsort(x, stable=True), torch.argsort(x, descending=True, stable=True))
edges = torch.tensor([0.0, 1.0, 2.5, 4.0])
vals = torch.tensor([-1.0, 0.0, 1.0, 2.0, 2.5, 3.9, 4.0, 7.0])
print("searchsorted left", torch.searchsorted(edges, vals))
print("searchsorted right", torch.searchsorted(edges, vals, right=True))
print("side", torch.searchsorted(edges, vals, side="right"))
unsorted = torch.tensor([4.0, 0.0, 2.5, 1.0])
sorter = torch.argsort(unsorted)
print("with sorter", torch.searchsorted(unsorted, vals, sorter=sorter))
print("bucketize", torch.bucketize(vals, edges), torch.bucketize(vals, edges, right=True))
print("bucketize int32", torch.bucketize(vals, edges, out_int32=True).dtype)
b = torch.bucketize(vals, edges)
print("counts", torch.bincount(b, minlength=5))
batched = torch.tensor([[0.0, 1.0, 2.0], [10.0, 20.0, 30.0]])
print("batched", torch.searchsorted(batched, torch.tensor([[1.5, 0.0], [25.0, 40.0]])))
print("kthvalue", torch.kthvalue(torch.tensor([5.0, 1.0, 4.0, 1.0, 3.0]), 2))
m = torch.tensor([[3.0, 1.0], [0.0, 2.0], [1.0, -1.0]])
print("msort\n", torch.msort(m))
print("unique_consecutive", torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 1, 3, 3]),
                                                     return_inverse=True, return_counts=True))
print("topk ties", torch.topk(torch.tensor([1.0, 3.0, 3.0, 2.0, 3.0]), 2))
print("sort nan", torch.sort(torch.tensor([2.0, float("nan"), -1.0, float("nan")])))
print("sort bool", torch.sort(torch.tensor([True, False, True])))
try:
    torch.searchsorted(torch.tensor([[1.0, 2.0]]), torch.tensor([1.0, 2.0, 3.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.bucketize(vals, edges.reshape(2, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
