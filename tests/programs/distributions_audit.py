# Models: a probabilistic-programming test script that checks a library's distributions:
# log_prob, cdf, icdf, entropy, mean/variance and rsample for a dozen families, printed at
# full precision (values such scripts compare against SciPy).
import torch
import torch.distributions as D

torch.manual_seed(0)
pts = torch.tensor([0.1, 0.5, 1.3, 2.7])
fams = {
    "Normal": D.Normal(torch.tensor(0.3), torch.tensor(1.7)),
    "LogNormal": D.LogNormal(torch.tensor(0.2), torch.tensor(0.8)),
    "Gamma": D.Gamma(torch.tensor(2.5), torch.tensor(1.5)),
    "Beta": D.Beta(torch.tensor(2.0), torch.tensor(3.5)),
    "Exponential": D.Exponential(torch.tensor(1.7)),
    "Laplace": D.Laplace(torch.tensor(0.5), torch.tensor(0.7)),
    "Cauchy": D.Cauchy(torch.tensor(0.0), torch.tensor(0.5)),
    "StudentT": D.StudentT(torch.tensor(4.5), torch.tensor(0.1), torch.tensor(1.2)),
    "Weibull": D.Weibull(torch.tensor(1.3), torch.tensor(1.8)),
    "Gumbel": D.Gumbel(torch.tensor(0.4), torch.tensor(1.1)),
    "HalfNormal": D.HalfNormal(torch.tensor(1.4)),
    "HalfCauchy": D.HalfCauchy(torch.tensor(0.9)),
    "Pareto": D.Pareto(torch.tensor(0.05), torch.tensor(2.2)),
    "Chi2": D.Chi2(torch.tensor(3.0)),
    "FisherSnedecor": D.FisherSnedecor(torch.tensor(4.0), torch.tensor(7.0)),
    "Kumaraswamy": D.Kumaraswamy(torch.tensor(1.5), torch.tensor(2.5)),
    "Uniform": D.Uniform(torch.tensor(0.0), torch.tensor(3.0)),
    "InverseGamma": D.InverseGamma(torch.tensor(3.0), torch.tensor(2.0)),
    "VonMises": D.VonMises(torch.tensor(0.5), torch.tensor(2.0)),
}
for name, d in fams.items():
    x = pts.clamp(max=0.99) if name in ("Beta", "Kumaraswamy") else pts
    print(name, "log_prob", d.log_prob(x).tolist())
    for attr in ("mean", "variance", "entropy"):
        try:
            v = getattr(d, attr)
            v = v() if callable(v) else v
            print(name, attr, repr(v.item()))
        except NotImplementedError:
            print(name, attr, "n/a")
    for meth in ("cdf", "icdf"):
        try:
            arg = x if meth == "cdf" else torch.tensor([0.05, 0.5, 0.9])
            print(name, meth, [f"{v:.6g}" for v in getattr(d, meth)(arg).tolist()])
        except NotImplementedError:
            print(name, meth, "n/a")
    if d.has_rsample:
        torch.manual_seed(1)
        print(name, "rsample", d.rsample((3,)).tolist())
disc = {
    "Poisson": (D.Poisson(torch.tensor(3.5)), torch.tensor([0.0, 2.0, 7.0])),
    "Binomial": (D.Binomial(10, torch.tensor(0.35)), torch.tensor([0.0, 3.0, 10.0])),
    "NegativeBinomial": (D.NegativeBinomial(4.0, torch.tensor(0.4)),
                         torch.tensor([0.0, 2.0, 9.0])),
    "Geometric": (D.Geometric(torch.tensor(0.3)), torch.tensor([0.0, 1.0, 5.0])),
    "Categorical": (D.Categorical(logits=torch.tensor([0.1, -0.4, 1.2, 0.0])),
                    torch.tensor([0, 2, 3])),
    "Bernoulli": (D.Bernoulli(logits=torch.tensor(0.7)), torch.tensor([0.0, 1.0, 1.0])),
}
for name, (d, k) in disc.items():
    mean = d.mean.item() if d.mean.dim() == 0 else d.mean.tolist()
    ent = repr(d.entropy().item()) if name in ("Categorical", "Bernoulli", "Geometric") else ""
    print(name, d.log_prob(k).tolist(), repr(mean), ent)
mvn = D.MultivariateNormal(torch.tensor([0.1, -0.2]), torch.tensor([[1.5, 0.3], [0.3, 0.8]]))
print("MVN", mvn.log_prob(torch.tensor([[0.0, 0.0], [1.0, -1.0]])).tolist(),
      repr(mvn.entropy().item()))
dir_ = D.Dirichlet(torch.tensor([1.5, 2.0, 0.7]))
print("Dirichlet", repr(dir_.log_prob(torch.tensor([0.2, 0.5, 0.3])).item()),
      repr(dir_.entropy().item()))
print("KL", repr(D.kl_divergence(fams["Normal"], D.Normal(0.0, 1.0)).item()),
      repr(D.kl_divergence(fams["Gamma"], D.Gamma(2.0, 1.0)).item()),
      repr(D.kl_divergence(fams["Beta"], D.Beta(1.0, 1.0)).item()))
