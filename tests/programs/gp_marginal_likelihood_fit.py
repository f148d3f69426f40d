# Models: a Gaussian process regression notebook (GPyTorch-free, as in "GPs from scratch"
# tutorials): RBF + periodic kernels, Cholesky-based posterior mean/variance, log marginal
# likelihood optimised with Adam over log hyperparameters, and predictive intervals.
import math

import torch

torch.manual_seed(40)
X = torch.linspace(0, 6, 25, dtype=torch.float64).unsqueeze(1)
y = (
    torch.sin(X).squeeze()
    + 0.3 * torch.cos(3 * X).squeeze()
    + 0.1 * torch.randn(25, dtype=torch.float64)
)
Xs = torch.linspace(-0.5, 6.5, 8, dtype=torch.float64).unsqueeze(1)


def rbf(a, b, ls, var):
    d2 = torch.cdist(a / ls, b / ls).pow(2)
    return var * torch.exp(-0.5 * d2)


def periodic(a, b, ls, period, var):
    d = torch.cdist(a, b)
    return var * torch.exp(-2 * torch.sin(math.pi * d / period).pow(2) / ls**2)


log_ls = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
log_var = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
log_noise = torch.tensor(-2.0, dtype=torch.float64, requires_grad=True)
log_pls = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
log_per = torch.tensor(math.log(2.0), dtype=torch.float64, requires_grad=True)
params = [log_ls, log_var, log_noise, log_pls, log_per]


def kernel(a, b):
    return rbf(a, b, log_ls.exp(), log_var.exp()) + periodic(
        a, b, log_pls.exp(), log_per.exp(), 0.5
    )


def nlml():
    K = kernel(X, X) + (log_noise.exp() + 1e-6) * torch.eye(25, dtype=torch.float64)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    return 0.5 * (y @ alpha.squeeze()) + L.diagonal().log().sum() + 12.5 * math.log(2 * math.pi)


opt = torch.optim.Adam(params, lr=0.05)
for step in range(151):
    opt.zero_grad()
    loss = nlml()
    loss.backward()
    opt.step()
    if step % 30 == 0:
        print(
            f"step {step:3d} nlml {loss.item():.5f} ls {log_ls.exp().item():.4f} "
            f"noise {log_noise.exp().item():.5f} period {log_per.exp().item():.4f}"
        )
with torch.no_grad():
    K = kernel(X, X) + (log_noise.exp() + 1e-6) * torch.eye(25, dtype=torch.float64)
    L = torch.linalg.cholesky(K)
    Ks = kernel(Xs, X)
    mean = Ks @ torch.cholesky_solve(y.unsqueeze(1), L)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    var = kernel(Xs, Xs).diagonal() - v.pow(2).sum(0)
    for xs, m, s in zip(
        Xs.squeeze().tolist(), mean.squeeze().tolist(), var.clamp_min(0).sqrt().tolist()
    ):
        print(f"x={xs:5.2f}  mean={m:+.4f}  95% +- {1.96 * s:.4f}")
    print(
        "posterior covariance is PSD",
        bool((torch.linalg.eigvalsh(kernel(Xs, Xs) - v.T @ v) > -1e-8).all()),
    )
    samples = torch.distributions.MultivariateNormal(
        mean.squeeze(), kernel(Xs, Xs) - v.T @ v + 1e-6 * torch.eye(8, dtype=torch.float64)
    ).sample((3,))
    print("posterior samples shape", samples.shape)
