# Models: heavy-tailed and bounded likelihoods with torch.distributions, as in extreme-value
# and robust-regression notebooks: maximum-likelihood fits of Pareto, HalfCauchy,
# InverseGamma, Kumaraswamy and ContinuousBernoulli parameters through constrained
# unconstrained parametrisations (transform_to(constraint)), a GeneralizedPareto tail fit
# over a threshold, a user KL registered with @register_kl, entropy/mean/variance/cdf/icdf
# where they exist, and ExpRelaxedCategorical samples.
import torch
import torch.distributions as D
from torch.distributions import constraints, transform_to
from torch.distributions.relaxed_categorical import ExpRelaxedCategorical

torch.manual_seed(0)


def fit(make, data, raw, steps=150, lr=0.05):
    opt = torch.optim.Adam(raw, lr=lr)
    for _ in range(steps):
        nll = -make(*raw).log_prob(data).mean()
        opt.zero_grad()
        nll.backward()
        opt.step()
    return nll.item()


pareto_data = D.Pareto(torch.tensor(1.5), torch.tensor(2.5)).sample((400,))
pos = transform_to(constraints.positive)
raw_a = torch.zeros((), requires_grad=True)
nll = fit(lambda a: D.Pareto(torch.tensor(1.5), pos(a)), pareto_data, [raw_a])
alpha_hat = pos(raw_a).item()
closed = 400 / torch.log(pareto_data / 1.5).sum()
print(f"Pareto alpha MLE {alpha_hat:.4f} closed form {closed.item():.4f} nll {nll:.5f}")
print("Pareto mean/var", D.Pareto(torch.tensor(1.5), torch.tensor(2.5)).mean.item(),
      D.Pareto(torch.tensor(1.5), torch.tensor(2.5)).variance.item())

hc = D.HalfCauchy(torch.tensor(2.0))
hc_data = hc.sample((300,))
raw_s = torch.zeros((), requires_grad=True)
nll = fit(lambda s: D.HalfCauchy(pos(s)), hc_data, [raw_s])
print(f"HalfCauchy scale {pos(raw_s).item():.4f} median of data {hc_data.median().item():.4f}")
print("HalfCauchy cdf/icdf", hc.cdf(torch.tensor([1.0, 2.0, 10.0])), hc.icdf(torch.tensor(0.5)))

ig_data = D.InverseGamma(torch.tensor(3.0), torch.tensor(2.0)).sample((300,))
raw = [torch.zeros((), requires_grad=True), torch.zeros((), requires_grad=True)]
nll = fit(lambda a, b: D.InverseGamma(pos(a), pos(b)), ig_data, raw, steps=200)
print(f"InverseGamma concentration {pos(raw[0]).item():.4f} rate {pos(raw[1]).item():.4f} "
      f"nll {nll:.5f}")
ig = D.InverseGamma(pos(raw[0]).detach(), pos(raw[1]).detach())
print("InverseGamma mean", ig.mean.item(), "entropy", ig.entropy().item())

unit = transform_to(constraints.interval(0.0, 1.0))
k_data = D.Kumaraswamy(torch.tensor(2.0), torch.tensor(5.0)).sample((300,))
raw = [torch.zeros((), requires_grad=True), torch.zeros((), requires_grad=True)]
nll = fit(lambda a, b: D.Kumaraswamy(pos(a), pos(b)), k_data, raw, steps=200)
print(f"Kumaraswamy a {pos(raw[0]).item():.4f} b {pos(raw[1]).item():.4f} nll {nll:.5f}")
print("Kumaraswamy mean", D.Kumaraswamy(torch.tensor(2.0), torch.tensor(5.0)).mean.item())

pixels = torch.rand(200).pow(2)
raw_p = torch.zeros((), requires_grad=True)
nll = fit(lambda p: D.ContinuousBernoulli(probs=unit(p)), pixels, [raw_p])
cb = D.ContinuousBernoulli(probs=unit(raw_p).detach())
print(f"ContinuousBernoulli lambda {unit(raw_p).item():.4f} mean {cb.mean.item():.4f} "
      f"data mean {pixels.mean().item():.4f}")
print("CB log normaliser at 0.5 and 0.2", D.ContinuousBernoulli(probs=torch.tensor([0.5, 0.2]))
      ._cont_bern_log_norm())

losses = D.StudentT(torch.tensor(3.0)).sample((1000,)).abs()
u = losses.quantile(0.9)
excess = losses[losses > u] - u
raw = [torch.zeros((), requires_grad=True), torch.tensor(-1.0, requires_grad=True)]
nll = fit(lambda xi, s: D.GeneralizedPareto(torch.tensor(0.0), pos(s), xi), excess, raw,
          steps=200)
print(f"GPD tail: threshold {u.item():.4f} exceedances {len(excess)} xi {raw[0].item():.4f} "
      f"scale {pos(raw[1]).item():.4f}")


class Scaled(D.Exponential):
    pass


@D.register_kl(Scaled, Scaled)
def _kl_scaled(p, q):
    return torch.log(p.rate / q.rate) + q.rate / p.rate - 1


print("registered KL", D.kl_divergence(Scaled(torch.tensor(2.0)), Scaled(torch.tensor(0.5))))
print("builtin KL", D.kl_divergence(D.Exponential(torch.tensor(2.0)),
                                    D.Exponential(torch.tensor(0.5))))
erc = ExpRelaxedCategorical(torch.tensor(0.5), logits=torch.tensor([1.0, 0.0, -1.0]))
s = erc.rsample((4,))
print("ExpRelaxedCategorical samples logsumexp", s.logsumexp(-1), "log_prob", erc.log_prob(s))
