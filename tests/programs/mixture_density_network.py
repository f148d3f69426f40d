# Models: Bishop's mixture density network as in public MDN notebooks: the inverse-sine
# problem (a multi-valued mapping), a network emitting mixture logits, means and log-stddevs,
# the negative log-likelihood written with logsumexp and checked against
# torch.distributions.MixtureSameFamily, sampling predictions, and mode/mean summaries.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, MixtureSameFamily, Normal

torch.manual_seed(0)
N, K = 300, 2
y = torch.rand(N, 1) * 2 - 1
x = y + 0.3 * torch.sin(2 * math.pi * y) + 0.05 * torch.randn(N, 1)
print("data:", tuple(x.shape), x.min(), x.max())


class MDN(nn.Module):
    def __init__(self, hidden=24, k=K):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.pi = nn.Linear(hidden, k)
        self.mu = nn.Linear(hidden, k)
        self.log_sigma = nn.Linear(hidden, k)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.mu(h), self.log_sigma(h).clamp(-3, 3)


def mdn_nll(logits, mu, log_sigma, target):
    log_pi = F.log_softmax(logits, dim=-1)
    z = (target - mu) / log_sigma.exp()
    log_prob = -0.5 * z**2 - log_sigma - 0.5 * math.log(2 * math.pi)
    return -torch.logsumexp(log_pi + log_prob, dim=-1).mean()


def as_distribution(logits, mu, log_sigma):
    return MixtureSameFamily(Categorical(logits=logits), Normal(mu, log_sigma.exp()))


model = MDN()
logits, mu, ls = model(x[:4])
dist = as_distribution(logits, mu, ls)
print(dist.batch_shape, dist.event_shape, dist.mixture_distribution.probs.shape)
print(
    "hand-written vs distributions NLL:",
    mdn_nll(logits, mu, ls, y[:4]),
    -dist.log_prob(y[:4, 0]).mean(),
)

opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(60):
    perm = torch.randperm(N)
    for i in range(0, N, 100):
        idx = perm[i : i + 100]
        loss = mdn_nll(*model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 20 == 19:
        print(f"epoch {epoch + 1} nll {loss.item():.4f}")

with torch.no_grad():
    xs = torch.tensor([[-0.8], [0.0], [0.5], [0.9]])
    logits, mu, ls = model(xs)
    pi = logits.softmax(-1)
    print("mixture weights:\n", pi)
    print("component means:\n", mu)
    print("sigmas:\n", ls.exp())
    dist = as_distribution(logits, mu, ls)
    print("mixture mean:", dist.mean, "variance:", dist.variance)
    best = pi.argmax(-1, keepdim=True)
    print("mode component means:", mu.gather(1, best).squeeze(1))
    samples = dist.sample((5,))
    print("samples:", samples.shape, samples[:, 1])
    comp = Categorical(probs=pi).sample()
    eps = torch.randn(4)
    manual = (
        mu.gather(1, comp[:, None]).squeeze(1) + ls.exp().gather(1, comp[:, None]).squeeze(1) * eps
    )
    print("manual sample:", comp.tolist(), manual)
    print("cdf at the mean:", dist.cdf(dist.mean))
    total_nll = mdn_nll(*model(x), y)
    print(
        "full-data NLL:",
        total_nll,
        "unimodal Gaussian NLL:",
        -Normal(y.mean(), y.std()).log_prob(y).mean(),
    )
