# Models: statistics-with-tensors notebooks: one- and two-sample z and Welch t statistics, a
# chi-square goodness-of-fit test with p-values from torch.special.gammaincc, the normal CDF
# and quantiles (ndtr, ndtri, log_ndtr), the Kolmogorov-Smirnov statistic from sorted samples,
# the Mann-Whitney U test with tie-averaged ranks, a permutation test, and Benjamini-Hochberg
# and Bonferroni corrections with a reversed cumulative minimum.
import math

import torch
from torch.special import gammaincc, log_ndtr, ndtr, ndtri

torch.manual_seed(0)
torch.set_printoptions(precision=4, sci_mode=False)
a = torch.randn(40, dtype=torch.float64) * 1.0 + 0.3
b = torch.randn(55, dtype=torch.float64) * 1.5

print("ndtr(-1.96, 0, 1.96):", ndtr(torch.tensor([-1.96, 0.0, 1.96], dtype=torch.float64)))
print("ndtri(0.025, 0.5, 0.975):", ndtri(torch.tensor([0.025, 0.5, 0.975], dtype=torch.float64)))
print("log_ndtr(-10, -3, 3):", log_ndtr(torch.tensor([-10.0, -3.0, 3.0], dtype=torch.float64)))

z = a.mean() / (1 / math.sqrt(len(a)))
print(f"one-sample z {z:.4f} two-sided p {2 * ndtr(-z.abs()):.6f}")
va, vb = a.var(), b.var()
se = torch.sqrt(va / len(a) + vb / len(b))
t = (a.mean() - b.mean()) / se
df = (va / len(a) + vb / len(b)) ** 2 / ((va / len(a)) ** 2 / (len(a) - 1)
                                         + (vb / len(b)) ** 2 / (len(b) - 1))
print(f"Welch t {t:.4f} df {df:.2f} normal-approx p {2 * ndtr(-t.abs()):.6f}")

# chi-square goodness of fit: a die with a slight bias
rolls = torch.multinomial(torch.tensor([0.2, 0.16, 0.16, 0.16, 0.16, 0.16]), 600, replacement=True)
observed = torch.bincount(rolls, minlength=6).double()
expected = torch.full((6,), 100.0, dtype=torch.float64)
chi2 = ((observed - expected) ** 2 / expected).sum()
p_chi2 = gammaincc(torch.tensor(5 / 2, dtype=torch.float64), chi2 / 2)
print("observed:", observed.long().tolist(), f"chi2 {chi2:.4f} p {p_chi2:.6f}")

# Kolmogorov-Smirnov against N(0, 1)
x = torch.sort(a).values
cdf = ndtr(x)
n = len(x)
i = torch.arange(1, n + 1, dtype=torch.float64)
d_plus = (i / n - cdf).max()
d_minus = (cdf - (i - 1) / n).max()
D = torch.maximum(d_plus, d_minus)
lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * D
k = torch.arange(1, 101, dtype=torch.float64)
p_ks = (2 * ((-1) ** (k - 1)) * torch.exp(-2 * k ** 2 * lam ** 2)).sum().clamp(0, 1)
print(f"KS D {D:.4f} (D+ {d_plus:.4f}, D- {d_minus:.4f}) p {p_ks:.6f}")


def average_ranks(v):
    order = v.argsort(stable=True)
    sorted_v = v[order]
    uniq, inverse, counts = torch.unique_consecutive(sorted_v, return_inverse=True,
                                                     return_counts=True)
    ends = counts.cumsum(0).double()
    avg = ends - (counts.double() - 1) / 2
    ranks = torch.empty_like(v, dtype=torch.float64)
    ranks[order] = avg[inverse]
    return ranks, counts


ia = (a * 2).round()
ib = (b * 2).round()
ranks, counts = average_ranks(torch.cat([ia, ib]))
U = ranks[:len(ia)].sum() - len(ia) * (len(ia) + 1) / 2
n1, n2 = len(ia), len(ib)
N = n1 + n2
tie_term = ((counts.double() ** 3 - counts.double()).sum() / (N * (N - 1)))
sigma = math.sqrt(n1 * n2 / 12 * ((N + 1) - tie_term.item()))
z_u = (U - n1 * n2 / 2) / sigma
print(f"Mann-Whitney U {U:.1f} ties {int((counts > 1).sum())} z {z_u:.4f} "
      f"p {2 * ndtr(-z_u.abs()):.6f}")

# permutation test on the difference in means
pooled = torch.cat([a, b])
obs = a.mean() - b.mean()
g = torch.Generator().manual_seed(1)
perms = torch.stack([torch.randperm(N, generator=g) for _ in range(2000)])
diffs = pooled[perms[:, :n1]].mean(1) - pooled[perms[:, n1:]].mean(1)
p_perm = ((diffs.abs() >= obs.abs()).sum() + 1) / (len(diffs) + 1)
print(f"permutation p {p_perm:.6f} null sd {diffs.std():.4f}")

# multiple testing: 20 tests, 4 with real effects
effects = torch.cat([torch.full((4,), 3.0), torch.zeros(16)]).double()
zs = effects + torch.randn(20, dtype=torch.float64)
pvals = 2 * ndtr(-zs.abs())
m = len(pvals)
order = pvals.argsort()
ranked = pvals[order] * m / torch.arange(1, m + 1, dtype=torch.float64)
bh = torch.flip(torch.cummin(torch.flip(ranked, [0]), 0).values, [0]).clamp(max=1)
adjusted = torch.empty_like(bh)
adjusted[order] = bh
print("p-values:", pvals[:6])
print("BH adjusted:", adjusted[:6])
print("rejected BH:", (adjusted < 0.05).nonzero().flatten().tolist(),
      "Bonferroni:", (pvals * m < 0.05).nonzero().flatten().tolist())
