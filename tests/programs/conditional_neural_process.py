# Models: DeepMind's "Conditional Neural Processes" notebook ported to PyTorch: functions drawn
# from a GP prior with an RBF kernel (Cholesky sampling with jitter), random context/target
# splits, a deterministic encoder aggregated by the mean, a decoder giving mean and a softplus
# standard deviation, the Normal log-likelihood loss, and predictive intervals on a test curve.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import MultivariateNormal, Normal

torch.manual_seed(0)


def gp_curves(batch, n_points, length=0.4, scale=1.0):
    x = torch.sort(torch.rand(batch, n_points, 1) * 4 - 2, dim=1).values
    d = (x - x.transpose(1, 2)) ** 2
    K = scale ** 2 * torch.exp(-0.5 * d / length ** 2) + 1e-4 * torch.eye(n_points)
    L = torch.linalg.cholesky(K)
    y = L @ torch.randn(batch, n_points, 1)
    return x, y


x, y = gp_curves(2, 5)
print("x", x[0, :, 0], "y", y[0, :, 0])
K = torch.exp(-0.5 * (x[0] - x[0].T) ** 2 / 0.16) + 1e-4 * torch.eye(5)
mvn = MultivariateNormal(torch.zeros(5), covariance_matrix=K)
print("GP log-density of the draw", mvn.log_prob(y[0, :, 0]).item())


class CNP(nn.Module):
    def __init__(self, h=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(2, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(),
                                     nn.Linear(h, h))
        self.decoder = nn.Sequential(nn.Linear(h + 1, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(),
                                     nn.Linear(h, 2))

    def forward(self, xc, yc, xt):
        r = self.encoder(torch.cat([xc, yc], -1)).mean(dim=1, keepdim=True)
        r = r.expand(-1, xt.shape[1], -1)
        out = self.decoder(torch.cat([r, xt], -1))
        mu, raw = out.chunk(2, dim=-1)
        sigma = 0.1 + 0.9 * F.softplus(raw)
        return Normal(mu, sigma)


model = CNP()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for it in range(40):
    x, y = gp_curves(16, 20)
    n_ctx = int(torch.randint(3, 10, (1,)))
    perm = torch.randperm(20)
    ctx = perm[:n_ctx]
    dist = model(x[:, ctx], y[:, ctx], x)
    loss = -dist.log_prob(y).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 8 == 0:
        print(f"iter {it:2d} contexts {n_ctx} nll {loss.item():.5f} "
              f"mean sigma {dist.scale.mean().item():.4f}")

torch.manual_seed(5)
x, y = gp_curves(1, 25)
ctx = torch.tensor([2, 9, 15, 21])
with torch.no_grad():
    pred = model(x[:, ctx], y[:, ctx], x)
lo, hi = pred.mean - 2 * pred.stddev, pred.mean + 2 * pred.stddev
inside = ((y >= lo) & (y <= hi)).float().mean()
print("coverage of the 2-sigma band", inside.item())
print("mean at contexts", pred.mean[0, ctx, 0], "targets", y[0, ctx, 0])
print("sigma at contexts vs elsewhere", pred.stddev[0, ctx].mean().item(),
      pred.stddev.mean().item())
print("icdf 97.5%", pred.icdf(torch.full_like(pred.mean, 0.975))[0, :3, 0])
