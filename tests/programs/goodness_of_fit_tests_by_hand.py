# Models: a statistics course lab checking samplers with hand-written tests: Kolmogorov-Smirnov
# statistics of torch samples against distribution cdfs, chi-square tests of categorical and
# Poisson samples with torch.special.gammaincc p-values, QQ-plot correlation, and a two-sample
# KS test between Box-Muller and torch.randn draws.
import math

import torch
from torch.distributions import Exponential, Gamma, Normal, Poisson

torch.manual_seed(58)


def ks_stat(samples, cdf):
    s, _ = samples.sort()
    n = s.numel()
    F = cdf(s)
    up = torch.arange(1, n + 1, dtype=s.dtype) / n - F
    down = F - torch.arange(0, n, dtype=s.dtype) / n
    return torch.maximum(up.max(), down.max())


def ks_pvalue(d, n):
    x = d * math.sqrt(n)
    return 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * x * x) for k in range(1, 101))


n = 2000
for name, dist in [("normal", Normal(1.0, 2.0)), ("exponential", Exponential(0.7))]:
    x = dist.sample((n,))
    d = ks_stat(x, dist.cdf)
    print(f"KS {name:12s} D={d.item():.5f} p={ks_pvalue(d.item(), n):.4f}")
    wrong = Normal(1.2, 2.0) if name == "normal" else Exponential(1.0)
    d2 = ks_stat(x, wrong.cdf)
    print(f"   against the wrong law D={d2.item():.5f} p={ks_pvalue(d2.item(), n):.2e}")
g = Gamma(2.0, 1.0).sample((n,)).double()
d = ks_stat(g, lambda v: torch.special.gammainc(torch.full_like(v, 2.0), v))
print(f"KS gamma via gammainc D={d.item():.5f}")
probs = torch.tensor([0.1, 0.2, 0.3, 0.4])
counts = torch.bincount(torch.multinomial(probs, n, replacement=True), minlength=4).double()
expected = probs.double() * n
chi2 = ((counts - expected) ** 2 / expected).sum()
df = 3
p = torch.special.gammaincc(torch.tensor(df / 2, dtype=torch.float64), chi2 / 2)
print(
    f"chi-square categorical counts={counts.long().tolist()} stat={chi2.item():.4f} "
    f"p={p.item():.4f}"
)
lam = 3.0
ps = Poisson(lam).sample((n,)).long()
k = torch.arange(0, 8)
obs = torch.stack([(ps == v).sum() for v in k[:-1]] + [(ps >= 7).sum()]).double()
pmf = Poisson(lam).log_prob(k[:-1].double()).exp()
exp_counts = torch.cat([pmf, (1 - pmf.sum()).unsqueeze(0)]) * n
chi2p = ((obs - exp_counts) ** 2 / exp_counts).sum()
pp = torch.special.gammaincc(torch.tensor((8 - 1 - 1) / 2, dtype=torch.float64), chi2p / 2)
print(f"chi-square poisson stat={chi2p.item():.4f} p={pp.item():.4f}")
u1, u2 = torch.rand(n, dtype=torch.float64), torch.rand(n, dtype=torch.float64)
bm = torch.sqrt(-2 * torch.log(u1)) * torch.cos(2 * math.pi * u2)
rn = torch.randn(n, dtype=torch.float64)
allv = torch.cat([bm, rn]).sort().values
cdf_a = torch.searchsorted(bm.sort().values, allv, right=True).double() / n
cdf_b = torch.searchsorted(rn.sort().values, allv, right=True).double() / n
d2 = (cdf_a - cdf_b).abs().max()
print(f"two-sample KS D={d2.item():.5f} p={ks_pvalue(d2.item(), n / 2):.4f}")
q = (torch.arange(1, n + 1, dtype=torch.float64) - 0.5) / n
theo = Normal(0.0, 1.0).icdf(q)
r = torch.corrcoef(torch.stack([bm.sort().values, theo]))[0, 1]
print(f"QQ correlation {r.item():.6f}")
