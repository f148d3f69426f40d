# Models: count-data and proportion regression from a statistics course written with
# torch.special: Poisson and negative-binomial GLM log-likelihoods via gammaln/xlogy,
# zero-inflated Poisson with logsumexp/log1p, Beta regression with betaln built from gammaln,
# digamma/polygamma for Fisher information, log_ndtr/ndtri/erfcx for probit models, and
# i0e/i1e in a von Mises likelihood; fitted with Adam and LBFGS in float64.
import torch
from torch import special as S

torch.manual_seed(17)
dt = torch.float64
n = 200
X = torch.cat([torch.ones(n, 1, dtype=dt), torch.randn(n, 2, dtype=dt)], 1)
beta_true = torch.tensor([0.5, 0.8, -0.4], dtype=dt)
mu = torch.exp(X @ beta_true)
y_pois = torch.poisson(mu)
r_true = 3.0
lam = torch.distributions.Gamma(torch.full((n,), r_true, dtype=dt), r_true / mu).sample()
y_nb = torch.poisson(lam)
zero = torch.rand(n, dtype=dt) < 0.25
y_zip = torch.where(zero, torch.zeros_like(y_pois), y_pois)
print("means:", y_pois.mean().item(), y_nb.mean().item(), y_zip.mean().item(),
      "zeros:", (y_zip == 0).sum().item())


def pois_ll(b, y):
    eta = X @ b
    return (S.xlogy(y, torch.exp(eta)) - torch.exp(eta) - S.gammaln(y + 1)).sum()


def nb_ll(b, log_r, y):
    r = log_r.exp()
    m = torch.exp(X @ b)
    return (S.gammaln(y + r) - S.gammaln(r) - S.gammaln(y + 1) + r * torch.log(r / (r + m))
            + S.xlogy(y, m / (r + m))).sum()


def zip_ll(b, logit_pi, y):
    eta = X @ b
    log_pois = S.xlogy(y, torch.exp(eta)) - torch.exp(eta) - S.gammaln(y + 1)
    log_pi = torch.nn.functional.logsigmoid(logit_pi)
    log_1mpi = torch.nn.functional.logsigmoid(-logit_pi)
    ll_zero = torch.logsumexp(torch.stack([log_pi.expand(n), log_1mpi + log_pois]), 0)
    return torch.where(y == 0, ll_zero, log_1mpi + log_pois).sum()


def fit(fn, params, steps=40):
    opt = torch.optim.LBFGS(params, lr=1, max_iter=steps, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = -fn()
        loss.backward()
        return loss
    opt.step(closure)
    return -fn().item()


b = torch.zeros(3, dtype=dt, requires_grad=True)
print("poisson ll:", round(fit(lambda: pois_ll(b, y_pois), [b]), 6), b.detach())
H = torch.autograd.functional.hessian(lambda bb: -pois_ll(bb, y_pois), b.detach())
print("std errors:", torch.linalg.inv(H).diagonal().sqrt())
b2 = torch.zeros(3, dtype=dt, requires_grad=True)
log_r = torch.zeros((), dtype=dt, requires_grad=True)
print("negbin ll:", round(fit(lambda: nb_ll(b2, log_r, y_nb), [b2, log_r]), 6),
      "r:", round(log_r.exp().item(), 5))
r = log_r.exp().detach()
print("trigamma-based info:", (S.polygamma(1, r) - S.polygamma(1, r + y_nb)).sum().item(),
      S.digamma(r).item())
b3 = torch.zeros(3, dtype=dt, requires_grad=True)
lp = torch.zeros((), dtype=dt, requires_grad=True)
print("zip ll:", round(fit(lambda: zip_ll(b3, lp, y_zip), [b3, lp]), 6),
      "pi:", round(torch.sigmoid(lp).item(), 5))

props = torch.distributions.Beta(torch.full((n,), 2.0, dtype=dt),
                                 torch.full((n,), 5.0, dtype=dt)).sample().clamp(1e-6, 1 - 1e-6)


def betaln(a, b):
    return S.gammaln(a) + S.gammaln(b) - S.gammaln(a + b)


la = torch.zeros((), dtype=dt, requires_grad=True)
lb = torch.zeros((), dtype=dt, requires_grad=True)
beta_ll = lambda: ((la.exp() - 1) * torch.log(props) + (lb.exp() - 1) * S.log1p(-props)  # noqa: E731
                   - betaln(la.exp(), lb.exp())).sum()
print("beta ll:", round(fit(beta_ll, [la, lb]), 6), la.exp().item(), lb.exp().item())

z = torch.linspace(-6, 6, 7, dtype=dt)
print("log_ndtr:", S.log_ndtr(z))
print("ndtri:", S.ndtri(torch.tensor([0.01, 0.5, 0.975], dtype=dt)))
print("erfcx:", S.erfcx(z), "ndtr:", S.ndtr(z))
yb = (X @ beta_true + torch.randn(n, dtype=dt) > 0).to(dt)
bp = torch.zeros(3, dtype=dt, requires_grad=True)
probit = lambda: (yb * S.log_ndtr(X @ bp) + (1 - yb) * S.log_ndtr(-(X @ bp))).sum()  # noqa: E731
print("probit ll:", round(fit(probit, [bp]), 6), bp.detach())
vm_true = torch.distributions.VonMises(torch.tensor(1.0, dtype=dt), torch.tensor(4.0, dtype=dt))
theta = vm_true.sample((n,))
loc = torch.zeros((), dtype=dt, requires_grad=True)
lk = torch.zeros((), dtype=dt, requires_grad=True)
vm = lambda: (lk.exp() * (torch.cos(theta - loc) - 1)  # noqa: E731
               - torch.log(2 * torch.pi * S.i0e(lk.exp()))).sum()
print("von mises ll:", round(fit(vm, [loc, lk]), 6), round(loc.item(), 5),
      round(lk.exp().item(), 5))
k = lk.exp().detach()
print("A(k) = i1e/i0e:", (S.i1e(k) / S.i0e(k)).item(), S.i1(k).item(), S.i0(k).item())
