# Models: MCMC from scratch as in probabilistic-programming course notebooks: random-walk
# Metropolis-Hastings and Hamiltonian Monte Carlo (leapfrog with autograd gradients) sampling a
# correlated 2-D Gaussian and a banana-shaped density, acceptance rates, effective-sample-size
# style autocorrelations, and Monte Carlo estimates compared with exact moments.
import torch
import torch.distributions as D

torch.manual_seed(0)

cov = torch.tensor([[1.0, 0.8], [0.8, 1.0]])
target = D.MultivariateNormal(torch.zeros(2), covariance_matrix=cov)


def banana_logp(x):
    return -0.5 * (x[..., 0] ** 2 / 4 + (x[..., 1] - 0.5 * x[..., 0] ** 2) ** 2)


def metropolis(logp, x0, n, step):
    x, lp = x0.clone(), logp(x0)
    out, accepted = [], 0
    for _ in range(n):
        prop = x + step * torch.randn_like(x)
        lp_prop = logp(prop)
        if torch.rand(()).log() < lp_prop - lp:
            x, lp = prop, lp_prop
            accepted += 1
        out.append(x)
    return torch.stack(out), accepted / n


def grad_logp(logp, x):
    x = x.detach().requires_grad_(True)
    (g,) = torch.autograd.grad(logp(x), x)
    return g


def hmc(logp, x0, n, eps, L):
    x, out, accepted = x0.clone(), [], 0
    for _ in range(n):
        p0 = torch.randn_like(x)
        xn, p = x.clone(), p0 + 0.5 * eps * grad_logp(logp, x)
        for i in range(L):
            xn = xn + eps * p
            if i < L - 1:
                p = p + eps * grad_logp(logp, xn)
        p = p + 0.5 * eps * grad_logp(logp, xn)
        h_old = -logp(x) + 0.5 * (p0**2).sum()
        h_new = -logp(xn) + 0.5 * (p**2).sum()
        if torch.rand(()) < torch.exp(h_old - h_new).clamp(max=1.0):
            x, accepted = xn.detach(), accepted + 1
        out.append(x)
    return torch.stack(out), accepted / n


def autocorr(chain, lag):
    c = chain - chain.mean(0)
    return ((c[:-lag] * c[lag:]).mean(0) / c.var(0, unbiased=False)).round(decimals=2)


x0 = torch.zeros(2)
for step in [0.2, 1.0, 3.0]:
    chain, acc = metropolis(target.log_prob, x0, 600, step)
    print(
        f"MH step {step}: accept {acc:.3f} mean {chain[100:].mean(0).round(decimals=2).tolist()}"
        f" lag-10 autocorr {autocorr(chain[100:], 10).tolist()}"
    )

chain, acc = hmc(target.log_prob, x0, 300, eps=0.25, L=8)
est_cov = torch.cov(chain[50:].T)
print(f"HMC accept {acc:.3f}")
print("HMC mean", chain[50:].mean(0).round(decimals=2))
print("HMC cov")
print(est_cov.round(decimals=2))
print("lag-1 autocorr", autocorr(chain[50:], 1).tolist())

bchain, bacc = hmc(banana_logp, torch.tensor([0.0, 0.0]), 300, eps=0.2, L=10)
print(
    f"banana accept {bacc:.3f} E[x0^2]~{(bchain[50:, 0] ** 2).mean().item():.2f} "
    f"corr {torch.corrcoef(bchain[50:].T)[0, 1].item():.2f}"
)

# exact checks and Monte Carlo integration
samples = target.sample((5000,))
print("exact-sample cov", torch.cov(samples.T).round(decimals=2))
p_mc = (samples[:, 0] > 1).float().mean().item()
p_exact = 1 - D.Normal(0.0, 1.0).cdf(torch.tensor(1.0)).item()
print(f"P(x0 > 1) MC {p_mc:.3f} exact {p_exact:.3f}")
u = torch.rand(10000)
print("pi estimate %.3f" % (4 * ((u**2 + torch.rand(10000) ** 2) <= 1).float().mean().item()))
print(f"E[exp(Z)] {torch.randn(20000).exp().mean().item():.3f} vs {torch.tensor(0.5).exp():.3f}")
# inverse-CDF sampling of an exponential
e = -torch.log1p(-torch.rand(5000)) / 2.0
print(f"exponential mean {e.mean().item():.3f} (1/rate=0.5)")
print("log_prob grad at mode", grad_logp(target.log_prob, torch.zeros(2)))
