# Models: a tutorial blog post "gather and scatter explained with pictures": gather along each
# dim, scatter / scatter_add / scatter_reduce with every reduce, index_add, index_copy,
# index_fill, put_, one-hot by scatter, and the errors beginners hit.
import torch

src = torch.arange(1, 13, dtype=torch.float32).reshape(3, 4)
print(src)
idx0 = torch.tensor([[0, 1, 2, 0], [2, 0, 1, 1]])
print("gather dim 0\n", torch.gather(src, 0, idx0))
idx1 = torch.tensor([[3, 0], [1, 1], [2, 3]])
print("gather dim 1\n", src.gather(1, idx1))
labels = torch.tensor([2, 0, 3, 1])
print("one-hot by scatter\n", torch.zeros(4, 5).scatter_(1, labels.unsqueeze(1), 1.0))
print("scatter value\n", torch.zeros(3, 5).scatter(1, torch.tensor([[0], [4], [2]]), 7.5))
index = torch.tensor([0, 1, 0, 2, 1, 0])
vals = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
print("scatter_add", torch.zeros(3).scatter_add(0, index, vals))
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        out = torch.ones(4).scatter_reduce(0, index, vals, reduce=reduce, include_self=inc)
        print(f"scatter_reduce {reduce:4s} include_self={inc}", out)
print(
    "scatter reduce='multiply'",
    torch.full((3,), 2.0).scatter(0, index[:3], vals[:3], reduce="multiply"),
)
print("scatter reduce='add'", torch.zeros(3).scatter(0, index, vals, reduce="add"))
t = torch.zeros(5, 3)
print("index_add\n", t.index_add(0, torch.tensor([0, 4, 2, 0]), torch.ones(4, 3), alpha=2))
print("index_copy\n", t.index_copy(0, torch.tensor([4, 1]), torch.tensor([[1.0, 2, 3], [4, 5, 6]])))
print("index_fill\n", src.index_fill(1, torch.tensor([0, 3]), -1.0))
p = torch.zeros(2, 3)
p.put_(torch.tensor([0, 5, 5]), torch.tensor([9.0, 1.0, 2.0]), accumulate=True)
print("put_ accumulate", p)
# grads flow through gather and scatter_add
w = torch.randn(3, 4, generator=torch.Generator().manual_seed(1), requires_grad=True)
g = w.gather(1, idx1)
g.sum().backward()
print("grad of gather\n", w.grad)
v = vals.clone().requires_grad_()
out = torch.zeros(3).scatter_add(0, index, v * v)
out.pow(2).sum().backward()
print("grad through scatter_add", v.grad, out.grad_fn.name())
m = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0], requires_grad=True)
r = torch.zeros(3).scatter_reduce(0, index, m, reduce="amax", include_self=False)
r.sum().backward()
print("amax grad", r, m.grad)
for bad in [
    lambda: src.gather(1, torch.tensor([[4]])),
    lambda: src.gather(1, torch.tensor([0, 1])),
    lambda: src.gather(1, torch.tensor([[0.0]])),
    lambda: torch.zeros(3).scatter_(0, torch.tensor([5]), 1.0),
    lambda: torch.zeros(3).scatter_reduce(0, index, vals, reduce="max"),
]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, ":", str(e).split("\n")[0])
