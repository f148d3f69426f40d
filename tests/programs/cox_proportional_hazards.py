# Models: survival-analysis code (pycox / lifelines style) in torch: the Cox proportional
# hazards negative partial log-likelihood with Breslow ties computed by sorting times
# descending and logcumsumexp, right-censored synthetic data from a Weibull model, fitting a
# linear Cox model (checked against the true coefficients) and a small DeepSurv MLP, the
# concordance index, the Breslow baseline cumulative hazard and survival curves.
import torch
import torch.nn as nn

torch.manual_seed(0)
BETA = torch.tensor([0.8, -0.5, 0.0, 0.3])


def simulate(n, g):
    x = torch.randn(n, 4, generator=g)
    u = torch.rand(n, generator=g)
    lam, k = 0.1, 1.5
    t = (-torch.log(u) / (lam * torch.exp(x @ BETA))) ** (1 / k)
    c = torch.empty(n).uniform_(0, 15, generator=g)
    return x, torch.minimum(t, c), (t <= c).float()


def cox_nll(risk, time, event):
    order = torch.argsort(time, descending=True)
    r, e = risk[order], event[order]
    log_cum = torch.logcumsumexp(r, 0)
    return -((r - log_cum) * e).sum() / e.sum().clamp(min=1)


def concordance(risk, time, event):
    dt = time[:, None] < time[None]
    comparable = dt & (event[:, None] == 1)
    concordant = (risk[:, None] > risk[None]).float() + 0.5 * (risk[:, None] == risk[None]).float()
    return ((concordant * comparable).sum() / comparable.sum()).item()


g = torch.Generator().manual_seed(3)
x, time, event = simulate(400, g)
xt, tt, et = simulate(200, g)
print(f"events {int(event.sum())} / {len(event)}, median time {time.median().item():.4f}")

lin = nn.Linear(4, 1, bias=False)
nn.init.zeros_(lin.weight)
opt = torch.optim.LBFGS(lin.parameters(), lr=1, max_iter=100, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = cox_nll(lin(x).squeeze(1), time, event)
    loss.backward()
    return loss


opt.step(closure)
print("Cox coefficients:", lin.weight.detach()[0], "true:", BETA)
c_lin = concordance(lin(xt).squeeze(1).detach(), tt, et)
print(f"train nll {closure().item():.6f} test C-index {c_lin:.4f}")

deep = nn.Sequential(nn.Linear(4, 16), nn.SELU(), nn.AlphaDropout(0.1), nn.Linear(16, 1))
adam = torch.optim.Adam(deep.parameters(), lr=5e-3, weight_decay=1e-4)
for epoch in range(100):
    deep.train()
    loss = cox_nll(deep(x).squeeze(1), time, event)
    adam.zero_grad()
    loss.backward()
    adam.step()
    if epoch % 25 == 24:
        deep.eval()
        with torch.no_grad():
            c = concordance(deep(xt).squeeze(1), tt, et)
        print(f"DeepSurv epoch {epoch + 1} nll {loss.item():.6f} test C-index {c:.4f}")

with torch.no_grad():
    risk = torch.exp(lin(x).squeeze(1))
uniq = torch.unique(time[event == 1])
at_risk = (time[None] >= uniq[:, None]).float() @ risk
deaths = ((time[None] == uniq[:, None]) & (event[None] == 1)).float().sum(1)
H0 = torch.cumsum(deaths / at_risk, 0)
grid = torch.tensor([1.0, 3.0, 6.0, 10.0])
idx = torch.searchsorted(uniq, grid, right=True) - 1
H_grid = torch.where(idx >= 0, H0[idx.clamp(min=0)], torch.zeros(()))
print("baseline cumulative hazard at", grid.tolist(), ":", H_grid)
profiles = torch.tensor([[1.0, 0, 0, 0], [0, 0, 0, 0], [-1.0, 0, 0, 0]])
with torch.no_grad():
    surv = torch.exp(-H_grid[None] * torch.exp(lin(profiles)))
print("survival curves (rows: x0 = 1, 0, -1):\n", surv)
