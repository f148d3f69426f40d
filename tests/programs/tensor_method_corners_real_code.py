# Models: Tensor methods as real utility code calls them: new_* constructors inheriting dtype,
# type_as/view_as/expand_as/reshape_as, masked_scatter_/index_fill_/put_/index_copy_,
# where with scalars, fill_diagonal_, tril_/triu_ in place, copy_ with broadcasting and dtype
# change, lerp_, clamp_ with tensor bounds, nan_to_num_, sort/topk returning named tuples.
import torch

x = torch.arange(6, dtype=torch.float64).reshape(2, 3)
print(
    "new_zeros",
    x.new_zeros(2),
    "new_ones",
    x.new_ones((1, 2)).dtype,
    "new_full",
    x.new_full((2,), 7),
)
print("new_tensor", x.new_tensor([1, 2]), "new_empty shape", tuple(x.new_empty(3, 1).shape))
i = torch.tensor([1, 2, 3])
print("type_as", i.type_as(x), "view_as", torch.arange(6).view_as(x))
print(
    "expand_as",
    torch.tensor([[1.0], [2.0]]).expand_as(x),
    "reshape_as",
    torch.arange(6).reshape_as(x.t()),
)
m = torch.zeros(2, 3)
m.masked_scatter_(
    torch.tensor([[True, False, True], [False, True, False]]), torch.tensor([9.0, 8.0, 7.0, 6.0])
)
print("masked_scatter_", m)
m.index_fill_(1, torch.tensor([0, 2]), -1.0)
print("index_fill_", m)
m.put_(torch.tensor([0, 5]), torch.tensor([10.0, 20.0]))
print("put_", m)
m.put_(torch.tensor([0, 0]), torch.tensor([1.0, 2.0]), accumulate=True)
print("put_ accumulate", m)
m.index_copy_(0, torch.tensor([1]), torch.tensor([[5.0, 5.0, 5.0]]))
print("index_copy_", m)
print("where scalar", torch.where(m > 4, m, 0.0), torch.where(m > 4, 1, 0).dtype)
sq = torch.zeros(3, 4)
sq.fill_diagonal_(2.0)
print("fill_diagonal_", sq)
tall = torch.zeros(7, 3)
tall.fill_diagonal_(1, wrap=True)
print("wrap", tall)
t = torch.ones(3, 3)
t.tril_(-1)
print("tril_", t)
t2 = torch.ones(3, 3).triu_(1)
print("triu_", t2)
dst = torch.zeros(2, 3, dtype=torch.int32)
dst.copy_(torch.tensor([1.7, -2.2, 3.9]))
print("copy_ broadcast + cast", dst)
a = torch.zeros(3)
a.lerp_(torch.tensor([10.0, 20.0, 30.0]), 0.25)
print("lerp_", a)
a.lerp_(torch.zeros(3), torch.tensor([0.0, 0.5, 1.0]))
print("lerp_ tensor weight", a)
b = torch.tensor([-3.0, 0.5, 4.0])
b.clamp_(min=torch.tensor([-1.0, 1.0, 0.0]), max=torch.tensor([1.0, 2.0, 3.0]))
print("clamp_ tensors", b)
n = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
n.nan_to_num_(nan=0.0, posinf=100.0)
print("nan_to_num_", n)
s = torch.tensor([3.0, 1.0, 2.0, 1.0])
r = s.sort(descending=True, stable=True)
print(r)
print("fields", r.values, r.indices, type(r).__name__)
tk = s.topk(2, largest=False)
print("topk", tk)
mx = x.max(dim=1, keepdim=True)
print("max keepdim", mx.values.shape, mx.indices)
print("kthvalue", s.kthvalue(2), "mode", s.mode())
print("aminmax", x.aminmax())
print("unique", torch.tensor([3, 1, 3, 2, 1]).unique(return_counts=True, return_inverse=True))
print("unique_consecutive", torch.tensor([1, 1, 2, 2, 1]).unique_consecutive(return_counts=True))
print("tolist", x.tolist(), "item", x[1, 2].item(), type(x.sum().item()).__name__)
print(
    "element_size",
    x.element_size(),
    i.element_size(),
    "nbytes",
    x.nbytes,
    "numel",
    x.numel(),
    "dim",
    x.dim(),
)
print("apply_ map", torch.tensor([1.0, 2.0]).apply_(lambda v: v * 10))
print("map_", torch.tensor([1.0, 2.0]).map_(torch.tensor([3.0, 4.0]), lambda p, q: p + q))
