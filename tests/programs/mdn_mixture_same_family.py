# Models: a mixture density network written with torch.distributions as recent tutorials do:
# MixtureSameFamily over Categorical logits and full-covariance MultivariateNormal components
# whose scale_tril comes from the network (tril_indices, softplus diagonal), trained by NLL on
# a multi-modal inverse problem, then sampled, with mean/variance/entropy-style summaries.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import (
    Categorical,
    Independent,
    MixtureSameFamily,
    MultivariateNormal,
    Normal,
)

torch.manual_seed(19)
n = 400
y1 = torch.rand(n) * 2 - 1
x = torch.sin(3 * y1) + 0.3 * y1 + 0.05 * torch.randn(n)
y = torch.stack([y1, y1 ** 2 + 0.05 * torch.randn(n)], 1)
x = x[:, None]
K, D = 4, 2
tril = torch.tril_indices(D, D)
print("tril indices", tril)


class MDN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 48), nn.Tanh(), nn.Linear(48, 48), nn.Tanh())
        self.logits = nn.Linear(48, K)
        self.mu = nn.Linear(48, K * D)
        self.L = nn.Linear(48, K * tril.shape[1])

    def forward(self, x):
        h = self.body(x)
        b = x.shape[0]
        L = torch.zeros(b, K, D, D)
        L[:, :, tril[0], tril[1]] = self.L(h).view(b, K, -1)
        diag = torch.arange(D)
        L[:, :, diag, diag] = F.softplus(L[:, :, diag, diag]) + 1e-3
        comp = MultivariateNormal(self.mu(h).view(b, K, D), scale_tril=L)
        return MixtureSameFamily(Categorical(logits=self.logits(h)), comp)


model = MDN()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(120):
    idx = torch.randint(0, n, (100,))
    dist = model(x[idx])
    loss = -dist.log_prob(y[idx]).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0 or step == 119:
        print(f"step {step:3d} nll {loss.item():.5f}")
with torch.no_grad():
    xs = torch.tensor([[-0.8], [0.0], [0.5]])
    dist = model(xs)
    print(dist.batch_shape, dist.event_shape)
    print("weights", dist.mixture_distribution.probs)
    print("means", dist.component_distribution.mean)
    print("mixture mean", dist.mean, "\nvariance", dist.variance)
    torch.manual_seed(0)
    s = dist.sample((5,))
    print(s.shape, s[:, 0])
    print(dist.log_prob(s).shape, dist.log_prob(s)[0])
    cov = dist.component_distribution.covariance_matrix
    print(cov[0], torch.linalg.eigvalsh(cov[0]).min())
    best = dist.mixture_distribution.probs.argmax(-1)
    print("argmax component", best, dist.component_distribution.mean[torch.arange(3), best])
uni = MixtureSameFamily(Categorical(probs=torch.tensor([0.3, 0.7])),
                        Normal(torch.tensor([-1.0, 2.0]), torch.tensor([0.5, 1.0])))
pts = torch.tensor([-1.0, 0.0, 2.0])
print(uni.log_prob(pts), uni.cdf(pts), uni.mean, uni.variance)
ind = MixtureSameFamily(Categorical(logits=torch.zeros(3)),
                        Independent(Normal(torch.randn(3, 2), torch.ones(3, 2)), 1))
print(ind, ind.log_prob(torch.zeros(2)))
print(Categorical(logits=torch.tensor([1.0, 2.0, 3.0])).entropy(),
      Categorical(probs=torch.tensor([0.2, 0.8])).logits)
