# Models: a Bayesian ML tutorial on the Laplace approximation: MAP estimate of Bayesian logistic
# regression with Newton's method (gradient and Hessian from torch.autograd.functional), the
# Gaussian posterior from the inverse Hessian, the probit-approximated predictive, log evidence,
# and a comparison with posterior samples by importance weighting.
import math

import torch
from torch.autograd.functional import hessian, jacobian

torch.manual_seed(62)
N, D = 80, 3
X = torch.cat(
    [torch.ones(N, 1, dtype=torch.float64), torch.randn(N, D - 1, dtype=torch.float64)], 1
)
w_true = torch.tensor([-0.5, 2.0, -1.0], dtype=torch.float64)
y = torch.bernoulli(torch.sigmoid(X @ w_true))
prior_var = 4.0


def neg_log_post(w):
    logits = X @ w
    ll = (y * logits - torch.nn.functional.softplus(logits)).sum()
    return -(ll - 0.5 * (w @ w) / prior_var)


w = torch.zeros(D, dtype=torch.float64)
for it in range(15):
    g = jacobian(neg_log_post, w)
    H = hessian(neg_log_post, w)
    step = torch.linalg.solve(H, g)
    w = w - step
    if step.norm() < 1e-10:
        break
print("Newton iterations", it + 1, "MAP", w.numpy().round(6).tolist())
H = hessian(neg_log_post, w)
cov = torch.linalg.inv(H)
print("posterior std", cov.diagonal().sqrt().numpy().round(6).tolist())
print(
    "analytic Hessian check",
    torch.allclose(
        H,
        X.T @ torch.diag(torch.sigmoid(X @ w) * (1 - torch.sigmoid(X @ w))) @ X
        + torch.eye(D, dtype=torch.float64) / prior_var,
    ),
)
log_evidence = (
    -neg_log_post(w)
    + 0.5 * D * math.log(2 * math.pi)
    - 0.5 * torch.logdet(H)
    - 0.5 * D * math.log(2 * math.pi * prior_var)
)
print("Laplace log evidence", round(log_evidence.item(), 6))
Xt = torch.tensor([[1.0, 0.0, 0.0], [1.0, 1.0, -1.0], [1.0, -2.0, 0.5]], dtype=torch.float64)
mu = Xt @ w
var = ((Xt @ cov) * Xt).sum(1)
kappa = 1 / torch.sqrt(1 + math.pi * var / 8)
print("MAP predictive", torch.sigmoid(mu).numpy().round(6).tolist())
print("probit-moderated predictive", torch.sigmoid(kappa * mu).numpy().round(6).tolist())
q = torch.distributions.MultivariateNormal(w, covariance_matrix=cov)
samples = q.sample((4000,))
logp = -torch.stack([neg_log_post(s) for s in samples[:400]])
logq = q.log_prob(samples[:400])
lw = logp - logq
weights = torch.softmax(lw, 0)
ess = 1 / (weights**2).sum()
print("importance ESS of 400", round(ess.item(), 2))
mc_pred = torch.sigmoid(samples @ Xt.T).mean(0)
print("Monte Carlo predictive", mc_pred.numpy().round(3).tolist())
print(
    "importance-weighted posterior mean",
    (weights[:, None] * samples[:400]).sum(0).numpy().round(3).tolist(),
)
