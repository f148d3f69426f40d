# Models: a "statistics with tensors" course notebook (quantile/nanquantile with every
# interpolation, median/nanmedian/mode/kthvalue, var_mean/std_mean with correction,
# histc/histogram/bucketize/searchsorted, unique with counts, cov/corrcoef, cummax/cummin,
# logcumsumexp, aminmax, topk ties, sort stability, pinball loss quantile regression).
import torch

torch.manual_seed(11)
x = torch.randn(7, 9)
x[2, 3] = float("nan")
v = torch.randint(0, 5, (20,)).float()
for mode in ("linear", "lower", "higher", "nearest", "midpoint"):
    print(mode, torch.quantile(v, torch.tensor([0.1, 0.5, 0.9]), interpolation=mode))
print(torch.nanquantile(x, 0.3, dim=1))
print(torch.median(v), v.median(0), torch.nanmedian(x, dim=0).values)
print(torch.mode(v), v.kthvalue(4))
print(torch.var_mean(x[:, :3], dim=0, correction=0))
print(torch.std_mean(v, unbiased=True))
print(torch.histc(v, bins=5, min=0, max=5))
hist, edges = torch.histogram(torch.randn(100), bins=6)
print(hist, edges)
b = torch.tensor([0.5, 1.5, 3.0])
print(torch.bucketize(v[:6], b), torch.bucketize(v[:6], b, right=True))
print(torch.searchsorted(torch.tensor([1., 2., 2., 4.]), torch.tensor([2., 3.]), side="right"))
u, inv, cnt = torch.unique(v, return_inverse=True, return_counts=True)
print(u, inv, cnt)
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True))
xy = torch.randn(3, 10)
print(torch.cov(xy), torch.corrcoef(xy))
print(torch.cov(xy, correction=0, fweights=torch.arange(1, 11), aweights=torch.rand(10)))
print(torch.cummax(v, 0), torch.cummin(v[:5], 0))
print(torch.logcumsumexp(x[0], 0))
print(torch.aminmax(x[:, :3], dim=0))
print(torch.topk(v, 4), torch.sort(v, stable=True))
print(torch.nan_to_num(x[2], nan=0.0).sum(), torch.nanmean(x), torch.nansum(x, 1))
q = torch.tensor([0.1, 0.5, 0.9])
t = torch.linspace(0, 1, 50)
yv = 2 * t + 0.3 * torch.randn(50)
w = torch.zeros(3, 2, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.05)
for it in range(200):
    pred = w[:, :1] * t + w[:, 1:]
    err = yv - pred
    loss = torch.max(q[:, None] * err, (q[:, None] - 1) * err).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("pinball", loss.item(), w.detach())
