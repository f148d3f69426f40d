# Models: temporal point-process code (tick / neural Hawkes baselines): simulating a
# univariate Hawkes process with an exponential kernel by Ogata's thinning, its exact
# log-likelihood (intensity at events with the recursive A_i term minus the compensator),
# maximum-likelihood fitting of (mu, alpha, beta) through softplus-parameterised
# parameters with L-BFGS and Adam, the branching ratio, and a KS-style check of the
# time-rescaled residuals.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def simulate(mu, alpha, beta, T, g):
    """Ogata thinning: candidate times from the current upper bound on the intensity."""
    events, t = [], 0.0
    while True:
        lam_bar = mu + sum(alpha * math.exp(-beta * (t - s)) for s in events)
        t += -math.log(torch.rand(1, generator=g).item()) / lam_bar
        if t > T:
            return torch.tensor(events, dtype=torch.float64)
        lam_t = mu + sum(alpha * math.exp(-beta * (t - s)) for s in events)
        if torch.rand(1, generator=g).item() <= lam_t / lam_bar:
            events.append(t)


def loglik(times, T, mu, alpha, beta):
    dt = torch.diff(times)
    A = [torch.zeros((), dtype=times.dtype)]
    for d in dt:                                   # A_i = exp(-beta dt) (1 + A_{i-1})
        A.append(torch.exp(-beta * d) * (1 + A[-1]))
    A = torch.stack(A)
    intensity = mu + alpha * A
    compensator = mu * T + (alpha / beta) * (1 - torch.exp(-beta * (T - times))).sum()
    return torch.log(intensity).sum() - compensator


g = torch.Generator().manual_seed(7)
TRUE = (0.5, 0.8, 1.6)
T = 60.0
times = simulate(*TRUE, T, g)
print("events:", len(times), "first:", times[:5])
print("true loglik:", f"{loglik(times, T, *map(torch.tensor, TRUE)).item():.6f}")

raw = torch.zeros(3, dtype=torch.float64, requires_grad=True)
opt = torch.optim.LBFGS([raw], lr=0.5, max_iter=40, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    mu, alpha, beta = F.softplus(raw)
    loss = -loglik(times, T, mu, alpha, beta) / len(times)
    loss.backward()
    return loss


for it in range(3):
    loss = opt.step(closure)
    print(f"L-BFGS round {it}: nll/event {loss.item():.6f}")
mu, alpha, beta = F.softplus(raw).detach()
print(f"fitted mu {mu.item():.4f} alpha {alpha.item():.4f} beta {beta.item():.4f} "
      f"branching ratio {alpha.item() / beta.item():.4f}")

raw2 = torch.zeros(3, dtype=torch.float64, requires_grad=True)
adam = torch.optim.Adam([raw2], lr=0.05)
for step in range(150):
    adam.zero_grad()
    loss = -loglik(times, T, *F.softplus(raw2)) / len(times)
    loss.backward()
    adam.step()
print("Adam fit:", F.softplus(raw2).detach(), f"nll {loss.item():.6f}")

# time-rescaling: compensator increments between events should be Exp(1)
comp = mu * times + (alpha / beta) * torch.stack(
    [(1 - torch.exp(-beta * (t - times[times < t]))).sum() for t in times])
resid = torch.diff(torch.cat([torch.zeros(1, dtype=torch.float64), comp]))
u = torch.sort(1 - torch.exp(-resid)).values
ecdf = torch.arange(1, len(u) + 1, dtype=torch.float64) / len(u)
print(f"residual mean {resid.mean().item():.4f} KS stat {(u - ecdf).abs().max().item():.4f}")
