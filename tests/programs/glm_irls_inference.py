# Models: a statistics course notebook fitting generalised linear models in PyTorch the way
# statsmodels does: logistic and Poisson regression by iteratively reweighted least squares
# (normal equations solved with cholesky), standard errors from the inverse Fisher
# information, Wald z statistics and two-sided p-values from the normal CDF, deviance and AIC,
# then the same fits by L-BFGS on the negative log-likelihood for comparison.
import torch
from torch.distributions import Normal, Poisson

torch.manual_seed(42)
n = 400
X = torch.cat([torch.ones(n, 1), torch.randn(n, 3, dtype=torch.float64)], 1)
beta_true = torch.tensor([-0.5, 1.2, 0.0, -0.8], dtype=torch.float64)
p = torch.sigmoid(X @ beta_true)
y_bin = torch.bernoulli(p)
lam = torch.exp(0.3 + X[:, 1:] @ torch.tensor([0.4, -0.3, 0.2], dtype=torch.float64))
y_cnt = torch.poisson(lam)
print(X.dtype, X.shape, "positives", int(y_bin.sum()), "counts mean", y_cnt.mean().item())


def irls(X, y, family, iters=25, tol=1e-10):
    beta = torch.zeros(X.shape[1], dtype=X.dtype)
    for it in range(iters):
        eta = X @ beta
        if family == "logit":
            mu = torch.sigmoid(eta)
            w = mu * (1 - mu)
        else:
            mu = torch.exp(eta)
            w = mu
        z = eta + (y - mu) / w
        XtW = X.T * w
        L = torch.linalg.cholesky(XtW @ X)
        new = torch.cholesky_solve((XtW @ z)[:, None], L)[:, 0]
        if (new - beta).abs().max() < tol:
            beta = new
            break
        beta = new
    cov = torch.cholesky_inverse(L)
    return beta, cov, it + 1


std_normal = Normal(torch.tensor(0.0, dtype=torch.float64), torch.tensor(1.0, dtype=torch.float64))
for family, y in [("logit", y_bin), ("poisson", y_cnt)]:
    beta, cov, iters = irls(X, y, family)
    se = cov.diagonal().sqrt()
    z = beta / se
    pval = 2 * (1 - std_normal.cdf(z.abs()))
    print(f"{family}: converged in {iters} iterations")
    print(" coef     se       z        P>|z|")
    for b, s, zz, pv in zip(beta.tolist(), se.tolist(), z.tolist(), pval.tolist()):
        print(f" {b:8.4f} {s:8.4f} {zz:8.3f} {pv:8.4f}")
    eta = X @ beta
    if family == "logit":
        ll = (y * eta - torch.nn.functional.softplus(eta)).sum()
        dev = -2 * ll
    else:
        ll = Poisson(eta.exp()).log_prob(y).sum()
        mu = eta.exp()
        dev = 2 * torch.sum(torch.xlogy(y, y / mu) - (y - mu))
    print(
        f" loglik {ll.item():.4f} deviance {dev.item():.4f}"
        f" AIC {(-2 * ll + 2 * X.shape[1]).item():.4f}"
    )
    lo, hi = beta - 1.959964 * se, beta + 1.959964 * se
    print(" 95% CI", torch.stack([lo, hi], 1))

w = torch.zeros(4, dtype=torch.float64, requires_grad=True)
opt = torch.optim.LBFGS([w], lr=1, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = torch.nn.functional.binary_cross_entropy_with_logits(X @ w, y_bin, reduction="sum")
    loss.backward()
    return loss


opt.step(closure)
print("lbfgs logit coef", w.detach())
print("lbfgs final nll", closure().item())
beta, cov, _ = irls(X, y_bin, "logit")
print("max |lbfgs - irls|", (w.detach() - beta).abs().max().item() < 1e-5)
H = torch.autograd.functional.hessian(
    lambda b: torch.nn.functional.binary_cross_entropy_with_logits(X @ b, y_bin, reduction="sum"),
    beta,
)
print("hessian inverse matches cov:", torch.allclose(torch.linalg.inv(H), cov, atol=1e-8))
print("condition number", torch.linalg.cond(H).item())
