# Models: a quantitative-finance notebook in PyTorch: Black-Scholes prices from the closed form
# (torch.special.ndtr / Normal.cdf), Monte Carlo with antithetic and control variates, the
# Greeks by autograd (delta, vega, rho, theta; gamma with create_graph), implied volatility by
# Newton's method, and a pathwise Asian option.
import math

import torch
from torch.distributions import Normal

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
N = Normal(0.0, 1.0)


def bs_call(S, K, T, r, sigma):
    d1 = (torch.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * torch.sqrt(T))
    d2 = d1 - sigma * torch.sqrt(T)
    return S * torch.special.ndtr(d1) - K * torch.exp(-r * T) * N.cdf(d2)


S = torch.tensor(100.0, requires_grad=True)
K = torch.tensor(105.0)
T = torch.tensor(0.5, requires_grad=True)
r = torch.tensor(0.03, requires_grad=True)
sigma = torch.tensor(0.2, requires_grad=True)
price = bs_call(S, K, T, r, sigma)
delta, theta, rho, vega = torch.autograd.grad(price, (S, T, r, sigma), create_graph=True)
(gamma,) = torch.autograd.grad(delta, S)
print(f"price {price.item():.8f}")
print(f"delta {delta.item():.8f} gamma {gamma.item():.8f} vega {vega.item():.8f} "
      f"rho {rho.item():.8f} theta {-theta.item():.8f}")
d1 = (math.log(100 / 105) + (0.03 + 0.02) * 0.5) / (0.2 * math.sqrt(0.5))
print(f"analytic delta {0.5 * (1 + math.erf(d1 / math.sqrt(2))):.8f}")

puts = bs_call(S, K, T, r, sigma) - S + K * torch.exp(-r * T)
print(f"put via parity {puts.item():.8f}")

n = 20000
z = torch.randn(n)


def ST(z):
    return S.detach() * torch.exp((r.detach() - 0.5 * sigma.detach() ** 2) * T.detach()
                                  + sigma.detach() * torch.sqrt(T.detach()) * z)



disc = math.exp(-0.03 * 0.5)
payoff = disc * (ST(z) - K).clamp(min=0)
anti = 0.5 * (payoff + disc * (ST(-z) - K).clamp(min=0))
ctrl = ST(z)
beta = torch.cov(torch.stack([payoff, ctrl]))[0, 1] / ctrl.var()
cv = payoff - beta * (ctrl - S.detach() * math.exp(0.03 * 0.5))
for name, est in [("plain", payoff), ("antithetic", anti), ("control", cv)]:
    print(f"{name:10s} {est.mean().item():.6f} +- {est.std().item() / math.sqrt(len(est)):.6f}")

# pathwise delta and vega by Monte Carlo
S2 = torch.tensor(100.0, requires_grad=True)
sig2 = torch.tensor(0.2, requires_grad=True)
paths = S2 * torch.exp((0.03 - 0.5 * sig2 ** 2) * 0.5 + sig2 * math.sqrt(0.5) * z)
mc = disc * torch.relu(paths - 105.0).mean()
mc.backward()
print(f"MC delta {S2.grad.item():.6f} MC vega {sig2.grad.item():.6f}")

# implied volatility by Newton with autograd vega
target = price.detach()
vol = torch.tensor(0.5, requires_grad=True)
for it in range(6):
    p = bs_call(S.detach(), K, T.detach(), r.detach(), vol)
    (v,) = torch.autograd.grad(p, vol)
    with torch.no_grad():
        vol -= (p - target) / v
    print(f"newton {it} vol {vol.item():.10f}")

# arithmetic Asian call on 12 monitoring dates
steps = 12
dt = 0.5 / steps
inc = torch.randn(4000, steps) * math.sqrt(dt) * 0.2 + (0.03 - 0.02) * dt
path = 100.0 * torch.exp(torch.cumsum(inc, dim=1))
asian = disc * (path.mean(1) - 105.0).clamp(min=0)
euro = (disc * (path[:, -1] - 105).clamp(min=0)).mean()
print(f"asian {asian.mean().item():.6f} european-on-same {euro.item():.6f}")
print("quantiles of terminal price", torch.quantile(path[:, -1], torch.tensor([0.05, 0.5, 0.95])))
torch.set_default_dtype(torch.float32)
