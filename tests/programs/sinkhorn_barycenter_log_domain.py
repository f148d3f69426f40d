# Models: a computational optimal transport tutorial (POT-style, in torch): entropic OT between
# 1-d histograms with Sinkhorn in the log domain, convergence of the marginal error, transport
# plan and cost, the effect of epsilon, a Wasserstein barycenter by iterative Bregman projections,
# and gradients of the Sinkhorn cost with respect to point positions.
import torch

torch.manual_seed(43)
n = 40
xs = torch.linspace(0, 1, n, dtype=torch.float64)


def gauss(mu, s):
    h = torch.exp(-0.5 * ((xs - mu) / s) ** 2)
    return h / h.sum()


a = gauss(0.25, 0.05)
b = 0.6 * gauss(0.65, 0.04) + 0.4 * gauss(0.85, 0.05)
C = (xs[:, None] - xs[None, :]) ** 2


def sinkhorn_log(a, b, C, eps, iters):
    f = torch.zeros_like(a)
    g = torch.zeros_like(b)
    for it in range(iters):
        f = eps * torch.log(a) - eps * torch.logsumexp((g[None, :] - C) / eps, dim=1)
        g = eps * torch.log(b) - eps * torch.logsumexp((f[:, None] - C) / eps, dim=0)
    P = torch.exp((f[:, None] + g[None, :] - C) / eps)
    return P, f, g


for eps in [0.05, 0.01, 0.002]:
    P, f, g = sinkhorn_log(a, b, C, eps, 300)
    err = (P.sum(1) - a).abs().sum()
    print(
        f"eps {eps:<6} cost {(P * C).sum().item():.6f} marginal err {err.item():.2e} "
        f"entropy {-(P * P.clamp_min(1e-300).log()).sum().item():.4f}"
    )
mean_a = (xs * a).sum()
mean_b = (xs * b).sum()
print("exact 1-d W2^2 via quantiles")
qs = torch.linspace(0.0025, 0.9975, 200, dtype=torch.float64)
ca, cb = a.cumsum(0), b.cumsum(0)
ia = torch.searchsorted(ca, qs).clamp(max=n - 1)
ib = torch.searchsorted(cb, qs).clamp(max=n - 1)
print(
    "  W2^2 ~",
    ((xs[ia] - xs[ib]) ** 2).mean().item().__round__(6),
    "means",
    round(mean_a.item(), 6),
    round(mean_b.item(), 6),
)
K = torch.exp(-C / 0.002)
hists = torch.stack([a, b])
weights = torch.tensor([0.5, 0.5], dtype=torch.float64)
v = torch.ones_like(hists)
for _ in range(500):
    u = hists / (K @ v.T).T
    bary = torch.exp((weights[:, None] * torch.log((K.T @ u.T).T)).sum(0))
    v = bary[None, :] / (K.T @ u.T).T
print(
    "barycenter mass",
    round(bary.sum().item(), 6),
    "mode at",
    xs[bary.argmax()].item().__round__(4),
    "mean",
    round((xs * bary).sum().item() / bary.sum().item(), 5),
)
pts = torch.randn(6, 2, dtype=torch.float64, requires_grad=True)
tgt = torch.randn(5, 2, dtype=torch.float64) + 2
wa = torch.full((6,), 1 / 6, dtype=torch.float64)
wb = torch.full((5,), 1 / 5, dtype=torch.float64)
opt = torch.optim.SGD([pts], lr=2.0)
for step in range(40):
    Cp = torch.cdist(pts, tgt) ** 2
    P, _, _ = sinkhorn_log(wa, wb, Cp, 0.1, 50)
    loss = (P * Cp).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"flow step {step} sinkhorn cost {loss.item():.6f}")
print("moved points mean", pts.detach().mean(0), "target mean", tgt.mean(0))
