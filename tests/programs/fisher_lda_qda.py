# Models: linear and quadratic discriminant analysis: class means, pooled and per-class
# covariances, Fisher's projection by a generalized eigenproblem, and Bayes decisions.
import torch

torch.manual_seed(0)
dt = torch.float64
K, d = 3, 4
mus = torch.tensor([[0.0, 0.0, 0.0, 0.0], [2.0, 1.0, 0.0, -1.0], [0.0, 2.5, 1.0, 1.0]], dtype=dt)
A = torch.randn(d, d, dtype=dt) * 0.5 + torch.eye(d, dtype=dt)
X = torch.cat([torch.randn(80, d, dtype=dt) @ A.T + mus[k] for k in range(K)])
y = torch.arange(K).repeat_interleave(80)
perm = torch.randperm(len(y))
X, y = X[perm], y[perm]
Xtr, ytr, Xte, yte = X[:180], y[:180], X[180:], y[180:]

priors = torch.bincount(ytr, minlength=K).to(dt) / len(ytr)
means = torch.stack([Xtr[ytr == k].mean(0) for k in range(K)])
print("priors", priors)
print("class means\n", means)
centered = Xtr - means[ytr]
Sw = centered.T @ centered
pooled = Sw / (len(ytr) - K)
mbar = Xtr.mean(0)
Sb = sum(((ytr == k).sum()) * torch.outer(means[k] - mbar, means[k] - mbar) for k in range(K))
print("within-class scatter trace", Sw.trace().item(), "between", Sb.trace().item())

L = torch.linalg.cholesky(Sw)
Linv = torch.linalg.inv(L)
evals, evecs = torch.linalg.eigh(Linv @ Sb @ Linv.T)
W = Linv.T @ evecs.flip(1)[:, : K - 1]
print("discriminant eigenvalues", evals.flip(0)[: K - 1])
Z = (Xtr - mbar) @ W
print("projected class means\n", torch.stack([Z[ytr == k].mean(0) for k in range(K)]))
print(
    "projected within-class cov (identity up to scale)\n",
    (Z - torch.stack([Z[ytr == k].mean(0) for k in range(K)])[ytr]).T.cov() * (len(ytr) - 1),
)

P_inv = torch.linalg.inv(pooled)
lin = means @ P_inv
const = -0.5 * (lin * means).sum(1) + priors.log()
lda_scores = Xte @ lin.T + const
lda_pred = lda_scores.argmax(1)
print("LDA test accuracy", (lda_pred == yte).double().mean().item())

covs = torch.stack([torch.cov(Xtr[ytr == k].T) for k in range(K)])
sign, logdet = torch.linalg.slogdet(covs)
print("per-class logdet", logdet, "signs", sign)
diff = Xte[:, None, :] - means[None]
maha = torch.einsum("nki,kij,nkj->nk", diff, torch.linalg.inv(covs), diff)
qda_scores = -0.5 * maha - 0.5 * logdet + priors.log()
qda_pred = qda_scores.argmax(1)
print("QDA test accuracy", (qda_pred == yte).double().mean().item())
post = torch.softmax(qda_scores, 1)
print("QDA posteriors (first 4)\n", post[:4])
conf = torch.zeros(K, K, dtype=torch.long)
conf.index_put_((yte, qda_pred), torch.ones_like(yte), accumulate=True)
print("confusion\n", conf)
print("agreement LDA/QDA", (lda_pred == qda_pred).sum().item(), "of", len(yte))
