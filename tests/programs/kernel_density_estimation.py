# Models: kernel density estimation in 1-D and 2-D: Gaussian and Epanechnikov kernels,
# Silverman's and Scott's bandwidths, leave-one-out likelihood cross-validation, sampling.
import math

import torch

torch.manual_seed(0)
dt = torch.float64
data = torch.cat([torch.randn(150, dtype=dt) * 0.5 - 1.5, torch.randn(250, dtype=dt) + 1.0])
n = data.numel()
iqr = torch.quantile(data, 0.75) - torch.quantile(data, 0.25)
sd = data.std()
silverman = 0.9 * torch.minimum(sd, iqr / 1.34) * n ** (-0.2)
scott = 1.06 * sd * n ** (-0.2)
print(f"n={n} std={sd:.5f} iqr={iqr:.5f} silverman={silverman:.5f} scott={scott:.5f}")


def gauss_logpdf(x, pts, h):
    z = (x[:, None] - pts[None, :]) / h
    return torch.logsumexp(-0.5 * z**2, 1) - math.log(pts.numel() * h * math.sqrt(2 * math.pi))


def epanechnikov(x, pts, h):
    u = (x[:, None] - pts[None, :]) / h
    return (0.75 * (1 - u**2)).clamp_min(0).sum(1) / (pts.numel() * h)


grid = torch.linspace(-4, 4, 9, dtype=dt)
print("gaussian kde", gauss_logpdf(grid, data, silverman).exp())
print("epanechnikov", epanechnikov(grid, data, silverman))
fine = torch.linspace(-6, 6, 2001, dtype=dt)
print("integrates to", torch.trapezoid(gauss_logpdf(fine, data, scott).exp(), fine).item())


def loo_loglik(h):
    z = (data[:, None] - data[None, :]) / h
    logk = -0.5 * z**2
    logk.fill_diagonal_(-float("inf"))
    return (torch.logsumexp(logk, 1) - math.log((n - 1) * h * math.sqrt(2 * math.pi))).mean()


hs = torch.logspace(-1.5, 0.3, 10, dtype=dt)
scores = torch.stack([loo_loglik(h) for h in hs])
for h, s in zip(hs.tolist(), scores.tolist()):
    print(f"h={h:.4f} loo={s:.5f}")
best_h = hs[scores.argmax()]
print(f"best h {best_h:.4f}")
log_h = torch.tensor(math.log(0.3), dtype=dt, requires_grad=True)
opt = torch.optim.LBFGS([log_h], lr=0.5, max_iter=30, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = -loo_loglik(log_h.exp())
    loss.backward()
    return loss


opt.step(closure)
print(f"optimised h {log_h.exp().item():.5f} loo {loo_loglik(log_h.exp()).item():.5f}")

idx = torch.randint(0, n, (5000,))
samples = data[idx] + best_h * torch.randn(5000, dtype=dt)
print(
    "sample mean/var",
    samples.mean().item(),
    samples.var().item(),
    "data",
    data.mean().item(),
    data.var().item() + best_h.item() ** 2,
)

pts2 = torch.randn(300, 2, dtype=dt) @ torch.tensor([[1.0, 0.6], [0.0, 0.8]], dtype=dt)
H = torch.cov(pts2.T) * 300 ** (-1 / 3)
L = torch.linalg.cholesky(H)
q = torch.tensor([[0.0, 0.0], [1.0, 1.0], [-2.0, 1.0]], dtype=dt)
diff = q[:, None, :] - pts2[None]
sol = torch.linalg.solve_triangular(L, diff.reshape(-1, 2).T, upper=False).T.reshape(3, 300, 2)
logk = -0.5 * (sol**2).sum(-1)
dens = (
    torch.logsumexp(logk, 1)
    - math.log(300)
    - math.log(2 * math.pi)
    - torch.log(torch.diagonal(L)).sum()
)
print("2-D bandwidth matrix\n", H)
print("2-D density", dens.exp())
