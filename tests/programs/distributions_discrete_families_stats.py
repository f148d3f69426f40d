# Models: a probability course notebook on discrete distributions: Binomial, Poisson,
# Geometric, NegativeBinomial, Multinomial, OneHotCategorical and Bernoulli: moments, entropy,
# log_prob tables, enumerate_support, seeded sampling and empirical means.
import torch
import torch.distributions as D

torch.manual_seed(12)
dists = {
    "binomial": D.Binomial(10, torch.tensor(0.3)),
    "poisson": D.Poisson(torch.tensor(2.5)),
    "geometric": D.Geometric(torch.tensor(0.25)),
    "negbin": D.NegativeBinomial(torch.tensor(3.0), torch.tensor(0.4)),
    "bernoulli": D.Bernoulli(logits=torch.tensor(0.7)),
}
k = torch.arange(6.0)
for name, d in dists.items():
    s = d.sample((2000,))
    print(f"{name:10s} mean {d.mean.item():.4f} var {d.variance.item():.4f} "
          f"emp {s.mean().item():.4f} {s.var().item():.4f}")
    lp = d.log_prob(k[:2] if name == "bernoulli" else k)
    print("  log_prob", lp)
    try:
        print("  entropy", d.entropy())
    except NotImplementedError:
        print("  entropy not implemented")
print("binomial support", D.Binomial(4, torch.tensor(0.5)).enumerate_support().flatten())
print("binomial mode", D.Binomial(10, torch.tensor([0.3, 0.55])).mode)
m = D.Multinomial(20, probs=torch.tensor([0.2, 0.3, 0.5]))
s = m.sample((4,))
print("multinomial", s, m.log_prob(s), sep="\n")
print("mean", m.mean, "var", m.variance)
oh = D.OneHotCategorical(logits=torch.tensor([0.1, 1.0, -0.5]))
print("onehot", oh.sample((3,)), oh.enumerate_support(), oh.entropy(), sep="\n")
cat = D.Categorical(probs=torch.tensor([[0.1, 0.9], [0.5, 0.5]]))
print("categorical", cat.sample((3,)), cat.log_prob(torch.tensor([1, 0])), cat.entropy())
print("cdf poisson?", hasattr(D.Poisson(1.0), "cdf"))
try:
    D.Binomial(10, torch.tensor(0.3)).log_prob(torch.tensor(11.0))
except ValueError as e:
    print("ValueError:", str(e)[:160])
