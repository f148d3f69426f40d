# Models: a forecasting tutorial on quantile regression: a small MLP trained with the pinball loss
# for several quantiles at once on heteroscedastic data, empirical coverage of the predicted
# intervals, quantile crossing counts, a linear quantile regression solved with subgradient
# descent compared with torch.quantile on binned data.
import torch
import torch.nn as nn

torch.manual_seed(48)
n = 400
x = torch.rand(n, 1) * 4 - 2
y = torch.sin(1.5 * x) + (0.1 + 0.3 * x.abs()) * torch.randn(n, 1)
qs = torch.tensor([0.1, 0.5, 0.9])


def pinball(pred, target, q):
    diff = target - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()


net = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for epoch in range(301):
    pred = net(x)
    loss = pinball(pred, y, qs)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 100 == 0:
        print(f"epoch {epoch} pinball {loss.item():.5f}")
with torch.no_grad():
    pred = net(x)
    cover = ((y >= pred[:, :1]) & (y <= pred[:, 2:])).float().mean()
    below = (y < pred).float().mean(0)
    crossings = (pred[:, 0] > pred[:, 1]).sum() + (pred[:, 1] > pred[:, 2]).sum()
print(
    "80% interval coverage",
    round(cover.item(), 4),
    "fraction below each quantile",
    below.numpy().round(3).tolist(),
    "crossings",
    crossings.item(),
)
xt = torch.tensor([[-1.5], [0.0], [1.5]])
with torch.no_grad():
    print("predicted quantiles\n", net(xt))
X = torch.cat([torch.ones(n, 1), x], 1)
for q in [0.1, 0.5, 0.9]:
    beta = torch.zeros(2, requires_grad=True)
    sgd = torch.optim.SGD([beta], lr=0.05)
    for it in range(500):
        l = pinball(X @ beta, y.squeeze(), q)
        sgd.zero_grad()
        l.backward()
        sgd.step()
    print(
        f"linear q={q}: intercept {beta[0].item():+.4f} slope {beta[1].item():+.4f} loss "
        f"{l.item():.5f}"
    )
bins = torch.bucketize(x.squeeze(), torch.tensor([-1.0, 0.0, 1.0]))
for b in range(4):
    yb = y.squeeze()[bins == b]
    print(
        f"bin {b}: n={yb.numel()} quantiles {torch.quantile(yb, qs).numpy().round(4).tolist()} "
        f"interp=lower {torch.quantile(yb, qs, interpolation='lower').numpy().round(4).tolist()}"
    )
