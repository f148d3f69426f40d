# Models: an uncertainty-estimation tutorial: a mean-variance network trained with
# GaussianNLLLoss (heteroscedastic noise), count data fitted with PoissonNLLLoss (log_input
# True/False, full Stirling term), and robust regression with HuberLoss vs SmoothL1Loss vs
# MSELoss on data with outliers; printing predicted variances and coverage.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

x = torch.linspace(-3, 3, 120).unsqueeze(1)
noise_std = 0.1 + 0.3 * (x + 3) / 6
y = torch.sin(x) + noise_std * torch.randn_like(x)


class MeanVar(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
        self.mean = nn.Linear(32, 1)
        self.log_var = nn.Linear(32, 1)

    def forward(self, x):
        h = self.body(x)
        return self.mean(h), self.log_var(h).exp()


model = MeanVar()
crit = nn.GaussianNLLLoss(eps=1e-6)
print(crit, crit.full, crit.eps)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(150):
    opt.zero_grad()
    mu, var = model(x)
    loss = crit(mu, y, var)
    loss.backward()
    opt.step()
    if epoch % 50 == 49:
        print(f"epoch {epoch + 1} gaussian nll {loss.item():.3f}")
with torch.no_grad():
    mu, var = model(x)
    std = var.sqrt()
    print("predicted std at x=-3,0,3:", std[[0, 60, 119]].squeeze(1))
    inside = ((y - mu).abs() < 2 * std).float().mean()
    print(f"2-sigma coverage {inside.item():.2f}")
print(F.gaussian_nll_loss(torch.zeros(3), torch.ones(3), torch.full((3,), 0.5), full=True))

# Poisson regression on counts
rate_true = torch.exp(0.5 + 0.8 * x)
counts = torch.poisson(rate_true)
print("counts", counts[:8].flatten(), counts.sum().item())
lin = nn.Linear(1, 1)
opt = torch.optim.SGD(lin.parameters(), lr=0.005)
pois = nn.PoissonNLLLoss(log_input=True)
for _ in range(300):
    opt.zero_grad()
    loss = pois(lin(x), counts)
    loss.backward()
    opt.step()
print(f"poisson nll {loss.item():.4f} w {lin.weight.item():.3f} b {lin.bias.item():.3f}")
rates = torch.tensor([0.5, 2.0, 4.0])
obs = torch.tensor([0.0, 3.0, 5.0])
print(nn.PoissonNLLLoss(log_input=False, full=True, reduction="none")(rates, obs))
print(nn.PoissonNLLLoss(log_input=True, full=True, reduction="sum")(rates.log(), obs))

# robust regression with outliers
torch.manual_seed(3)
xr = torch.randn(80, 1)
yr = 2 * xr + 1 + 0.1 * torch.randn(80, 1)
yr[::10] += 8.0
for name, crit in [
    ("mse", nn.MSELoss()),
    ("smoothl1", nn.SmoothL1Loss(beta=0.5)),
    ("huber", nn.HuberLoss(delta=0.5)),
]:
    torch.manual_seed(4)
    reg = nn.Linear(1, 1)
    opt = torch.optim.SGD(reg.parameters(), lr=0.1)
    for _ in range(200):
        opt.zero_grad()
        loss = crit(reg(xr), yr)
        loss.backward()
        opt.step()
    print(f"{name:8s} loss {loss.item():.4f} w {reg.weight.item():.3f} b {reg.bias.item():.3f}")
d = torch.tensor([-2.0, -0.3, 0.0, 0.4, 1.5], requires_grad=True)
h = F.huber_loss(d, torch.zeros(5), reduction="none", delta=1.0)
s = F.smooth_l1_loss(d, torch.zeros(5), reduction="none", beta=1.0)
print(h, s)
(h.sum() + 2 * s.sum()).backward()
print(d.grad)
