# Models: a "statistics with resampling" course notebook in PyTorch: bootstrap confidence
# intervals (percentile and basic) for a mean and a median with torch.randint resamples,
# a two-sample permutation test with torch.randperm, Welch's t statistic with its normal
# approximation p-value, a paired sign test from the binomial distribution, and the
# Kolmogorov-Smirnov distance between empirical CDFs via searchsorted.
import torch
from torch.distributions import Binomial, Normal

torch.manual_seed(0)
a = torch.distributions.Gamma(2.0, 1.0).sample((60,))
b = torch.distributions.Gamma(2.6, 1.0).sample((45,))
print(
    f"a: n={len(a)} mean {a.mean().item():.4f} median {a.median().item():.4f} "
    f"std {a.std().item():.4f}"
)
print(
    f"b: n={len(b)} mean {b.mean().item():.4f} median {b.median().item():.4f} "
    f"std {b.std().item():.4f}"
)

B = 2000
idx = torch.randint(0, len(a), (B, len(a)))
boot = a[idx]
means = boot.mean(1)
medians = boot.median(1).values
q = torch.tensor([0.025, 0.975])
for name, stat, est in [("mean", means, a.mean()), ("median", medians, a.median())]:
    lo, hi = torch.quantile(stat, q)
    print(
        f"{name:6s} percentile CI [{lo.item():.4f}, {hi.item():.4f}] "
        f"basic CI [{(2 * est - hi).item():.4f}, {(2 * est - lo).item():.4f}] "
        f"se {stat.std().item():.4f}"
    )
print("bootstrap bias of the mean", (means.mean() - a.mean()).item())

pooled = torch.cat([a, b])
observed = b.mean() - a.mean()
n_perm = 3000
perms = torch.stack([torch.randperm(len(pooled)) for _ in range(n_perm)])
shuffled = pooled[perms]
diffs = shuffled[:, len(a) :].mean(1) - shuffled[:, : len(a)].mean(1)
p_perm = ((diffs.abs() >= observed.abs()).sum() + 1) / (n_perm + 1)
print(f"observed difference {observed.item():.4f} permutation p-value {p_perm.item():.4f}")
print("null distribution quantiles", torch.quantile(diffs, torch.tensor([0.05, 0.5, 0.95])))

va, vb = a.var(), b.var()
se = torch.sqrt(va / len(a) + vb / len(b))
t = observed / se
df = (va / len(a) + vb / len(b)) ** 2 / (
    (va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1)
)
p_norm = 2 * (1 - Normal(0.0, 1.0).cdf(t.abs()))
print(f"welch t {t.item():.4f} df {df.item():.2f} normal-approx p {p_norm.item():.5f}")

before = torch.randn(25) + 5
after = before + 0.3 + 0.5 * torch.randn(25)
d = after - before
pos = int((d > 0).sum())
binom = Binomial(total_count=25, probs=torch.tensor(0.5))
k = torch.arange(26, dtype=torch.float32)
pmf = binom.log_prob(k).exp()
p_sign = torch.clamp(2 * pmf[k >= pos].sum(), max=1.0)
print(f"sign test: {pos}/25 positive, p = {p_sign.item():.5f}, pmf sums to {pmf.sum().item():.6f}")


def ks_distance(x, y):
    x, y = x.sort().values, y.sort().values
    grid = torch.cat([x, y]).sort().values
    cdf_x = torch.searchsorted(x, grid, right=True).float() / len(x)
    cdf_y = torch.searchsorted(y, grid, right=True).float() / len(y)
    return (cdf_x - cdf_y).abs().max()


D = ks_distance(a, b)
ne = len(a) * len(b) / (len(a) + len(b))
lam = (ne**0.5 + 0.12 + 0.11 / ne**0.5) * D
j = torch.arange(1, 101, dtype=torch.float32)
p_ks = (2 * ((-1) ** (j - 1)) * torch.exp(-2 * lam**2 * j**2)).sum().clamp(0, 1)
print(f"KS distance {D.item():.4f} asymptotic p {p_ks.item():.4f}")
print("same-sample KS", ks_distance(a, a).item())
