# Models: feature-engineering cells of a time-series forecasting notebook done in torch:
# sliding windows with Tensor.unfold, rolling mean/std/min/max, lags via roll and padding,
# exponentially weighted means, percent change and log returns with torch.diff, drawdowns with
# cummax, z-score outlier clipping with quantiles, NaN-aware statistics, and a ridge
# regression forecaster solved with torch.linalg.solve.
import math

import torch

torch.manual_seed(41)
T = 120
t = torch.arange(T, dtype=torch.float32)
price = 100 * torch.exp(torch.cumsum(0.01 * torch.randn(T) + 0.002 * torch.sin(t / 8), 0))
price[[17, 63]] = price[[17, 63]] * torch.tensor([1.15, 0.8])
print(price[:6], price.shape)
w = 7
win = price.unfold(0, w, 1)
print("windows", win.shape, win.stride(), win.is_contiguous())
roll_mean, roll_std = win.mean(1), win.std(1)
roll_min, roll_max = win.min(1).values, win.max(1).values
print(roll_mean[:5], roll_std[:5])
print(roll_min[:3], roll_max[:3])
strided = torch.as_strided(price, (T - w + 1, w), (1, 1))
print(torch.equal(strided, win))
ret = torch.diff(price) / price[:-1]
logret = torch.diff(price.log())
print(ret[:5], logret[:5], torch.diff(price, n=2)[:3])
print(torch.diff(price[:5], prepend=price[:1], append=price[-1:]))


def ewm(x, alpha):
    out = torch.empty_like(x)
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out


print("ewm", ewm(price, 0.2)[-5:])
running_max = torch.cummax(price, 0).values
drawdown = price / running_max - 1
print("max drawdown", drawdown.min(), drawdown.argmin(), running_max[-1])
z = (logret - logret.mean()) / logret.std()
print("outliers", (z.abs() > 3).nonzero().flatten(), z.abs().max())
lo, hi = torch.quantile(logret, torch.tensor([0.01, 0.99]))
clipped = logret.clamp(lo, hi)
print(lo, hi, clipped.std(), logret.std())
lag = torch.stack([torch.roll(logret, k) for k in (1, 2, 3)], 1)
lag[:3] = float("nan")
print(lag[:5])
print(torch.nanmean(lag, 0), torch.nansum(lag, 0), lag.isnan().sum(0))
rs = torch.cat([torch.full((w - 1,), float("nan")), roll_std])[1:]
feat = torch.cat([lag, rs[:, None]], 1)
valid = ~feat.isnan().any(1)
print("valid rows", valid.sum().item(), valid.nonzero()[0].item())
X = feat[valid]
y = logret[valid]
X = torch.cat([torch.ones(len(X), 1), X], 1)
lam = 1e-3
beta = torch.linalg.solve(X.T @ X + lam * torch.eye(X.shape[1]), X.T @ y)
pred = X @ beta
print("beta", beta, "r2", 1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())
print(torch.corrcoef(torch.stack([logret[1:], logret[:-1]])))
month = (t // 30).long()
sums = torch.zeros(4).index_add_(0, month, price)
counts = torch.bincount(month, minlength=4)
print("monthly mean", sums / counts)
season = torch.stack([torch.sin(2 * math.pi * t / 30), torch.cos(2 * math.pi * t / 30)], 1)
print(season[:3], torch.fft.rfft(price - price.mean()).abs().argsort(descending=True)[:4])
