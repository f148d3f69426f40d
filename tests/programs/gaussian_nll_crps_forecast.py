# Models: probabilistic forecasting with a Gaussian head (DeepAR-style, without the library):
# mean and softplus scale outputs, nn.GaussianNLLLoss (full, eps), the closed-form Gaussian CRPS
# with erf, prediction intervals from Normal.icdf, and PIT histogram counts for calibration.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

torch.manual_seed(0)
T = 80
t = torch.arange(T, dtype=torch.float32)
y = torch.sin(t / 4) + 0.3 * torch.randn(T) * (1 + (t > 40).float())
lags = torch.stack([y.roll(k) for k in (1, 2, 3, 4)], 1)[4:]
target = y[4:]


class GaussHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(5, 16), nn.Tanh())
        self.mu = nn.Linear(16, 1)
        self.sigma = nn.Linear(16, 1)

    def forward(self, x):
        h = self.body(x)
        return self.mu(h).squeeze(-1), F.softplus(self.sigma(h)).squeeze(-1) + 1e-3


feats = torch.cat([lags, (t[4:] > 40).float()[:, None]], 1)
model = GaussHead()
nll = nn.GaussianNLLLoss(full=True, eps=1e-6)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for ep in range(60):
    mu, sigma = model(feats)
    loss = nll(mu, target, sigma**2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if ep % 15 == 0:
        print(f"epoch {ep} nll {loss.item():.6f}")
with torch.no_grad():
    mu, sigma = model(feats)
print(sigma[:3], sigma[-3:])
z = (target - mu) / sigma
crps = sigma * (
    z * torch.erf(z / math.sqrt(2))
    + 2 * torch.exp(-0.5 * z**2) / math.sqrt(2 * math.pi)
    - 1 / math.sqrt(math.pi)
)
print("crps", crps.mean().item())
dist = Normal(mu, sigma)
lo, hi = dist.icdf(torch.tensor(0.05)), dist.icdf(torch.tensor(0.95))
print("90% coverage", ((target >= lo) & (target <= hi)).float().mean().item())
pit = dist.cdf(target)
print(torch.histc(pit, bins=5, min=0, max=1))
print(F.gaussian_nll_loss(mu, target, sigma**2, reduction="none")[:4])
print(-dist.log_prob(target)[:4])
