# Models: a tutorial section on masks: masked_fill/masked_scatter/masked_select, where with scalars
# and broadcasting, masked means/variances by hand, nan-aware reductions (nansum, nanmean), padding
# masks for variable-length batches, and mask dtype errors.
import torch

torch.manual_seed(11)
x = torch.randn(3, 5)
mask = x > 0
print("mask\n", mask)
print("masked_fill\n", x.masked_fill(mask, 0.0))
print("masked_fill with 0-dim tensor\n", x.masked_fill(~mask, torch.tensor(-1.0)))
print("masked_select", x.masked_select(mask))
src = torch.arange(100.0, 115.0).reshape(3, 5)
print("masked_scatter\n", torch.zeros(3, 5).masked_scatter(mask, src))
print("where scalars\n", torch.where(mask, 1, -1), torch.where(mask, 1, -1).dtype)
print(
    "where mixed",
    torch.where(mask[0], x[0], 0).dtype,
    torch.where(mask[0], 2.5, torch.tensor([1, 2, 3, 4, 5])).dtype,
)
row_mask = torch.tensor([True, False, True]).unsqueeze(1)
print("broadcast mask\n", x.masked_fill(row_mask, float("-inf")))
lengths = torch.tensor([5, 2, 3])
pad = torch.arange(5)[None, :] < lengths[:, None]
print("padding mask\n", pad)
masked_mean = (x * pad).sum(1) / pad.sum(1)
print("masked mean", masked_mean)
var = (((x - masked_mean[:, None]) ** 2) * pad).sum(1) / (pad.sum(1) - 1)
print("masked var", var)
print("check row 1", x[1, :2].mean(), x[1, :2].var())
scores = x.masked_fill(~pad, float("-inf")).softmax(-1)
print("masked softmax\n", scores)
y = x.clone()
y[~pad] = float("nan")
print("nansum", y.nansum(1), "nanmean", y.nanmean(1))
print("nanquantile", torch.nanquantile(y, 0.5, dim=1))
print("count_nonzero", pad.count_nonzero(1), torch.count_nonzero(x > 1))
print("any/all", pad.any(1), pad.all(1), mask.any(), mask.all(0))
print("masked_fill_ in place version", x._version, x.masked_fill_(x.abs() < 0.5, 0.0)._version)
print("nonzero rows", torch.nonzero(pad.all(1)).flatten())
g = torch.randn(4, requires_grad=True)
out = g.masked_fill(g < 0, 0.0).sum()
out.backward()
print("grad through masked_fill", g.grad, out.grad_fn.next_functions[0][0].name())
g2 = torch.randn(4, requires_grad=True)
torch.where(g2 > 0, g2**2, -g2).sum().backward()
print("grad through where", g2.grad)
for bad in [
    lambda: x.masked_fill(torch.ones(3, 5, dtype=torch.int64), 0.0),
    lambda: x.masked_fill(mask, torch.tensor([1.0, 2.0])),
    lambda: x.masked_select(torch.ones(2, 5, dtype=torch.bool)),
    lambda: x[torch.ones(3, 4, dtype=torch.bool)],
]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__ + ":", e)
