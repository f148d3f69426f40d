# Models: a data-cleaning notebook done in torch instead of pandas: missing values with
# isnan/nan_to_num/nanmean/nanmedian, outlier clipping at quantiles, binning with histc,
# bucketize and searchsorted, category encoding with unique(return_inverse/counts),
# unique_consecutive run-lengths, bincount with weights, isin filters, top-k and sorting
# by several keys (stable argsort), cummax/cummin running extremes, and per-group means
# with scatter_reduce / index_add.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=3, sci_mode=False)

n = 20
age = torch.randint(18, 80, (n,)).float()
income = torch.exp(torch.randn(n) * 0.6 + 10.5)
city = torch.randint(0, 4, (n,))
age[[3, 11]] = float("nan")
income[7] = 1e7
print("age", age)
print(
    "nan count",
    torch.isnan(age).sum().item(),
    "nanmean",
    f"{age.nanmean().item():.3f}",
    "nanmedian",
    age.nanmedian(),
)
age_filled = torch.where(torch.isnan(age), age.nanmedian(), age)
print("filled", age_filled)
print(
    torch.nan_to_num(
        torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]), nan=0.0, posinf=9.0
    )
)

q = torch.quantile(income, torch.tensor([0.05, 0.5, 0.95]))
print("income quantiles", q)
print(
    "interpolation modes",
    [
        round(torch.quantile(income, 0.3, interpolation=m).item(), 1)
        for m in ["linear", "lower", "higher", "midpoint", "nearest"]
    ],
)
clipped = income.clamp(q[0], q[2])
print("clipped max ratio", f"{(clipped.max() / clipped.min()).item():.3f}")

edges = torch.tensor([30.0, 45.0, 60.0])
buckets = torch.bucketize(age_filled, edges)
print("buckets", buckets, torch.bucketize(edges, edges, right=True))
print(
    "searchsorted",
    torch.searchsorted(edges, torch.tensor([29.0, 30.0, 61.0])),
    torch.searchsorted(edges, torch.tensor([30.0]), side="right"),
)
hist = torch.histc(age_filled, bins=6, min=18, max=80)
print("histc", hist, hist.sum())
h, bin_edges = torch.histogram(age_filled, bins=4)
print("histogram", h, bin_edges)

labels, inverse, counts = torch.unique(city, return_inverse=True, return_counts=True)
print("cities", labels, counts, inverse[:8])
one_hot = torch.nn.functional.one_hot(inverse, num_classes=len(labels))
print("one-hot sums", one_hot.sum(0))
events = torch.tensor([1, 1, 2, 2, 2, 3, 1, 1, 4])
vals, runs = torch.unique_consecutive(events, return_counts=True)
print("runs", vals, runs)
u_sorted = torch.unique(torch.tensor([3, 1, 2, 3, 1]), sorted=True, return_inverse=True)
print(u_sorted)
print("bincount", torch.bincount(city), torch.bincount(city, weights=income / 1000, minlength=5))

print("isin", torch.isin(city, torch.tensor([0, 2])).nonzero().flatten())
print("isin invert", torch.isin(city, torch.tensor([0, 2]), invert=True).sum().item())
top_v, top_i = torch.topk(income, 3)
print("top incomes", top_v.round(), top_i)
low_v, low_i = income.topk(2, largest=False, sorted=True)
print("lowest", low_i, income.kthvalue(3).indices)
# sort by city, then by age descending (two stable sorts)
o1 = torch.argsort(-age_filled, stable=True)
o2 = torch.argsort(city[o1], stable=True)
order = o1[o2]
print("sorted city", city[order])
print("sorted age ", age_filled[order])
sv, si = torch.sort(torch.tensor([2, 1, 2, 1, 0]), descending=True, stable=True)
print(sv, si)
print("msort", torch.msort(torch.tensor([[3, 1], [1, 2], [2, 0]])))

cm = torch.cummax(income, 0)
print("running max idx", cm.indices)
print("running min", torch.cummin(age_filled, 0).values)
sums = torch.zeros(4).index_add_(0, city, income)
means = torch.zeros(4).scatter_reduce(0, city, income, reduce="mean", include_self=False)
print("group sums", sums.round())
print("group means", means.round(), torch.allclose(means, sums / counts))
print("group max", torch.full((4,), -1.0).scatter_reduce(0, city, age_filled, reduce="amax"))
print("group prod", torch.ones(4).scatter_reduce(0, city, torch.ones(n) * 2, reduce="prod"))
zscore = (income.log() - income.log().mean()) / income.log().std()
print("outliers", (zscore.abs() > 2).nonzero().flatten(), zscore[7])
print("mode", torch.mode(city), "median", torch.median(age_filled))
print(
    "diff", torch.diff(age_filled[:6]), torch.diff(age_filled[:6], n=2, prepend=torch.tensor([0.0]))
)
print(torch.tensor_split(torch.arange(10), torch.tensor([2, 5])), torch.count_nonzero(buckets == 1))
