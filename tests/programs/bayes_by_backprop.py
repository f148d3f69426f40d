# Models: Bayes-by-Backprop (Blundell et al.) as in public "Bayesian neural network from
# scratch" tutorials: a BayesianLinear layer with mean and rho parameters, softplus scales, the
# local reparameterisation-free weight sampling, a scale-mixture prior, the closed-form KL to a
# Normal prior via torch.distributions.kl_divergence, the ELBO over minibatches, and predictive
# mean/std from repeated stochastic forward passes.

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence

torch.manual_seed(0)


class ScaleMixturePrior:
    def __init__(self, pi=0.5, sigma1=1.0, sigma2=0.0025):
        self.pi = pi
        self.n1, self.n2 = Normal(0.0, sigma1), Normal(0.0, sigma2)

    def log_prob(self, w):
        p1 = torch.exp(self.n1.log_prob(w))
        p2 = torch.exp(self.n2.log_prob(w))
        return torch.log(self.pi * p1 + (1 - self.pi) * p2 + 1e-30).sum()


class BayesianLinear(nn.Module):
    def __init__(self, fin, fout, prior_sigma=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(fout, fin).uniform_(-0.2, 0.2))
        self.w_rho = nn.Parameter(torch.full((fout, fin), -5.0))
        self.b_mu = nn.Parameter(torch.zeros(fout))
        self.b_rho = nn.Parameter(torch.full((fout,), -5.0))
        self.prior = Normal(0.0, prior_sigma)
        self.mixture = ScaleMixturePrior()

    def forward(self, x, sample=True):
        if not sample:
            return F.linear(x, self.w_mu, self.b_mu)
        w_sigma, b_sigma = F.softplus(self.w_rho), F.softplus(self.b_rho)
        w = self.w_mu + w_sigma * torch.randn_like(w_sigma)
        b = self.b_mu + b_sigma * torch.randn_like(b_sigma)
        self.log_q = (
            Normal(self.w_mu, w_sigma).log_prob(w).sum()
            + Normal(self.b_mu, b_sigma).log_prob(b).sum()
        )
        self.log_p = self.mixture.log_prob(w) + self.mixture.log_prob(b)
        return F.linear(x, w, b)

    def kl(self):
        qw = Normal(self.w_mu, F.softplus(self.w_rho))
        qb = Normal(self.b_mu, F.softplus(self.b_rho))
        return kl_divergence(qw, self.prior).sum() + kl_divergence(qb, self.prior).sum()


class BNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = BayesianLinear(1, 32), BayesianLinear(32, 1)

    def forward(self, x, sample=True):
        return self.l2(torch.relu(self.l1(x, sample)), sample)

    def kl(self):
        return self.l1.kl() + self.l2.kl()


x = torch.cat([torch.linspace(-2, -0.5, 40), torch.linspace(0.5, 2, 40)]).unsqueeze(1)
y = x.pow(3) * 0.5 + 0.1 * torch.randn_like(x)
model = BNN()
print(model.l1.prior, "kl at init:", model.kl())
out = model(x[:3])
print("sampled forward:", out.squeeze(1), "log q / log p:", model.l1.log_q, model.l1.log_p)
print("softplus(-5):", F.softplus(torch.tensor(-5.0)), "kl grad_fn:", model.kl().grad_fn.name())

opt = torch.optim.Adam(model.parameters(), lr=0.01)
n_batches = 4
for epoch in range(80):
    perm = torch.randperm(len(x))
    for i in range(n_batches):
        idx = perm[i * 20 : (i + 1) * 20]
        pred = model(x[idx])
        nll = -Normal(pred, 0.1).log_prob(y[idx]).sum()
        loss = model.kl() / n_batches / len(x) + nll / len(x)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 20 == 19:
        print(f"epoch {epoch + 1} elbo loss {loss.item():.4f} kl {model.kl().item():.2f}")

with torch.no_grad():
    grid = torch.tensor([[-3.0], [-1.0], [0.0], [1.0], [3.0]])
    samples = torch.stack([model(grid) for _ in range(50)])
    print("predictive mean:", samples.mean(0).squeeze(1))
    print("predictive std: ", samples.std(0).squeeze(1))
    print("mean-weights prediction:", model(grid, sample=False).squeeze(1))
    sig = F.softplus(model.l1.w_rho)
    print("posterior sigma range:", sig.min(), sig.max())
    snr = (model.l1.w_mu.abs() / sig).flatten()
    print("signal-to-noise quantiles:", torch.quantile(snr, torch.tensor([0.1, 0.5, 0.9])))
