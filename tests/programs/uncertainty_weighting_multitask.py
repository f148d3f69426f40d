# Models: multi-task learning with homoscedastic uncertainty weighting (Kendall et al.) and
# GradNorm-style gradient-norm balancing: learnable log-variances, per-task gradient norms on
# the shared layer via torch.autograd.grad(retain_graph=True), parameters_to_vector /
# vector_to_parameters, and per-task metrics over epochs.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(12)
n = 256
X = torch.randn(n, 8)
w_reg = torch.randn(8)
y_reg = X @ w_reg * 3 + 0.5 * torch.randn(n)
y_cls = (X[:, 0] - X[:, 1] > 0).long()
y_cnt = torch.poisson((X[:, 2].exp() * 0.5).clamp(max=10))


class MTL(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.reg = nn.Linear(16, 1)
        self.cls = nn.Linear(16, 2)
        self.cnt = nn.Linear(16, 1)
        self.log_vars = nn.Parameter(torch.zeros(3))

    def forward(self, x):
        h = self.shared(x)
        return self.reg(h).squeeze(1), self.cls(h), self.cnt(h).squeeze(1)


def task_losses(model, x, yr, yc, yn):
    r, c, k = model(x)
    return torch.stack([F.mse_loss(r, yr), F.cross_entropy(c, yc),
                        F.poisson_nll_loss(k, yn, log_input=True)])


model = MTL()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
shared_w = model.shared[2].weight
init_losses = None
for epoch in range(10):
    perm = torch.randperm(n)
    for idx in perm.split(64):
        losses = task_losses(model, X[idx], y_reg[idx], y_cls[idx], y_cnt[idx])
        if init_losses is None:
            init_losses = losses.detach()
        precision = torch.exp(-model.log_vars)
        total = (precision * losses + model.log_vars).sum()
        norms = torch.stack([torch.autograd.grad(l, shared_w, retain_graph=True)[0].norm()
                             for l in losses])
        opt.zero_grad()
        total.backward()
        opt.step()
    ratios = losses.detach() / init_losses
    print(f"epoch {epoch} losses {[round(v, 5) for v in losses.tolist()]} "
          f"sigma {[round(v, 4) for v in (0.5 * model.log_vars).exp().tolist()]}")
    print("   grad norms", norms.detach(), "ratios", ratios)
with torch.no_grad():
    r, c, k = model(X)
    print("rmse", F.mse_loss(r, y_reg).sqrt().item(), "acc", (c.argmax(1) == y_cls).float().mean())
    dev = 2 * (torch.xlogy(y_cnt, y_cnt / k.exp()) - (y_cnt - k.exp()))
    print("poisson deviance", dev.mean())
vec = parameters_to_vector(model.parameters())
print(vec.shape, vec[:5], vec.norm())
clone = MTL()
vector_to_parameters(vec.detach() * 0 + 0.01, clone.parameters())
print(clone.reg.weight[0, :4], clone.log_vars)
g = torch.autograd.grad(task_losses(model, X[:8], y_reg[:8], y_cls[:8], y_cnt[:8]).sum(),
                        [model.reg.weight, model.cls.bias, model.log_vars], allow_unused=True)
print(g[0].shape, g[1], g[2])
try:
    torch.autograd.grad(model(X[:2])[0].sum(), [model.log_vars])
except RuntimeError as e:
    print("RuntimeError:", e)
