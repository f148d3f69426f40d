# Models: a probability-course demo of approximations: Binomial(n, p) against its normal
# approximation with continuity correction via Normal.cdf, Poisson against the normal for
# large rates, the CLT for means of Exponential samples, and exact versus approximate tail
# probabilities printed side by side.
import torch
from torch.distributions import Binomial, Exponential, Normal, Poisson

n, p = 40, 0.3
binom = Binomial(n, torch.tensor(p, dtype=torch.float64))
k = torch.arange(0, n + 1, dtype=torch.float64)
pmf = binom.log_prob(k).exp()
mu, sd = n * p, (n * p * (1 - p)) ** 0.5
approx = Normal(torch.tensor(mu, dtype=torch.float64), torch.tensor(sd, dtype=torch.float64))
for kk in [8, 12, 16]:
    exact = pmf[: kk + 1].sum()
    cc = approx.cdf(torch.tensor(kk + 0.5, dtype=torch.float64))
    print(f"P(X<={kk}) exact {exact.item():.6f} normal+cc {cc.item():.6f}")
print("pmf sums to", pmf.sum().item(), "mode", pmf.argmax().item())
lam = 50.0
pois = Poisson(torch.tensor(lam, dtype=torch.float64))
kk = torch.arange(0, 200, dtype=torch.float64)
pp = pois.log_prob(kk).exp()
na = Normal(torch.tensor(lam, dtype=torch.float64), torch.tensor(lam ** 0.5, dtype=torch.float64))
for t in [40, 50, 60]:
    print(f"Poisson P(X<={t}) {pp[: t + 1].sum().item():.6f} normal "
          f"{na.cdf(torch.tensor(t + 0.5, dtype=torch.float64)).item():.6f}")
torch.manual_seed(3)
e = Exponential(torch.tensor(2.0))
means = e.sample((2000, 30)).mean(1)
print("CLT mean", means.mean().item(), "std", means.std().item(), "theory", 0.5 / 30 ** 0.5)
z = (means - 0.5) / (0.5 / 30 ** 0.5)
print("fraction |z|<1.96", ((z.abs() < 1.96).float().mean()).item())
print("icdf", approx.icdf(torch.tensor([0.025, 0.975], dtype=torch.float64)))
