# Models: a quant-finance tutorial: simulated daily returns, cumulative wealth with cumprod,
# running peak with cummax and drawdowns, rolling volatility with unfold, annualised Sharpe,
# log returns with log1p, and the worst drawdown's dates.
import torch

torch.manual_seed(100)
days = 60
r = torch.randn(days, 3, dtype=torch.float64) * torch.tensor([0.01, 0.02, 0.015]) + 0.0005
wealth = torch.cumprod(1 + r, dim=0)
print("final wealth", wealth[-1])
peak, peak_idx = torch.cummax(wealth, dim=0)
dd = wealth / peak - 1
print("max drawdown", dd.min(0))
trough = dd.argmin(0)
print("trough day", trough, "peak day", peak_idx[trough, torch.arange(3)])
win = r.unfold(0, 10, 1)
print("rolling shape", win.shape)
vol = win.std(-1)
print("rolling vol last", vol[-1])
sharpe = r.mean(0) / r.std(0) * torch.sqrt(torch.tensor(252.0, dtype=torch.float64))
print("sharpe", sharpe)
logr = torch.log1p(r)
print("log-sum matches", torch.allclose(logr.sum(0).exp(), wealth[-1]))
w = torch.tensor([0.5, 0.3, 0.2], dtype=torch.float64)
port = r @ w
print("portfolio", torch.cumprod(1 + port, 0)[-1], "cov\n", torch.cov(r.T))
print("cummin", torch.cummin(port, 0).values[-5:])
print("best/worst day", port.argmax().item(), port.argmin().item())
