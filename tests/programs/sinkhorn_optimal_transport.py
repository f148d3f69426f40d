# Models: optimal-transport code from public notebooks (POT-free PyTorch Sinkhorn, the "Sinkhorn
# distances" tutorial): entropic OT between two point clouds with log-domain Sinkhorn
# iterations (logsumexp), the transport plan's marginals, the exact 1-D Wasserstein distance by
# sorting, gradient flow of a point cloud towards a target by autograd through Sinkhorn, and
# the Sinkhorn-normalised soft permutation (Gumbel-Sinkhorn) recovering a shuffle.
import math

import torch

torch.manual_seed(0)


def sinkhorn_log(a, b, C, eps=0.05, iters=200):
    log_a, log_b = a.log(), b.log()
    f = torch.zeros_like(a)
    g = torch.zeros_like(b)
    for _ in range(iters):
        f = eps * (log_a - torch.logsumexp((g[None, :] - C) / eps, dim=1))
        g = eps * (log_b - torch.logsumexp((f[:, None] - C) / eps, dim=0))
    P = torch.exp((f[:, None] + g[None, :] - C) / eps)
    return P, (P * C).sum(), f, g


n, m = 12, 10
x = torch.randn(n, 2)
y = torch.randn(m, 2) * 0.5 + torch.tensor([2.0, 1.0])
a = torch.full((n,), 1.0 / n)
b = torch.full((m,), 1.0 / m)
C = torch.cdist(x, y).pow(2)
P, cost, f, g = sinkhorn_log(a, b, C)
print("plan shape:", tuple(P.shape), "cost:", cost)
print(
    "row marginal error:",
    (P.sum(1) - a).abs().max() < 1e-5,
    "column marginal error:",
    (P.sum(0) - b).abs().max() < 1e-5,
)
print("dual objective:", (f * a).sum() + (g * b).sum())
print("argmax assignment:", P.argmax(1).tolist())
for eps in [1.0, 0.1, 0.02]:
    Pe, ce, _, _ = sinkhorn_log(a, b, C, eps=eps)
    ent = -(Pe * Pe.clamp_min(1e-30).log()).sum()
    print(f"eps {eps}: cost {ce.item():.5f} plan entropy {ent.item():.4f}")


def wasserstein_1d(u, v, p=1):
    return (u.sort().values - v.sort().values).abs().pow(p).mean().pow(1 / p)


u = torch.randn(100)
v = torch.randn(100) * 2 + 1
print("1-D W1:", wasserstein_1d(u, v), "W2:", wasserstein_1d(u, v, 2))
print(
    "cdf-based W1:",
    torch.trapezoid(
        (
            torch.searchsorted(u.sort().values, torch.linspace(-6, 8, 400), right=True).float()
            - torch.searchsorted(v.sort().values, torch.linspace(-6, 8, 400), right=True).float()
        ).abs()
        / 100,
        torch.linspace(-6, 8, 400),
    ),
)

# gradient flow: move x towards y by minimising the Sinkhorn cost
xs = x.clone().requires_grad_(True)
opt = torch.optim.SGD([xs], lr=2.0)
for step in range(30):
    Cx = torch.cdist(xs, y).pow(2)
    _, cost, _, _ = sinkhorn_log(a, b, Cx, eps=0.1, iters=50)
    opt.zero_grad()
    cost.backward()
    opt.step()
    if step % 10 == 9:
        print(f"flow step {step + 1} cost {cost.item():.5f} mean {xs.detach().mean(0)}")


def sinkhorn_normalise(log_alpha, iters=30):
    for _ in range(iters):
        log_alpha = log_alpha - torch.logsumexp(log_alpha, dim=1, keepdim=True)
        log_alpha = log_alpha - torch.logsumexp(log_alpha, dim=0, keepdim=True)
    return log_alpha.exp()


k = 6
perm = torch.randperm(k)
seq = torch.linspace(0, 1, k)
shuffled = seq[perm]
log_alpha = torch.zeros(k, k, requires_grad=True)
opt = torch.optim.Adam([log_alpha], lr=0.3)
for step in range(100):
    gumbel = -torch.log(-torch.log(torch.rand(k, k).clamp(1e-10, 1.0)))
    S = sinkhorn_normalise((log_alpha + 0.1 * gumbel) / 0.5)
    loss = (S @ shuffled - seq).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
S = sinkhorn_normalise(log_alpha.detach() / 0.5)
print(
    "doubly stochastic:",
    torch.allclose(S.sum(0), torch.ones(k), atol=1e-4),
    torch.allclose(S.sum(1), torch.ones(k), atol=1e-4),
)
print("recovered order:", S.argmax(1).tolist(), "true inverse:", torch.argsort(perm).tolist())
print(f"final loss {loss.item():.6f}", "log(k!) =", round(math.lgamma(k + 1), 4))
