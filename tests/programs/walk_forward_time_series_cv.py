# Models: a Kaggle forecasting notebook's validation scheme: a synthetic daily sales series with
# trend, weekly seasonality and holidays, lag and rolling-window features built with unfold and
# cumsum, walk-forward (expanding window) splits with a gap, a ridge model refitted per fold in
# closed form, a seasonal-naive baseline, per-fold MAE / sMAPE, and a final multi-step
# recursive forecast.
import torch

torch.manual_seed(5)
T = 400
t = torch.arange(T, dtype=torch.float32)
weekly = torch.tensor([0.0, 2.0, 3.0, 3.5, 5.0, 9.0, 7.0])[t.long() % 7]
holiday = (torch.rand(T) < 0.03).float() * 12
y = 20 + 0.03 * t + weekly + holiday + 1.5 * torch.randn(T)
print(f"series mean {y.mean().item():.4f} std {y.std().item():.4f} "
      f"holidays {int((holiday > 0).sum())}")

lags = [1, 2, 7, 14]
max_lag = 28


def features(y, idx):
    cols = [y[idx - L] for L in lags]
    cs = torch.cat([torch.zeros(1), y.cumsum(0)])
    for w in (7, 28):
        cols.append((cs[idx] - cs[idx - w]) / w)
    windows = y.unfold(0, 7, 1)
    cols.append(windows[idx - 7].std(1))
    dow = torch.nn.functional.one_hot(idx % 7, 7).float()
    return torch.cat([torch.stack(cols, 1), dow, (idx.float() / T).unsqueeze(1)], 1)


idx_all = torch.arange(max_lag, T)
F_all = features(y, idx_all)
print("feature matrix", tuple(F_all.shape))


def fit_ridge(X, target, lam=1.0):
    mu, sd = X.mean(0), X.std(0).clamp(min=1e-6)
    Z = torch.cat([(X - mu) / sd, torch.ones(len(X), 1)], 1)
    w = torch.linalg.solve(Z.T @ Z + lam * torch.eye(Z.shape[1]), Z.T @ target)
    return lambda Xn: torch.cat([(Xn - mu) / sd, torch.ones(len(Xn), 1)], 1) @ w


def smape(a, f):
    return (200 * (a - f).abs() / (a.abs() + f.abs())).mean().item()


horizon, gap, n_folds = 28, 7, 4
first_test = T - n_folds * horizon
rows = []
for k in range(n_folds):
    test_start = first_test + k * horizon
    train_mask = idx_all < test_start - gap
    test_mask = (idx_all >= test_start) & (idx_all < test_start + horizon)
    model = fit_ridge(F_all[train_mask], y[idx_all[train_mask]])
    pred = model(F_all[test_mask])
    actual = y[idx_all[test_mask]]
    naive = y[idx_all[test_mask] - 7]
    mae, mae_n = (pred - actual).abs().mean().item(), (naive - actual).abs().mean().item()
    rows.append((mae, mae_n))
    print(f"fold {k}: train rows {int(train_mask.sum())} "
          f"test [{test_start}, {test_start + horizon}) "
          f"MAE {mae:.4f} sMAPE {smape(actual, pred):.3f} | seasonal naive MAE {mae_n:.4f}")
maes = torch.tensor(rows)
print("mean MAE model / naive:", maes.mean(0))

model = fit_ridge(F_all, y[idx_all])
hist = y.clone()
future = []
for step in range(14):
    nxt = torch.tensor([T + step])
    ext = torch.cat([hist, torch.zeros(1)])
    f = features(ext, nxt)
    val = model(f)[0]
    hist = torch.cat([hist, val.reshape(1)])
    future.append(val.item())
print("recursive 14-day forecast", torch.tensor(future))
peak = (T + int(torch.tensor(future).argmax())) % 7
print("forecast peak day-of-week", peak, "true peak day-of-week", int(weekly[:7].argmax()))
