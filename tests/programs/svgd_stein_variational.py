# Models: Stein variational gradient descent: a set of particles moved by an RBF-kernel
# smoothed score toward a 2-D Gaussian mixture, bandwidth by the median heuristic.
import math

import torch
from torch.distributions import Categorical, MixtureSameFamily, MultivariateNormal

torch.manual_seed(0)
means = torch.tensor([[-2.0, 0.0], [2.0, 0.0], [0.0, 2.5]])
covs = torch.stack([torch.eye(2) * 0.5, torch.tensor([[0.6, 0.2], [0.2, 0.4]]), torch.eye(2) * 0.3])
target = MixtureSameFamily(
    Categorical(probs=torch.tensor([0.3, 0.5, 0.2])),
    MultivariateNormal(means, covariance_matrix=covs),
)
print(target.batch_shape, target.event_shape)


def rbf_kernel(x):
    sq = torch.cdist(x, x) ** 2
    h = torch.median(torch.pdist(x)) ** 2 / math.log(x.shape[0] + 1)
    K = torch.exp(-sq / h)
    grad_K = (2.0 / h) * (K.sum(1, keepdim=True) * x - K @ x)
    return K, grad_K, h


def score(x):
    x = x.detach().requires_grad_(True)
    logp = target.log_prob(x).sum()
    (g,) = torch.autograd.grad(logp, x)
    return g


particles = torch.randn(60, 2) * 0.5 + torch.tensor([0.0, -3.0])
opt = torch.optim.Adagrad([particles.requires_grad_()], lr=0.5)
for step in range(151):
    with torch.no_grad():
        K, grad_K, h = rbf_kernel(particles)
    phi = (K @ score(particles) + grad_K) / particles.shape[0]
    opt.zero_grad()
    particles.grad = -phi
    opt.step()
    if step % 30 == 0:
        with torch.no_grad():
            ll = target.log_prob(particles).mean()
        print(f"step {step:3d} mean log p {ll:.4f} bandwidth {h:.4f}")
with torch.no_grad():
    p = particles.detach()
    assign = torch.cdist(p, means).argmin(1)
    print("particles per mode", torch.bincount(assign, minlength=3).tolist())
    print("particle mean", p.mean(0), "target mean", target.mean)
    print("particle cov\n", torch.cov(p.T))
    exact = target.sample((20000,))
    print("target cov (MC)\n", torch.cov(exact.T))
    print("min pairwise distance", torch.pdist(p).min())
