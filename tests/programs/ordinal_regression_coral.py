# Models: ordinal-regression recipes from the coral-pytorch tutorials: CORAL (one shared
# weight vector, K-1 ordered biases, binary cross-entropy on cumulative "y > k" labels),
# CORN-style conditional training, a cumulative-link (proportional odds) model with ordered
# cut-points built from softplus increments, and MAE / exact accuracy of predicted ranks.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
K = 5
n = 300
x = torch.randn(n, 4)
latent = x @ torch.tensor([1.0, -0.5, 0.8, 0.0]) + 0.4 * torch.randn(n)
cuts = torch.tensor([-1.5, -0.5, 0.5, 1.5])
y = torch.bucketize(latent, cuts)
print("rank counts", torch.bincount(y, minlength=K).tolist())


def levels_from_labels(y, K):
    return (y[:, None] > torch.arange(K - 1)[None, :]).float()


print("levels", levels_from_labels(torch.tensor([0, 2, 4]), K))


class Coral(nn.Module):
    def __init__(self, d, K):
        super().__init__()
        self.fc = nn.Linear(d, 1, bias=False)
        self.bias = nn.Parameter(torch.arange(K - 1, 0, -1).float() / (K - 1))

    def forward(self, x):
        return self.fc(x) + self.bias


class CumulativeLink(nn.Module):
    def __init__(self, d, K):
        super().__init__()
        self.fc = nn.Linear(d, 1, bias=False)
        self.first = nn.Parameter(torch.tensor(-1.0))
        self.deltas = nn.Parameter(torch.zeros(K - 2))

    def cutpoints(self):
        return torch.cat([self.first.view(1), self.first + torch.cumsum(F.softplus(self.deltas),
                                                                        0)])

    def forward(self, x):
        eta = self.fc(x)
        cdf = torch.sigmoid(self.cutpoints() - eta)
        cdf = torch.cat([torch.zeros(len(x), 1), cdf, torch.ones(len(x), 1)], 1)
        return (cdf[:, 1:] - cdf[:, :-1]).clamp_min(1e-9)


def report(name, pred):
    mae = (pred - y).abs().float().mean()
    acc = (pred == y).float().mean()
    print(f"{name:10s} MAE {mae.item():.4f} acc {acc.item():.4f} "
          f"confusion diag {torch.bincount(pred[pred == y], minlength=K).tolist()}")


coral = Coral(4, K)
opt = torch.optim.Adam(coral.parameters(), lr=0.05)
for epoch in range(60):
    logits = coral(x)
    loss = F.binary_cross_entropy_with_logits(logits, levels_from_labels(y, K))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 20 == 0:
        print(f"coral epoch {epoch} loss {loss.item():.6f}")
probas = torch.sigmoid(coral(x))
print("rank-consistent biases", coral.bias.detach(),
      bool((coral.bias[1:] <= coral.bias[:-1]).all()))
report("coral", (probas > 0.5).sum(1))

corn = nn.Linear(4, K - 1)
opt = torch.optim.Adam(corn.parameters(), lr=0.05)
for epoch in range(60):
    logits = corn(x)
    loss = 0.0
    for k in range(K - 1):
        mask = y >= k                           # condition on having passed threshold k-1
        loss = loss + F.binary_cross_entropy_with_logits(logits[mask, k], (y[mask] > k).float())
    loss = loss / (K - 1)
    opt.zero_grad()
    loss.backward()
    opt.step()
cond = torch.sigmoid(corn(x))
uncond = torch.cumprod(cond, dim=1)
print(f"corn loss {loss.item():.6f} first rows {uncond[:2].detach()}")
report("corn", (uncond > 0.5).sum(1))

clm = CumulativeLink(4, K)
opt = torch.optim.LBFGS(clm.parameters(), lr=0.5, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    nll = -torch.log(clm(x).gather(1, y[:, None])).mean()
    nll.backward()
    return nll


final = opt.step(closure)
print(f"cumulative-link nll {closure().item():.6f} cutpoints {clm.cutpoints().detach()}")
print("weights", clm.fc.weight.detach(), "state n_iter", opt.state[opt._params[0]]["n_iter"])
report("cum-link", clm(x).argmax(1))
