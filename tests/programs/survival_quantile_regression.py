# Models: statistical-learning losses written in PyTorch (DeepSurv, quantile-regression and
# expectile notebooks): the Cox partial likelihood with risk sets via sort + logcumsumexp,
# Breslow-style ties ignored, the concordance index, pinball loss for several quantiles with
# monotone outputs from cumulative softplus, interval coverage, and torch.quantile checks.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# ---- DeepSurv --------------------------------------------------------------------------------
N, D = 120, 4
X = torch.randn(N, D)
beta = torch.tensor([1.0, -0.5, 0.0, 0.25])
hazard = torch.exp(X @ beta)
t_event = torch.distributions.Exponential(hazard).sample()
t_censor = torch.distributions.Exponential(torch.full((N,), 0.3)).sample()
time = torch.minimum(t_event, t_censor)
event = (t_event <= t_censor).float()
print("events:", int(event.sum().item()), "of", N, "median time:", time.median())


def cox_ph_loss(log_h, time, event, eps=1e-7):
    order = torch.argsort(time, descending=True)
    log_h, event = log_h[order], event[order]
    log_risk = torch.logcumsumexp(log_h, dim=0)
    return -((log_h - log_risk) * event).sum() / event.sum().clamp_min(eps)


def concordance_index(time, pred_risk, event):
    dt = time[:, None] < time[None, :]
    comparable = dt & (event[:, None] == 1)
    concordant = (pred_risk[:, None] > pred_risk[None, :]) & comparable
    ties = (pred_risk[:, None] == pred_risk[None, :]) & comparable
    return (concordant.sum() + 0.5 * ties.sum()) / comparable.sum()


print("c-index of the true risk:", concordance_index(time, X @ beta, event))
print("loss of the true risk:", cox_ph_loss(X @ beta, time, event))
net = nn.Sequential(nn.Linear(D, 16), nn.SELU(), nn.AlphaDropout(0.1), nn.Linear(16, 1, bias=False))
opt = torch.optim.Adam(net.parameters(), lr=0.01, weight_decay=1e-4)
for epoch in range(60):
    net.train()
    loss = cox_ph_loss(net(X).squeeze(-1), time, event)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 20 == 19:
        net.eval()
        with torch.no_grad():
            ci = concordance_index(time, net(X).squeeze(-1), event)
        print(f"epoch {epoch + 1} cox loss {loss.item():.4f} c-index {ci.item():.4f}")

# ---- quantile regression ---------------------------------------------------------------------
torch.manual_seed(1)
QUANTILES = torch.tensor([0.1, 0.5, 0.9])
x = torch.rand(400, 1) * 4 - 2
y = torch.sin(2 * x) + (0.1 + 0.3 * x.abs()) * torch.randn_like(x)


def pinball_loss(pred, target, q):
    err = target - pred
    return torch.max(q * err, (q - 1) * err).mean()


class MonotoneQuantiles(nn.Module):
    def __init__(self, n_q=3, hidden=32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(1, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, n_q),
        )

    def forward(self, x):
        raw = self.body(x)
        return torch.cat([raw[:, :1], raw[:, :1] + F.softplus(raw[:, 1:]).cumsum(1)], 1)


model = MonotoneQuantiles()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(150):
    pred = model(x)
    loss = pinball_loss(pred, y, QUANTILES)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 50 == 49:
        print(f"epoch {epoch + 1} pinball {loss.item():.5f}")
with torch.no_grad():
    pred = model(x)
    coverage = ((y >= pred[:, :1]) & (y <= pred[:, 2:])).float().mean()
    below = (y < pred).float().mean(0)
    print("80% interval coverage:", coverage, "fraction below each quantile:", below)
    print("monotone:", bool((pred[:, 1:] >= pred[:, :-1]).all()))
    grid = torch.tensor([[-1.5], [0.0], [1.5]])
    print("quantiles at -1.5/0/1.5:\n", model(grid))

v = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
for interp in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(interp, torch.quantile(v, QUANTILES, interpolation=interp))
print(
    torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5),
    torch.quantile(v.view(2, 4), 0.5, dim=1, keepdim=True),
)
