# Models: time-series feature engineering with Tensor.unfold (pandas-rolling equivalents):
# rolling mean/std/min/max, z-scores, lag features, EWMA via a loop and via conv1d, rolling
# windows of a multivariate series into (samples, window, features) supervised pairs.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
T = 20
series = torch.cumsum(torch.randn(T), 0)
print(series)
w = 5
win = series.unfold(0, w, 1)
print(win.shape, win.stride())
roll_mean = win.mean(-1)
roll_std = win.std(-1)
print(roll_mean)
print(roll_std)
print(win.min(-1).values, win.max(-1).indices)
z = (series[w - 1 :] - roll_mean) / roll_std
print(z)
lags = torch.stack([series.roll(k) for k in (1, 2, 3)], 1)
lags[:3] = float("nan")
print(lags[:5])
print(torch.isnan(lags).sum(0))
alpha = 0.3
ewma = torch.empty_like(series)
ewma[0] = series[0]
for t in range(1, T):
    ewma[t] = alpha * series[t] + (1 - alpha) * ewma[t - 1]
print(ewma[-5:])
k = 8
kern = (alpha * (1 - alpha) ** torch.arange(k - 1, -1, -1.0)).view(1, 1, -1)
ew_conv = F.conv1d(F.pad(series.view(1, 1, -1), (k - 1, 0)), kern)[0, 0]
print(ew_conv[-5:])
multi = torch.stack([series, series.diff(prepend=series[:1]), torch.sin(torch.arange(T) / 3.0)], 1)
X = multi.unfold(0, 6, 2).transpose(1, 2)
Y = series[6::2]
print(multi.shape, X.shape, Y.shape)
print(X[0])
print(X.shape[0] == Y.shape[0] + (1 if (T - 6) % 2 == 0 else 0))
two_d = torch.arange(24.0).view(4, 6)
print(two_d.unfold(1, 3, 3))
print(two_d.unfold(0, 2, 1).unfold(1, 2, 2).shape)
q = torch.quantile(win, torch.tensor([0.25, 0.75]), dim=-1)
print(q.shape, q[:, :3])
print(F.avg_pool1d(series.view(1, 1, -1), w, stride=1)[0, 0] - roll_mean)
