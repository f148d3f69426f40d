# Models: the classical generative classifiers of an ML course, written in tensors: Gaussian
# naive Bayes from per-class means and variances, multinomial naive Bayes on word counts
# with Laplace smoothing, and a Gaussian mixture fitted by expectation-maximisation with
# full covariances (responsibilities by logsumexp over MultivariateNormal log-densities),
# with the log-likelihood printed every few iterations.
import math

import torch
from torch.distributions import MultivariateNormal

torch.manual_seed(3)
means = torch.tensor([[0.0, 0.0], [3.0, 1.0], [0.5, 3.5]])
scales = torch.tensor([[1.0, 0.6], [0.7, 1.2], [0.9, 0.5]])
labels = torch.randint(0, 3, (300,))
X = means[labels] + scales[labels] * torch.randn(300, 2)
train, test = slice(0, 200), slice(200, 300)
print("class counts", torch.bincount(labels[train]))

mu = torch.stack([X[train][labels[train] == c].mean(0) for c in range(3)])
var = torch.stack([X[train][labels[train] == c].var(0, unbiased=False) for c in range(3)]) + 1e-9
prior = torch.bincount(labels[train]).float() / 200
print("means\n", mu, "\nvariances\n", var)
log_like = -0.5 * (
    torch.log(2 * math.pi * var)[None] + (X[test][:, None, :] - mu[None]) ** 2 / var[None]
).sum(-1)
log_post = log_like + prior.log()
pred = log_post.argmax(1)
print("gaussian NB accuracy", (pred == labels[test]).float().mean().item())
print("posterior of first test point", torch.softmax(log_post[0], 0))

vocab = 12
topic_words = torch.softmax(torch.randn(3, vocab) * 1.5, dim=1)
doc_labels = torch.randint(0, 3, (90,))
counts = torch.stack(
    [
        torch.multinomial(topic_words[c], 30, replacement=True).bincount(minlength=vocab)
        for c in doc_labels
    ]
)
print("count matrix", counts.shape, counts.dtype, counts.sum(1)[:5])
alpha = 1.0
class_counts = torch.zeros(3, vocab).index_add_(0, doc_labels[:60], counts[:60].float())
theta = (class_counts + alpha) / (class_counts.sum(1, keepdim=True) + alpha * vocab)
log_prior = torch.log(torch.bincount(doc_labels[:60], minlength=3).float() / 60)
scores = counts[60:].float() @ theta.log().T + log_prior
print("multinomial NB accuracy", (scores.argmax(1) == doc_labels[60:]).float().mean().item())
print("top words per class", theta.topk(3, dim=1).indices.tolist())

K = 3
Xd = X.double()
pi = torch.full((K,), 1.0 / K, dtype=torch.float64)
centers = Xd[torch.randperm(len(Xd))[:K]].clone()
covs = torch.eye(2, dtype=torch.float64).repeat(K, 1, 1)
prev = -float("inf")
for it in range(100):
    comp = MultivariateNormal(centers, covariance_matrix=covs)
    logp = comp.log_prob(Xd[:, None, :]) + pi.log()
    ll = torch.logsumexp(logp, dim=1).sum()
    resp = torch.softmax(logp, dim=1)
    Nk = resp.sum(0)
    pi = Nk / len(Xd)
    centers = (resp.T @ Xd) / Nk[:, None]
    diff = Xd[:, None, :] - centers[None]
    covs = torch.einsum("nk,nki,nkj->kij", resp, diff, diff) / Nk[:, None, None]
    covs = covs + 1e-6 * torch.eye(2, dtype=torch.float64)
    if it % 10 == 0:
        print(f"EM it {it:2d} log-likelihood {ll.item():.6f}")
    if ll - prev < 1e-8:
        break
    prev = ll
print("EM stopped at iteration", it, "log-likelihood", round(ll.item(), 6))
order = centers[:, 0].argsort()
print("mixing weights", pi[order])
print("centres\n", centers[order])
print("covariance determinants", torch.linalg.det(covs[order]))
hard = resp.argmax(1)
print("cluster sizes", torch.bincount(hard, minlength=K).sort().values)
