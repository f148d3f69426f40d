# Models: uncertainty-estimation recipes from public notebooks: MC dropout (model.train() at test
# time, stacking T stochastic passes, predictive entropy and mutual information for a
# classifier), deep evidential regression (Normal-Inverse-Gamma head with softplus, the NIG
# negative log-likelihood with lgamma and the evidence regulariser), and aleatoric/epistemic
# splits.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# ---- MC dropout classifier -------------------------------------------------------------------
X = torch.randn(200, 2)
y = ((X[:, 0] * X[:, 1]) > 0).long()
clf = nn.Sequential(
    nn.Linear(2, 64),
    nn.ReLU(),
    nn.Dropout(0.2),
    nn.Linear(64, 64),
    nn.ReLU(),
    nn.Dropout(0.2),
    nn.Linear(64, 2),
)
opt = torch.optim.Adam(clf.parameters(), lr=0.01)
for epoch in range(60):
    loss = F.cross_entropy(clf(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"classifier loss {loss.item():.4f}")


def enable_dropout(model):
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.train()


clf.eval()
enable_dropout(clf)
print("modes:", [m.training for m in clf.modules()])
queries = torch.tensor([[1.5, 1.5], [-1.5, 1.5], [0.05, -0.05], [4.0, 4.0]])
with torch.no_grad():
    probs = torch.stack([F.softmax(clf(queries), -1) for _ in range(30)])
mean = probs.mean(0)
entropy = -(mean * mean.clamp_min(1e-12).log()).sum(-1)
expected_entropy = -(probs * probs.clamp_min(1e-12).log()).sum(-1).mean(0)
print("MC mean probs:\n", mean)
print("predictive entropy:", entropy)
print("mutual information:", entropy - expected_entropy)
clf.eval()
with torch.no_grad():
    a, b = clf(queries), clf(queries)
print("deterministic in eval:", torch.equal(a, b))

# ---- deep evidential regression --------------------------------------------------------------
torch.manual_seed(1)
x = torch.linspace(-3, 3, 120).unsqueeze(1)
yr = torch.sin(2 * x) + 0.2 * torch.randn_like(x)
train = x.abs().squeeze(1) < 2


class NormalInvGamma(nn.Module):
    def __init__(self, fin):
        super().__init__()
        self.lin = nn.Linear(fin, 4)

    def forward(self, h):
        gamma, lognu, logalpha, logbeta = self.lin(h).chunk(4, dim=-1)
        nu, beta = F.softplus(lognu), F.softplus(logbeta)
        alpha = F.softplus(logalpha) + 1
        return gamma, nu, alpha, beta


def nig_nll(y, gamma, nu, alpha, beta):
    omega = 2 * beta * (1 + nu)
    return (
        0.5 * torch.log(math.pi / nu)
        - alpha * torch.log(omega)
        + (alpha + 0.5) * torch.log(nu * (y - gamma) ** 2 + omega)
        + torch.lgamma(alpha)
        - torch.lgamma(alpha + 0.5)
    )


def nig_reg(y, gamma, nu, alpha):
    return (y - gamma).abs() * (2 * nu + alpha)


net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), NormalInvGamma(32))
opt = torch.optim.Adam(net.parameters(), lr=5e-3)
for epoch in range(150):
    gamma, nu, alpha, beta = net(x[train])
    loss = (
        nig_nll(yr[train], gamma, nu, alpha, beta) + 0.01 * nig_reg(yr[train], gamma, nu, alpha)
    ).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 50 == 49:
        print(f"evidential epoch {epoch + 1} loss {loss.item():.4f}")
with torch.no_grad():
    pts = torch.tensor([[-2.8], [-1.0], [0.0], [1.0], [2.8]])
    gamma, nu, alpha, beta = net(pts)
    aleatoric = beta / (alpha - 1)
    epistemic = beta / (nu * (alpha - 1))
    print("prediction:", gamma.squeeze(1))
    print("aleatoric: ", aleatoric.squeeze(1))
    print("epistemic: ", epistemic.squeeze(1))
    print("lgamma/digamma:", torch.lgamma(alpha[:2, 0]), torch.digamma(alpha[:2, 0]))
