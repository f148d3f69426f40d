# Models: Gaussian-process regression written in plain torch (the "GP from scratch" notebooks):
# an RBF kernel from torch.cdist, hyper-parameters as log-parameters optimised by Adam on the
# exact negative log marginal likelihood (Cholesky factor, cholesky_solve, log-determinant
# from the diagonal), then the posterior mean and variance at test points.
import math

import torch

torch.manual_seed(11)
torch.set_default_dtype(torch.float64)
X = torch.rand(25, 1) * 6
y = torch.sin(X).squeeze(1) + 0.1 * torch.randn(25)
Xs = torch.linspace(0, 6, 7).unsqueeze(1)

log_ell = torch.tensor(0.0, requires_grad=True)
log_sf = torch.tensor(0.0, requires_grad=True)
log_sn = torch.tensor(-1.0, requires_grad=True)


def rbf(a, b):
    d2 = torch.cdist(a, b).pow(2)
    return log_sf.exp().pow(2) * torch.exp(-0.5 * d2 / log_ell.exp().pow(2))


def nll():
    K = rbf(X, X) + (log_sn.exp().pow(2) + 1e-6) * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    return (0.5 * (y.unsqueeze(1) * alpha).sum() + torch.log(torch.diagonal(L)).sum()
            + 0.5 * len(X) * math.log(2 * math.pi))


opt = torch.optim.Adam([log_ell, log_sf, log_sn], lr=0.05)
for it in range(151):
    opt.zero_grad()
    loss = nll()
    loss.backward()
    opt.step()
    if it % 30 == 0:
        print(f"iter {it:3d} nll {loss.item():.5f} ell {log_ell.exp().item():.4f} "
              f"sf {log_sf.exp().item():.4f} sn {log_sn.exp().item():.4f}")

with torch.no_grad():
    K = rbf(X, X) + (log_sn.exp().pow(2) + 1e-6) * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    Ks = rbf(Xs, X)
    mean = Ks @ torch.cholesky_solve(y.unsqueeze(1), L)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    var = rbf(Xs, Xs).diagonal() - v.pow(2).sum(0)
print("posterior mean", mean.squeeze(1))
print("sin(x)        ", torch.sin(Xs).squeeze(1))
print("posterior std ", var.clamp(min=0).sqrt())
print("log det K", round(2 * torch.log(torch.diagonal(L)).sum().item(), 5),
      round(torch.logdet(K).item(), 5))
