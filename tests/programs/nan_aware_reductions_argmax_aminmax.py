# Models: a sensor-data cleaning notebook: nanmean/nansum/nanmedian over dims, max/argmax in
# the presence of NaN, amax/amin versus max/min (ties and gradients), aminmax, fmax/fmin and
# maximum/minimum with NaN, and mode/median index conventions.
import torch

nan = float("nan")
x = torch.tensor([[1.0, nan, 3.0, 3.0], [nan, nan, nan, nan], [2.0, 2.0, -1.0, 0.0]])
print("nanmean", x.nanmean(1), "nansum", x.nansum(1))
print("nanmedian", x.nanmedian(1))
print("median", x.median(1))
print("max", x.max(1))
print("argmax", x.argmax(1), "argmin", x.argmin(1))
print("amax", x.amax(1), "amin", x[2].amin())
print("aminmax", torch.aminmax(x[2]), torch.aminmax(x, dim=1))
a = torch.tensor([1.0, nan, 3.0])
b = torch.tensor([nan, nan, 2.0])
print("maximum", torch.maximum(a, b), "fmax", torch.fmax(a, b), "fmin", torch.fmin(a, b))
t = torch.tensor([2.0, 5.0, 5.0, 1.0], requires_grad=True)
t.amax().backward()
print("amax grad splits ties", t.grad)
t.grad = None
t.max().backward()
print("max grad", t.grad)
t.grad = None
t.max(0).values.backward()
print("max(dim) grad", t.grad)
print("mode", torch.tensor([3, 1, 3, 1, 2]).mode())
print("median even", torch.tensor([4.0, 1.0, 3.0, 2.0]).median())
print("kthvalue nan", torch.tensor([1.0, nan, 0.5]).kthvalue(3))
print("sort nan last", torch.tensor([nan, 1.0, -1.0]).sort(descending=True))
print("isnan count", x.isnan().sum(1), "all-nan rows", x.isnan().all(1))
print("nan_to_num mean", torch.nan_to_num(x, nan=0.0).mean(1))
print("std with nan", x[0].std(), "var unbiased False", x[2].var(unbiased=False))
