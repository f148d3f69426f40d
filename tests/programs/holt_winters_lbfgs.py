# Models: classical forecasting written with autograd: simple, Holt (trend) and Holt-Winters
# (additive seasonality) exponential smoothing with smoothing parameters kept in (0, 1) by a
# sigmoid, fitted by minimising one-step-ahead squared error with torch.optim.LBFGS (strong
# Wolfe line search), multi-step forecasts, and MAE / MASE against a seasonal-naive baseline.
import math

import torch

torch.manual_seed(0)
torch.set_printoptions(precision=3)
PERIOD, T, H = 12, 72, 12
t = torch.arange(T + H, dtype=torch.float)
series = (20 + 0.15 * t + 4 * torch.sin(2 * math.pi * t / PERIOD)
          + 2 * torch.cos(4 * math.pi * t / PERIOD))
series = series + 0.8 * torch.randn(T + H)
train, test = series[:T], series[T:]
print("train head:", train[:6])


def simple(y, a):
    level = y[0]
    preds = []
    for obs in y[1:]:
        preds.append(level)
        level = a * obs + (1 - a) * level
    return torch.stack(preds), level


def holt(y, a, b):
    level, trend = y[0], y[1] - y[0]
    preds = []
    for obs in y[1:]:
        preds.append(level + trend)
        new_level = a * obs + (1 - a) * (level + trend)
        trend = b * (new_level - level) + (1 - b) * trend
        level = new_level
    return torch.stack(preds), (level, trend)


def holt_winters(y, a, b, g, m=PERIOD):
    level = y[:m].mean()
    trend = (y[m:2 * m].mean() - y[:m].mean()) / m
    season = list(y[:m] - level)
    preds = []
    for i in range(m, len(y)):
        s = season[i - m]
        preds.append(level + trend + s)
        new_level = a * (y[i] - s) + (1 - a) * (level + trend)
        trend = b * (new_level - level) + (1 - b) * trend
        season.append(g * (y[i] - new_level) + (1 - g) * s)
        level = new_level
    return torch.stack(preds), (level, trend, season[-m:])


def fit(name, n_params, run, target):
    raw = torch.zeros(n_params, requires_grad=True)
    opt = torch.optim.LBFGS([raw], lr=1, max_iter=40, line_search_fn="strong_wolfe")
    evals = [0]

    def closure():
        opt.zero_grad()
        preds, _ = run(*torch.sigmoid(raw))
        loss = (preds - target).pow(2).mean()
        loss.backward()
        evals[0] += 1
        return loss

    loss = opt.step(closure)
    params = torch.sigmoid(raw).detach()
    print(f"{name:12s} MSE {loss.item():.4f} params {params} closure calls {evals[0]}")
    return params


a = fit("simple", 1, lambda a: simple(train, a), train[1:])
ab = fit("holt", 2, lambda a, b: holt(train, a, b), train[1:])
abg = fit("holt-winters", 3, lambda a, b, g: holt_winters(train, a, b, g), train[PERIOD:])

with torch.no_grad():
    _, level = simple(train, a[0])
    f_simple = level.expand(H)
    _, (level, trend) = holt(train, *ab)
    f_holt = level + trend * torch.arange(1, H + 1)
    _, (level, trend, season) = holt_winters(train, *abg)
    f_hw = level + trend * torch.arange(1, H + 1) + torch.stack(season)
    f_naive = train[-PERIOD:]
scale = (train[PERIOD:] - train[:-PERIOD]).abs().mean()
for name, f in [("simple", f_simple), ("holt", f_holt), ("holt-winters", f_hw),
                ("seasonal naive", f_naive)]:
    mae = (f - test).abs().mean()
    print(f"{name:14s} MAE {mae:.4f} MASE {mae / scale:.4f}")
print("forecast:", f_hw)
print("actual:  ", test)
