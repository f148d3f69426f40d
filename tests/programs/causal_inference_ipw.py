# Models: causal-inference tutorials on synthetic observational data: a confounded treatment,
# the naive difference in means, a propensity model fitted by logistic regression with LBFGS,
# inverse-propensity weighting (Horvitz-Thompson and self-normalised), regression adjustment,
# the doubly robust AIPW estimator, a TARNet-style two-headed network for the CATE, and
# bootstrap confidence intervals.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, D = 1000, 4
X = torch.randn(N, D)
propensity = torch.sigmoid(1.2 * X[:, 0] - 0.8 * X[:, 1])
T = torch.bernoulli(propensity)
tau = 1.0 + 0.5 * X[:, 2]
Y0 = X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * torch.randn(N)
Y = Y0 + T * tau
print(f"true ATE {tau.mean():.4f} treated fraction {T.mean():.4f}")
print(f"naive difference {Y[T == 1].mean() - Y[T == 0].mean():.4f}")

Xb = torch.cat([torch.ones(N, 1), X], 1)
w = torch.zeros(D + 1, requires_grad=True)
opt = torch.optim.LBFGS([w], max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = F.binary_cross_entropy_with_logits(Xb @ w, T)
    loss.backward()
    return loss


opt.step(closure)
e = torch.sigmoid(Xb @ w).detach().clamp(0.02, 0.98)
print("propensity coefficients:", w.detach())
print(f"propensity range [{e.min():.4f}, {e.max():.4f}]")


def ipw(Y, T, e):
    return (T * Y / e).mean() - ((1 - T) * Y / (1 - e)).mean()


def ipw_normalised(Y, T, e):
    w1, w0 = T / e, (1 - T) / (1 - e)
    return (w1 * Y).sum() / w1.sum() - (w0 * Y).sum() / w0.sum()


def outcome_models(X, Y, T):
    feats = torch.cat([torch.ones(len(X), 1), X, X ** 2], 1)
    coefs = []
    for arm in (0, 1):
        m = T == arm
        coefs.append(torch.linalg.lstsq(feats[m], Y[m, None], driver="gelsd").solution[:, 0])
    return feats @ coefs[0], feats @ coefs[1]


def aipw(Y, T, e, mu0, mu1):
    return (mu1 - mu0 + T * (Y - mu1) / e - (1 - T) * (Y - mu0) / (1 - e)).mean()


mu0, mu1 = outcome_models(X, Y, T)
print(f"IPW {ipw(Y, T, e):.4f} normalised IPW {ipw_normalised(Y, T, e):.4f} "
      f"regression {(mu1 - mu0).mean():.4f} AIPW {aipw(Y, T, e, mu0, mu1):.4f}")

gen = torch.Generator().manual_seed(1)
boots = []
for b in range(40):
    idx = torch.randint(0, N, (N,), generator=gen)
    m0, m1 = outcome_models(X[idx], Y[idx], T[idx])
    boots.append(aipw(Y[idx], T[idx], e[idx], m0, m1))
boots = torch.stack(boots)
lo, hi = torch.quantile(boots, torch.tensor([0.025, 0.975]))
print(f"AIPW bootstrap 95% CI [{lo:.4f}, {hi:.4f}] std {boots.std():.4f}")


class TARNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.rep = nn.Sequential(nn.Linear(D, 32), nn.ELU(), nn.Linear(32, 32), nn.ELU())
        self.heads = nn.ModuleList(
            nn.Sequential(nn.Linear(32, 16), nn.ELU(), nn.Linear(16, 1)) for _ in range(2))

    def forward(self, x):
        h = self.rep(x)
        return self.heads[0](h).squeeze(1), self.heads[1](h).squeeze(1)


net = TARNet()
opt = torch.optim.Adam(net.parameters(), lr=5e-3, weight_decay=1e-4)
for epoch in range(25):
    for idx in torch.randperm(N).split(100):
        y0, y1 = net(X[idx])
        pred = torch.where(T[idx] == 1, y1, y0)
        loss = F.mse_loss(pred, Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 5 == 4:
        print(f"TARNet epoch {epoch + 1} factual MSE {loss.item():.4f}")
with torch.no_grad():
    y0, y1 = net(X)
    cate = y1 - y0
print(f"TARNet ATE {cate.mean():.4f} PEHE {((cate - tau) ** 2).mean().sqrt():.4f}")
print("CATE vs truth (first 5):", cate[:5], tau[:5])
