# Models: a quantitative-finance notebook: synthetic daily returns from a factor model,
# annualised mean and covariance (torch.cov), the global minimum-variance portfolio in closed
# form with torch.linalg.solve, the long-only mean-variance portfolio by projected gradient
# descent onto the simplex (sort-based projection), the efficient frontier for several risk
# aversions, Sharpe ratios, and risk contributions.
import torch

torch.manual_seed(21)
torch.set_default_dtype(torch.float64)
n_assets, n_days = 5, 750
factor = 0.01 * torch.randn(n_days, 1)
beta = torch.tensor([[1.2, 0.8, 1.0, 0.5, 1.5]])
idio = 0.01 * torch.randn(n_days, n_assets) * torch.tensor([1.0, 0.8, 1.2, 0.6, 1.5])
drift = torch.tensor([0.0009, 0.0006, 0.0007, 0.0003, 0.0011])
R = drift + factor @ beta + idio
mu = R.mean(0) * 252
Sigma = torch.cov(R.T) * 252
print("annual mean", mu)
print("annual vol", Sigma.diagonal().sqrt())
print("correlation\n", torch.corrcoef(R.T))

ones = torch.ones(n_assets)
w_mv = torch.linalg.solve(Sigma, ones)
w_mv = w_mv / w_mv.sum()
print("min-variance weights", w_mv, "vol", (w_mv @ Sigma @ w_mv).sqrt().item())


def project_simplex(v):
    u, _ = torch.sort(v, descending=True)
    css = u.cumsum(0) - 1
    k = torch.arange(1, len(v) + 1, dtype=v.dtype)
    cond = u - css / k > 0
    rho = cond.nonzero().max()
    theta = css[rho] / (rho + 1)
    return (v - theta).clamp(min=0)


print("projection example", project_simplex(torch.tensor([0.8, 0.6, -0.2, 0.1, 0.0])))


def long_only(gamma, steps=300):
    lr = 1 / (gamma * torch.linalg.eigvalsh(Sigma).max())     # 1 / Lipschitz constant
    w = torch.full((n_assets,), 1 / n_assets)
    for _ in range(steps):
        grad = gamma * Sigma @ w - mu
        w = project_simplex(w - lr * grad)
    return w


rf = 0.02
for gamma in (1.0, 5.0, 20.0, 100.0):
    w = long_only(gamma)
    ret, vol = (w @ mu).item(), (w @ Sigma @ w).sqrt().item()
    print(f"gamma {gamma:6.1f}: weights {w} return {ret:.4f} "
          f"vol {vol:.4f} sharpe {(ret - rf) / vol:.3f}")

w = long_only(20.0)
mrc = Sigma @ w / (w @ Sigma @ w).sqrt()
rc = w * mrc
print("risk contributions", rc, "sum = vol", rc.sum().item())
excess = mu - rf
w_tan = torch.linalg.solve(Sigma, excess)
w_tan = w_tan / w_tan.sum()
print("tangency (unconstrained) weights", w_tan)
print(f"tangency sharpe {((w_tan @ mu - rf) / (w_tan @ Sigma @ w_tan).sqrt()).item():.4f}")
equal = torch.full((n_assets,), 0.2)
print(f"equal weight sharpe {((equal @ mu - rf) / (equal @ Sigma @ equal).sqrt()).item():.4f}")
cum = (1 + R @ w).cumprod(0)
peak = cum.cummax(0).values
print(f"final wealth {cum[-1].item():.4f} max drawdown {((peak - cum) / peak).max().item():.4f}")
