# Models: a tensor-manipulation exercise sheet (the "100 PyTorch exercises" / numpy-100 ports):
# sliding windows with unfold and as_strided, kthvalue/mode/median, unique with inverse and
# counts (also along a dim), bucketize/searchsorted with right= and sorter=, histc and
# histogram, cummax/cummin/logcumsumexp, diff with prepend, scatter_reduce with include_self,
# index_reduce, take_along_dim, the *_scatter ops, tensor_split by indices, combinations,
# cartesian_prod, block_diag, kron, vander, trapezoid, aminmax, and a few error messages.
import torch

torch.manual_seed(0)
x = torch.arange(10.0)
print("unfold windows:\n", x.unfold(0, 4, 3))
print("as_strided windows:\n", x.as_strided((4, 3), (2, 1)))
m = torch.arange(16).view(4, 4)
print("2x2 blocks:", m.unfold(0, 2, 2).unfold(1, 2, 2).reshape(-1, 4).tolist())
print(
    "as_strided diagonal:",
    m.as_strided((4,), (5,)),
    "storage offset:",
    m[1:].as_strided((2,), (5,), 1).tolist(),
)

v = torch.tensor([4.0, 1.0, 3.0, 1.0, 5.0, 3.0, 3.0, 2.0])
print("kthvalue(3):", torch.kthvalue(v, 3))
print("mode:", torch.mode(v), "median:", v.median(), torch.median(v.view(2, 4), dim=1))
print("nanmedian:", torch.nanmedian(torch.tensor([1.0, float("nan"), 3.0, 2.0])))
u, inv, cnt = torch.unique(v, return_inverse=True, return_counts=True)
print("unique:", u, inv, cnt)
print("reconstructed:", torch.equal(u[inv], v))
rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
print("unique rows:", torch.unique(rows, dim=0, return_counts=True))
print(
    "unique_consecutive:",
    torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 1, 3, 3]), return_counts=True),
)

edges = torch.tensor([0.0, 1.0, 2.5, 4.0])
vals = torch.tensor([-1.0, 0.0, 1.0, 2.0, 2.5, 5.0])
print("bucketize:", torch.bucketize(vals, edges), torch.bucketize(vals, edges, right=True))
print(
    "searchsorted:", torch.searchsorted(edges, vals), torch.searchsorted(edges, vals, side="right")
)
unsorted = torch.tensor([3.0, 1.0, 2.0])
sorter = torch.argsort(unsorted)
print(
    "searchsorted with sorter:",
    torch.searchsorted(unsorted, torch.tensor([1.5, 2.5]), sorter=sorter),
)
print("searchsorted int32 out:", torch.searchsorted(edges, vals, out_int32=True).dtype)
data = torch.randn(200)
print("histc:", torch.histc(data, bins=6, min=-3, max=3))
hist = torch.histogram(data, bins=4, range=(-2.0, 2.0))
print("histogram:", hist.hist, hist.bin_edges)
print(
    "histogram density sum*width:",
    (
        torch.histogram(data, bins=5, density=True).hist
        * torch.histogram(data, bins=5).bin_edges.diff()
    ).sum(),
)

w = torch.tensor([1.0, 3.0, 2.0, 5.0, 4.0])
print("cummax:", torch.cummax(w, 0))
print("cummin:", torch.cummin(w, 0).values, "cumprod:", w.cumprod(0))
print("logcumsumexp:", torch.logcumsumexp(w, 0))
print(
    "diff:",
    torch.diff(w),
    torch.diff(w, n=2),
    torch.diff(w, prepend=torch.tensor([0.0]), append=torch.tensor([9.0])),
)

src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
index = torch.tensor([0, 1, 0, 1, 2, 1])
base = torch.tensor([10.0, 20.0, 30.0, 40.0])
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    a = base.scatter_reduce(0, index, src, reduce=reduce)
    b = base.scatter_reduce(0, index, src, reduce=reduce, include_self=False)
    print(f"scatter_reduce {reduce:5s}: {a.tolist()} {b.tolist()}")
ir = torch.ones(3, 2).index_reduce(
    0, torch.tensor([0, 2, 0]), torch.tensor([[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]), "prod"
)
print("index_reduce prod:", ir.tolist())
scores = torch.randn(3, 5)
top = scores.argsort(dim=1, descending=True)[:, :2]
print("take_along_dim:", torch.take_along_dim(scores, top, dim=1))
z = torch.zeros(3, 3)
print("diagonal_scatter:", torch.diagonal_scatter(z, torch.ones(2), 1).tolist())
print("select_scatter:", torch.select_scatter(z, torch.arange(3.0), 0, 1).tolist())
print("slice_scatter:", torch.slice_scatter(z, torch.ones(3, 1), 1, 2, 3).tolist())
print("tensor_split:", [t.tolist() for t in torch.arange(7).tensor_split([2, 5])])
print("tensor_split sections:", [t.tolist() for t in torch.arange(7).tensor_split(3)])
print("combinations:", torch.combinations(torch.tensor([1, 2, 3]), r=2).tolist())
print("with replacement:", torch.combinations(torch.tensor([1, 2]), with_replacement=True).tolist())
print("cartesian_prod:", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])).tolist())
print("block_diag:\n", torch.block_diag(torch.ones(2, 2), torch.tensor([[5]]), torch.eye(2)))
print("kron:\n", torch.kron(torch.eye(2), torch.tensor([[1, 2], [3, 4]])))
print("vander:\n", torch.vander(torch.tensor([1, 2, 3]), N=4, increasing=True))
print(
    "trapezoid:",
    torch.trapezoid(torch.tensor([1.0, 2.0, 3.0]), dx=0.5),
    torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 3.0])),
)
print("aminmax:", torch.aminmax(scores, dim=1))
print("count_nonzero:", torch.count_nonzero(torch.tensor([[0, 1], [2, 0]]), dim=0))
print("argwhere:", torch.argwhere(torch.tensor([[0, 1], [2, 0]])).tolist())
print(
    "rot90:",
    torch.rot90(torch.arange(4).view(2, 2), 1, [0, 1]).tolist(),
    "roll:",
    torch.roll(torch.arange(6).view(2, 3), shifts=(1, -1), dims=(0, 1)).tolist(),
)
print("tril_indices:", torch.tril_indices(3, 3, offset=-1).tolist())
print("renorm:", torch.renorm(torch.tensor([[3.0, 4.0], [0.3, 0.4]]), p=2, dim=0, maxnorm=1.0))
t = torch.zeros(2, 3)
t.put_(torch.tensor([1, 4]), torch.tensor([7.0, 8.0]))
print("put_/take:", t.tolist(), torch.take(t, torch.tensor([4, 0])).tolist())
print(
    "bincount weights:",
    torch.bincount(torch.tensor([0, 2, 2, 3]), weights=torch.tensor([0.5, 1.0, 1.5, 2.0])),
)

for name, fn in [
    ("unfold too big", lambda: x.unfold(0, 20, 1)),
    ("kthvalue out of range", lambda: torch.kthvalue(v, 20)),
    ("bucketize 2-D boundaries", lambda: torch.bucketize(vals, edges.view(2, 2))),
    ("histc bad range", lambda: torch.histc(data, bins=4, min=3, max=1)),
    ("scatter_reduce bad mode", lambda: base.scatter_reduce(0, index, src, reduce="max")),
    ("combinations of 2-D", lambda: torch.combinations(torch.ones(2, 2))),
]:
    try:
        fn()
        print(name, "-> no error")
    except Exception as e:
        print(f"{name} -> {type(e).__name__}: {e}")
