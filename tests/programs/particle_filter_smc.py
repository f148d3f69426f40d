# Models: sequential Monte Carlo notebooks: a bootstrap particle filter for a nonlinear
# state-space model (the classic x/2 + 25x/(1+x^2) + 8cos(1.2t) benchmark), log-weights
# normalised with logsumexp, effective sample size, multinomial resampling with
# torch.multinomial and systematic resampling with searchsorted, the marginal log-likelihood
# estimate, and a comparison with a linear-Gaussian Kalman filter on a second model.
import math

import torch

torch.manual_seed(0)
T, N = 30, 500
x = torch.zeros(T)
y = torch.zeros(T)
for t in range(T):
    prev = x[t - 1] if t > 0 else torch.tensor(0.1)
    x[t] = (prev / 2 + 25 * prev / (1 + prev ** 2) + 8 * math.cos(1.2 * t)
            + math.sqrt(10) * torch.randn(()))
    y[t] = x[t] ** 2 / 20 + torch.randn(())
print("states:", x[:6])
print("observations:", y[:6])


def systematic(weights, gen):
    n = len(weights)
    u = (torch.rand((), generator=gen) + torch.arange(n)) / n
    cdf = weights.cumsum(0)
    cdf[-1] = 1.0
    return torch.searchsorted(cdf, u)


def particle_filter(resample, seed):
    gen = torch.Generator().manual_seed(seed)
    particles = torch.randn(N, generator=gen) * math.sqrt(5)
    loglik, means, ess_hist, n_resample = 0.0, [], [], 0
    logw = torch.full((N,), -math.log(N))
    for t in range(T):
        noise = torch.randn(N, generator=gen) * math.sqrt(10)
        particles = (particles / 2 + 25 * particles / (1 + particles ** 2)
                     + 8 * math.cos(1.2 * t) + noise)
        loglike = -0.5 * (y[t] - particles ** 2 / 20) ** 2 - 0.5 * math.log(2 * math.pi)
        logw = logw + loglike
        lse = torch.logsumexp(logw, 0)
        loglik += lse.item()
        logw = logw - lse
        w = logw.exp()
        means.append((w * particles).sum())
        ess = 1.0 / (w ** 2).sum()
        ess_hist.append(ess.item())
        if ess < N / 2:
            n_resample += 1
            if resample == "multinomial":
                idx = torch.multinomial(w, N, replacement=True, generator=gen)
            else:
                idx = systematic(w, gen)
            particles = particles[idx]
            logw = torch.full((N,), -math.log(N))
    return torch.stack(means), loglik, torch.tensor(ess_hist), n_resample


for scheme in ["multinomial", "systematic"]:
    means, ll, ess, nres = particle_filter(scheme, 1)
    rmse = ((means.abs() - x.abs()) ** 2).mean().sqrt()
    print(f"{scheme:11s} loglik {ll:.3f} resamples {nres} min ESS {ess.min():.1f} "
          f"|x| RMSE {rmse:.4f}")
    print("  filtered means:", means[:5])

# linear-Gaussian model: particle filter vs the exact Kalman filter
A, Q, R = 0.9, 0.5, 1.0
xs = torch.zeros(T)
for t in range(1, T):
    xs[t] = A * xs[t - 1] + math.sqrt(Q) * torch.randn(())
ys = xs + math.sqrt(R) * torch.randn(T)
m, P, kll = 0.0, 1.0, 0.0
kal = []
for t in range(T):
    m, P = A * m, A * A * P + Q
    S = P + R
    kll += -0.5 * (math.log(2 * math.pi * S) + (ys[t].item() - m) ** 2 / S)
    K = P / S
    m, P = m + K * (ys[t].item() - m), (1 - K) * P
    kal.append(m)
kal = torch.tensor(kal)
gen = torch.Generator().manual_seed(3)
p = torch.randn(N, generator=gen)
pll, pf = 0.0, []
for t in range(T):
    p = A * p + math.sqrt(Q) * torch.randn(N, generator=gen)
    lw = -0.5 * (ys[t] - p) ** 2 / R - 0.5 * math.log(2 * math.pi * R)
    lse = torch.logsumexp(lw, 0)
    pll += lse.item() - math.log(N)
    w = (lw - lse).exp()
    pf.append((w * p).sum())
    p = p[systematic(w, gen)]
pf = torch.stack(pf)
print(f"Kalman loglik {kll:.4f}  particle loglik {pll:.4f}")
print("max |PF - Kalman| mean:", (pf - kal).abs().max().item())
print("Kalman means:", kal[:5])
