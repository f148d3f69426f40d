# Models: a clustering notebook: k-means++ seeding with torch.multinomial, Lloyd iterations with
# cdist/argmin/index_add_, inertia by k, then a full-covariance Gaussian mixture fitted by EM with
# log-likelihood monitoring via MultivariateNormal.log_prob and logsumexp, and cluster agreement.
import torch
from torch.distributions import MultivariateNormal

torch.manual_seed(51)
centers_true = torch.tensor([[0.0, 0.0], [4.0, 1.0], [1.0, 5.0]])
covs_true = torch.stack(
    [
        torch.tensor([[1.0, 0.6], [0.6, 1.0]]),
        torch.tensor([[0.5, 0.0], [0.0, 1.5]]),
        torch.tensor([[0.8, -0.3], [-0.3, 0.4]]),
    ]
)
X = torch.cat([MultivariateNormal(c, s).sample((100,)) for c, s in zip(centers_true, covs_true)])
labels_true = torch.arange(3).repeat_interleave(100)


def kmeans_pp(X, k):
    idx = [torch.randint(len(X), (1,)).item()]
    for _ in range(k - 1):
        d2 = torch.cdist(X, X[idx]).min(1).values ** 2
        idx.append(torch.multinomial(d2 / d2.sum(), 1).item())
    return X[idx].clone()


def lloyd(X, C, iters=50):
    for it in range(iters):
        assign = torch.cdist(X, C).argmin(1)
        sums = torch.zeros_like(C).index_add_(0, assign, X)
        counts = torch.bincount(assign, minlength=len(C)).clamp(min=1).unsqueeze(1)
        newC = sums / counts
        if torch.allclose(newC, C):
            break
        C = newC
    inertia = ((X - C[assign]) ** 2).sum()
    return C, assign, inertia, it


for k in [1, 2, 3, 4, 5]:
    C, assign, inertia, it = lloyd(X, kmeans_pp(X, k))
    print(f"k={k} inertia {inertia.item():.3f} iterations {it}")
C, assign, _, _ = lloyd(X, kmeans_pp(X, 3))
K = 3
pi = torch.full((K,), 1.0 / K)
mu = C.clone()
Sigma = torch.eye(2).repeat(K, 1, 1)
prev = None
for step in range(100):
    logp = (
        torch.stack([MultivariateNormal(mu[j], Sigma[j]).log_prob(X) for j in range(K)], 1)
        + pi.log()
    )
    ll = torch.logsumexp(logp, 1).sum()
    resp = (logp - torch.logsumexp(logp, 1, keepdim=True)).exp()
    Nk = resp.sum(0)
    pi = Nk / len(X)
    mu = (resp.T @ X) / Nk[:, None]
    diff = X[None] - mu[:, None]
    Sigma = torch.einsum("kn,kni,knj->kij", resp.T, diff, diff) / Nk[
        :, None, None
    ] + 1e-6 * torch.eye(2)
    if step % 10 == 0:
        print(f"EM step {step:2d} log-likelihood {ll.item():.4f}")
    if prev is not None and abs(ll.item() - prev) < 1e-4:
        print(f"converged at step {step} log-likelihood {ll.item():.4f}")
        break
    prev = ll.item()
order = mu[:, 0].argsort()
print("weights", pi[order].numpy().round(4).tolist())
print("means\n", mu[order])
print("covariances\n", Sigma[order])
pred = resp.argmax(1)
agree = max(
    ((pred == p) == (labels_true == t)).float().mean().item() for p in range(3) for t in range(3)
)
contingency = torch.zeros(3, 3, dtype=torch.long)
contingency.index_put_((labels_true, pred), torch.ones(300, dtype=torch.long), accumulate=True)
print("contingency\n", contingency)
print("best one-vs-rest agreement", round(agree, 4))
