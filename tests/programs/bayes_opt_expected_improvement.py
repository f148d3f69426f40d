# Models: a from-scratch Bayesian optimisation loop (as in GP tutorials before BoTorch): an
# exact GP with an RBF kernel whose log hyper-parameters are fitted by maximising the marginal
# likelihood with L-BFGS (strong-Wolfe line search), a Cholesky posterior, the expected-
# improvement acquisition written with Normal cdf/pdf, and acquisition maximisation by
# gradient ascent from several starts.
import math

import torch
from torch.distributions import Normal

torch.set_default_dtype(torch.float64)
torch.manual_seed(110)


def f(x):
    return -(torch.sin(3 * x) + 0.5 * x ** 2 - 0.3 * x)


X = torch.tensor([-1.5, -0.2, 0.9, 1.8])[:, None]
Y = f(X).squeeze(1)
log_ls = torch.tensor(0.0, requires_grad=True)
log_sf = torch.tensor(0.0, requires_grad=True)
log_sn = torch.tensor(-2.0, requires_grad=True)


def kernel(a, b):
    d2 = (a[:, None, :] - b[None, :, :]).pow(2).sum(-1)
    return log_sf.exp() ** 2 * torch.exp(-0.5 * d2 / log_ls.exp() ** 2)


def nll(X, Y):
    K = kernel(X, X) + (log_sn.exp() ** 2 + 1e-6) * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve((Y - Y.mean())[:, None], L)
    return (0.5 * (Y - Y.mean()) @ alpha.squeeze(1) + torch.log(torch.diagonal(L)).sum()
            + 0.5 * len(X) * math.log(2 * math.pi))


def fit(X, Y):
    opt = torch.optim.LBFGS([log_ls, log_sf, log_sn], lr=0.5, max_iter=40,
                            line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = nll(X, Y)
        loss.backward()
        return loss
    opt.step(closure)
    return nll(X, Y).item()


def posterior(Xs, X, Y):
    K = kernel(X, X) + (log_sn.exp() ** 2 + 1e-6) * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    Ks = kernel(X, Xs)
    alpha = torch.cholesky_solve((Y - Y.mean())[:, None], L)
    mu = Y.mean() + (Ks.T @ alpha).squeeze(1)
    v = torch.linalg.solve_triangular(L, Ks, upper=False)
    var = (log_sf.exp() ** 2 - (v ** 2).sum(0)).clamp(min=1e-12)
    return mu, var.sqrt()


def expected_improvement(Xs, X, Y, xi=0.01):
    mu, sd = posterior(Xs, X, Y)
    imp = mu - Y.max() - xi
    z = imp / sd
    n = Normal(0.0, 1.0)
    return imp * n.cdf(z) + sd * n.log_prob(z).exp()


for it in range(3):
    loss = fit(X, Y)
    with torch.no_grad():
        print(f"iter {it} nll {loss:.6f} ls {log_ls.exp().item():.5f} "
              f"sf {log_sf.exp().item():.5f} sn {log_sn.exp().item():.6f}")
    starts = torch.linspace(-2, 2, 5)[:, None].clone().requires_grad_(True)
    opt = torch.optim.Adam([starts], lr=0.05)
    for _ in range(20):
        opt.zero_grad()
        (-expected_improvement(starts, X, Y.detach()).sum()).backward()
        opt.step()
        with torch.no_grad():
            starts.clamp_(-2, 2)
    with torch.no_grad():
        ei = expected_improvement(starts, X, Y)
        best = starts[ei.argmax()]
        print("  candidates", starts.squeeze(1), "\n  EI", ei)
    X = torch.cat([X, best[None].detach()])
    Y = torch.cat([Y, f(best).detach()])
    print(f"  new x {best.item():.5f} f {Y[-1].item():.5f} best so far {Y.max().item():.5f}")
grid = torch.linspace(-2, 2, 9)[:, None]
with torch.no_grad():
    mu, sd = posterior(grid, X, Y)
print(mu, sd, f(grid).squeeze(1))
print(torch.special.ndtr(torch.tensor([-1.0, 0.0, 2.0])),
      Normal(0.0, 1.0).icdf(torch.tensor(0.975)))
