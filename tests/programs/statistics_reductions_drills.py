# Models: a statistics-with-tensors worksheet: mean/var/std with correction and unbiased, std_mean
# and var_mean, aminmax, median/nanmedian/mode along dims, quantile interpolation modes, cov and
# corrcoef with fweights/aweights, histogram with density, logsumexp, norms, prod and cumulative
# stats, keepdim shapes, and reductions over multiple dims.
import torch

torch.manual_seed(52)
x = torch.randn(4, 5, dtype=torch.float64)
print("mean dims", x.mean((0, 1)).item().__round__(10), x.mean(1, keepdim=True).shape)
print(
    "var correction",
    x.var(1, correction=0),
    x.var(1, correction=2),
    x.var(1, unbiased=False),
    sep="\n",
)
print("std", x.std(0), x.std(), sep="\n")
print(
    "std_mean",
    torch.std_mean(x, dim=1),
    "\nvar_mean",
    torch.var_mean(x, 0, correction=0, keepdim=True),
)
print("aminmax", torch.aminmax(x), torch.aminmax(x, dim=0, keepdim=True).min.shape)
print("amax multi-dim", x.amax((0, 1)), "max dim", x.max(1))
print("median", x.median(), x.median(1), sep="\n")
y = x.clone()
y[0, 0] = float("nan")
print("median with nan", y.median(1).values, "nanmedian", y.nanmedian(1).values)
ints = torch.tensor([[1, 2, 2, 3], [4, 4, 5, 5]])
print("mode", torch.mode(ints, 1))
q = torch.tensor([0.0, 0.25, 0.5, 0.9, 1.0], dtype=torch.float64)
data = torch.tensor([1.0, 2.0, 4.0, 7.0, 11.0], dtype=torch.float64)
for interp in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(f"quantile {interp:8s}", torch.quantile(data, q, interpolation=interp))
print(
    "quantile dim keepdim",
    torch.quantile(x, torch.tensor([0.5], dtype=torch.float64), dim=1, keepdim=True).shape,
)
obs = torch.tensor(
    [[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 3.0], [0.0, 1.0, 0.0, 1.0]], dtype=torch.float64
)
print("cov\n", torch.cov(obs), "\ncov correction=0\n", torch.cov(obs, correction=0))
print("cov fweights\n", torch.cov(obs, fweights=torch.tensor([1, 2, 1, 3])))
print(
    "cov aweights\n",
    torch.cov(obs, aweights=torch.tensor([0.5, 1.0, 2.0, 1.0], dtype=torch.float64)),
)
print("corrcoef\n", torch.corrcoef(obs))
h = torch.histogram(data, bins=4)
print("histogram", h.hist, h.bin_edges)
print(
    "histogram density",
    torch.histogram(
        data, bins=torch.tensor([0.0, 2.0, 5.0, 12.0], dtype=torch.float64), density=True
    ),
)
print(
    "histogram weights",
    torch.histogram(
        data, bins=2, range=(0.0, 10.0), weight=torch.ones(5, dtype=torch.float64) * 0.5
    ).hist,
)
print(
    "histogramdd",
    torch.histogramdd(torch.tensor([[0.0, 1.0], [1.0, 1.0], [2.0, 0.0]]), bins=[2, 2]).hist,
)
print(
    "logsumexp",
    torch.logsumexp(x, 1),
    torch.logsumexp(torch.tensor([-float("inf"), -float("inf")]), 0),
)
print(
    "norms",
    x.norm(),
    x.norm(p=1, dim=1),
    x.norm(p=float("inf")),
    x.norm(dim=(0, 1)),
    torch.norm(x, "nuc").item().__round__(8),
)
print(
    "prod",
    torch.tensor([[1, 2], [3, 4]]).prod(0),
    torch.tensor([1.5, 2.0]).prod(),
    torch.tensor([2, 3], dtype=torch.int8).prod().dtype,
)
print(
    "sum dtype",
    torch.tensor([1, 2], dtype=torch.int32).sum().dtype,
    torch.tensor([1.5], dtype=torch.float16).sum(dtype=torch.float32).dtype,
)
print("count/all/any dims", (x > 0).sum(1), (x > 0).all(1), (x > 0).any(0))
print("argmax/argmin keepdim", x.argmax(1, keepdim=True).shape, x.argmin(), x.argmax(0))
print(
    "mean of empty",
    torch.tensor([]).mean(),
    torch.zeros(0, 3).sum(0),
    torch.zeros(0, 3).amax(1).shape,
)
try:
    torch.zeros(0, 3).amax(0)
except (RuntimeError, IndexError) as e:
    print(type(e).__name__ + ":", e)
try:
    torch.quantile(data, torch.tensor([1.5], dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.std(correction=1, unbiased=True)
except (RuntimeError, TypeError) as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])
