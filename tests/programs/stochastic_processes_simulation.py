# Models: simulating stochastic processes with tensors: random walks and first-passage times,
# Brownian motion and its quadratic variation, geometric Brownian motion against the lognormal
# law, an Ornstein-Uhlenbeck process by Euler-Maruyama and a Poisson process' counts.
import math

import torch

torch.manual_seed(0)
dt64 = torch.float64
steps = torch.randint(0, 2, (2000, 200)) * 2 - 1
walk = steps.cumsum(1)
print("walk end mean/var", walk[:, -1].float().mean().item(), walk[:, -1].float().var().item())
hit = walk >= 10
first = torch.where(hit.any(1), hit.float().argmax(1) + 1, torch.full((2000,), -1))
print(
    "P(hit +10 by 200)",
    (first > 0).float().mean().item(),
    "median time",
    first[first > 0].median().item(),
)
print(
    "max excursion quantiles", torch.quantile(walk.amax(1).float(), torch.tensor([0.1, 0.5, 0.9]))
)

T, N, paths = 1.0, 500, 1000
dt = T / N
dW = torch.randn(paths, N, dtype=dt64) * math.sqrt(dt)
W = torch.cat([torch.zeros(paths, 1, dtype=dt64), dW.cumsum(1)], 1)
print("W(T) mean/var", W[:, -1].mean().item(), W[:, -1].var().item())
print("quadratic variation", (dW**2).sum(1).mean().item(), "+-", (dW**2).sum(1).std().item())
cov = torch.cov(torch.stack([W[:, 250], W[:, 500]]))
print("cov(W(0.5), W(1))\n", cov)

mu, sigma, S0 = 0.08, 0.25, 100.0
t = torch.linspace(0, T, N + 1, dtype=dt64)
S = S0 * torch.exp((mu - 0.5 * sigma**2) * t + sigma * W)
ST = S[:, -1]
print("GBM E[S_T] sim", ST.mean().item(), "exact", S0 * math.exp(mu * T))
logret = torch.log(ST / S0)
print("log-return mean/std", logret.mean().item(), logret.std().item())
running_max = torch.cummax(S, 1).values
drawdown = 1 - S / running_max
print(
    "max drawdown quantiles",
    torch.quantile(drawdown.amax(1), torch.tensor([0.5, 0.95], dtype=dt64)),
)

theta, m, s = 2.0, 1.0, 0.3
X = torch.empty(paths, N + 1, dtype=dt64)
X[:, 0] = 3.0
for i in range(N):
    X[:, i + 1] = X[:, i] + theta * (m - X[:, i]) * dt + s * dW[:, i]
print("OU mean at T sim", X[:, -1].mean().item(), "exact", m + (3.0 - m) * math.exp(-theta * T))
print(
    "OU var at T sim",
    X[:, -1].var().item(),
    "exact",
    s**2 / (2 * theta) * (1 - math.exp(-2 * theta * T)),
)
lag = 50
ac = torch.corrcoef(torch.stack([X[:, 250], X[:, 250 + lag]]))[0, 1]
print(f"OU autocorrelation at lag {lag * dt}", ac.item(), "exact", math.exp(-theta * lag * dt))

rate = 3.0
gaps = torch.distributions.Exponential(torch.tensor(rate)).sample((5000, 20))
arrivals = gaps.cumsum(1)
counts = (arrivals <= 2.0).sum(1)
print(
    "Poisson counts mean/var",
    counts.float().mean().item(),
    counts.float().var().item(),
    "exact",
    rate * 2,
)
hist = torch.bincount(counts, minlength=12)[:12].float() / 5000
pmf = torch.distributions.Poisson(torch.tensor(rate * 2)).log_prob(torch.arange(12.0)).exp()
print("empirical pmf", hist)
print("exact pmf    ", pmf)
