# Models: a distributions cookbook for less common families: VonMises, Weibull, Kumaraswamy,
# Gumbel, HalfCauchy, HalfNormal, Pareto, StudentT, Chi2, FisherSnedecor, ContinuousBernoulli,
# LogisticNormal and LowRankMultivariateNormal: log_prob, mean, variance, entropy, cdf and
# seeded samples.
import torch
import torch.distributions as D

torch.manual_seed(2)
fams = {
    "VonMises": D.VonMises(torch.tensor(0.5), torch.tensor(2.0)),
    "Weibull": D.Weibull(torch.tensor(1.5), torch.tensor(2.0)),
    "Kumaraswamy": D.Kumaraswamy(torch.tensor(2.0), torch.tensor(5.0)),
    "Gumbel": D.Gumbel(torch.tensor(1.0), torch.tensor(2.0)),
    "HalfCauchy": D.HalfCauchy(torch.tensor(1.0)),
    "HalfNormal": D.HalfNormal(torch.tensor(2.0)),
    "Pareto": D.Pareto(torch.tensor(1.0), torch.tensor(3.0)),
    "StudentT": D.StudentT(torch.tensor(4.0), torch.tensor(0.5), torch.tensor(2.0)),
    "Chi2": D.Chi2(torch.tensor(3.0)),
    "FisherSnedecor": D.FisherSnedecor(torch.tensor(5.0), torch.tensor(10.0)),
    "ContinuousBernoulli": D.ContinuousBernoulli(torch.tensor(0.3)),
}
v = torch.tensor([0.2, 0.9, 1.7])
for name, d in fams.items():
    s = d.sample((3,))
    out = [f"{name:19s}", "sample", s, "lp", d.log_prob(s)]
    for attr in ["mean", "variance"]:
        try:
            out += [attr, getattr(d, attr)]
        except NotImplementedError:
            out += [attr, "n/a"]
    try:
        out += ["entropy", d.entropy()]
    except NotImplementedError:
        out += ["entropy", "n/a"]
    try:
        out += ["cdf", d.cdf(v.clamp(max=0.95) if name in ("Kumaraswamy",
                                                         "ContinuousBernoulli") else v + 1)]
    except NotImplementedError:
        out += ["cdf", "n/a"]
    print(*out)
ln = D.LogisticNormal(torch.zeros(2), torch.ones(2))
x = ln.sample((2,))
print("logistic normal", x, x.sum(-1), ln.log_prob(x))
lr = D.LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 1), torch.ones(3))
print("lowrank cov\n", lr.covariance_matrix, "\nentropy", lr.entropy())
print("lowrank lp", lr.log_prob(torch.tensor([0.5, -0.5, 1.0])))
