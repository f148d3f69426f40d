# Models: uncertainty estimation for tabular regression: MC dropout (dropout left on at test
# time by re-enabling Dropout modules), a small deep ensemble with different seeds, the
# predictive mean/variance decomposition, and the Gaussian NLL and interval coverage.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.linspace(-3, 3, 60)[:, None]
y = torch.sin(x) + 0.1 * torch.randn_like(x) * (1 + x.abs())


def make(seed):
    torch.manual_seed(seed)
    return nn.Sequential(
        nn.Linear(1, 32),
        nn.ReLU(),
        nn.Dropout(0.1),
        nn.Linear(32, 32),
        nn.ReLU(),
        nn.Dropout(0.1),
        nn.Linear(32, 1),
    )


def train(m):
    opt = torch.optim.Adam(m.parameters(), lr=0.01, weight_decay=1e-4)
    for ep in range(150):
        loss = F.mse_loss(m(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


models = [make(s) for s in range(3)]
print([round(train(m), 5) for m in models])


def enable_dropout(model):
    for m in model.modules():
        if m.__class__.__name__.startswith("Dropout"):
            m.train()


xt = torch.tensor([[-4.0], [0.0], [2.5], [5.0]])
m0 = models[0].eval()
enable_dropout(m0)
print(m0[2].training, m0[0].training)
torch.manual_seed(123)
with torch.no_grad():
    samples = torch.stack([m0(xt) for _ in range(50)])
print(samples.mean(0).squeeze(), samples.std(0).squeeze())
with torch.no_grad():
    ens = torch.stack([m.eval()(xt) for m in models])
print(ens.squeeze(-1))
mu, var = ens.mean(0), ens.var(0, unbiased=False)
print(mu.squeeze(), var.squeeze())
with torch.no_grad():
    preds = torch.stack([m.eval()(x) for m in models])
mu_tr, sd_tr = preds.mean(0), preds.std(0) + 0.1
print("nll", F.gaussian_nll_loss(mu_tr, y, sd_tr**2, full=True).item())
print("coverage", ((y - mu_tr).abs() < 1.96 * sd_tr).float().mean().item())
