# Models: the statistics and reduction calls found in data-analysis notebooks and metric code --
# var/std with correction and unbiased, var_mean/std_mean, nan-aware reductions (nansum,
# nanmean, nanmedian, nanquantile), logsumexp and logcumsumexp, amax/amin over several dims,
# norms (vector_norm ord variants, matrix_norm fro/nuc, Tensor.norm), all/any along dims,
# prod with dtype, cumulative ops, aminmax, count_nonzero, mode/median with ties, and
# quantile interpolation modes.
import torch

torch.manual_seed(0)
x = torch.randn(4, 5)
print(x.var(), x.var(dim=0), x.var(dim=1, unbiased=False))
print(x.std(1, correction=0), torch.std(x, dim=0, correction=2, keepdim=True))
print(torch.var_mean(x, dim=1), torch.std_mean(x, 0, correction=0))
y = x.clone()
y[0, 1] = float("nan")
y[2, 3] = float("nan")
print(y.sum(), y.nansum(), y.nanmean(), y.nanmean(dim=1))
print(torch.nanmedian(y), torch.nanmedian(y, dim=1))
print(torch.nanquantile(y, 0.5, dim=0), torch.nan_to_num(y, nan=0.0)[0])
print(torch.logsumexp(x, dim=1), torch.logsumexp(x, dim=(0, 1)), torch.logcumsumexp(x[0], 0))
print(x.amax(dim=(0, 1)), x.amin(dim=1), torch.amax(x, 0, keepdim=True).shape)
print(torch.linalg.vector_norm(x), torch.linalg.vector_norm(x, ord=1, dim=1),
      torch.linalg.vector_norm(x, ord=float("inf")), torch.linalg.vector_norm(x, ord=0))
print(torch.linalg.matrix_norm(x), torch.linalg.matrix_norm(x, ord="nuc"),
      torch.linalg.matrix_norm(x, ord=2), torch.linalg.matrix_norm(x, ord=-1))
print(x.norm(), x.norm(p=1, dim=0), x.norm(dim=1, keepdim=True).shape, torch.norm(x, "fro"))
b = x > 0
print(b.all(), b.any(dim=0), b.all(dim=1), torch.any(b, 1, keepdim=True).shape)
ints = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(ints.prod(), ints.prod(1), ints.prod(dtype=torch.float64), ints.sum(dtype=torch.int8))
print(ints.cumsum(1), ints.cumprod(0), ints.float().cumsum(0).dtype)
print(torch.aminmax(x, dim=0), torch.count_nonzero(b, dim=1))
t = torch.tensor([1, 2, 2, 3, 3, 4])
print(t.mode(), t.median(), torch.tensor([1.0, 2.0, 3.0, 4.0]).median())
q = torch.tensor([0.0, 1.0, 2.0, 10.0])
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(mode, torch.quantile(q, torch.tensor([0.25, 0.6]), interpolation=mode))
print(torch.quantile(x, 0.9, dim=1, keepdim=True).shape, x.mean(dtype=torch.float64).dtype)
print(x.sum(dim=[0, 1]), x.mean((0, 1)), x.sum(-1).shape, x.max(), x.argmax(dim=0))
print(torch.histc(x, bins=4, min=-2, max=2), torch.histogram(x.flatten(), bins=3))
print(torch.cov(x), torch.corrcoef(x[:2]))
print(torch.diff(x[0], n=2), torch.trapezoid(x[0]), torch.cumulative_trapezoid(x[0]))
