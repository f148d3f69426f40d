# Models: tabular feature-engineering code done in torch: quantile bin edges with
# torch.quantile, bucketize / searchsorted into bins (left and right), torch.histc and
# torch.histogram with explicit and counted bins and densities, unique with return_inverse
# and return_counts for category encoding, unique_consecutive for run-length encoding,
# kthvalue / mode / nanmedian robust statistics with NaNs present, target (mean) encoding
# with index_add, and a logistic model trained on the binned one-hot features.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
g = torch.Generator().manual_seed(2)
n = 300
age = torch.randn(n, generator=g) * 12 + 40
income = torch.exp(torch.randn(n, generator=g) * 0.5 + 3)
city = torch.randint(0, 6, (n,), generator=g)
income[torch.randperm(n, generator=g)[:15]] = float("nan")
logit = 0.08 * (age - 40) - 0.5 * (city == 2).float() + 0.7 * (city == 4).float()
y = (torch.rand(n, generator=g) < torch.sigmoid(logit)).float()

edges = torch.quantile(age, torch.tensor([0.2, 0.4, 0.6, 0.8]))
print("age quantile edges:", edges)
b_left = torch.bucketize(age, edges)
b_right = torch.bucketize(age, edges, right=True)
print("bucket counts:", torch.bincount(b_left, minlength=5).tolist(),
      "left != right:", int((b_left != b_right).sum()))
ss = torch.searchsorted(edges, age[:6])
print("searchsorted first 6:", ss.tolist(), "== bucketize:", torch.equal(ss, b_left[:6]))

hist = torch.histc(age, bins=8, min=10, max=70)
print("histc:", hist)
h2 = torch.histogram(age, bins=torch.tensor([0.0, 30.0, 40.0, 50.0, 100.0]), density=True)
print("histogram density:", h2.hist, "edges:", h2.bin_edges)
h3 = torch.histogram(age, bins=5)
print("histogram 5 bins:", h3.hist, h3.bin_edges)

vals, inverse, counts = torch.unique(city, return_inverse=True, return_counts=True)
print("cities:", vals.tolist(), "counts:", counts.tolist(),
      "inverse ok:", torch.equal(vals[inverse], city))
runs = torch.tensor([1, 1, 2, 2, 2, 3, 1, 1, 4])
rv, rc = torch.unique_consecutive(runs, return_counts=True)
print("run-length:", list(zip(rv.tolist(), rc.tolist())))

print("income nanmedian:", f"{income.nanmedian().item():.5f}",
      "nanmean:", f"{income.nanmean().item():.5f}", "nan count:", int(income.isnan().sum()))
clean_income = torch.nan_to_num(income, nan=income.nanmedian().item())
kv = torch.kthvalue(clean_income, 10)
print("10th smallest income:", f"{kv.values.item():.5f}", "at", kv.indices.item())
print("mode of city:", torch.mode(city))

sums = torch.zeros(6).index_add_(0, city, y)
cnt = torch.zeros(6).index_add_(0, city, torch.ones(n))
prior, m = y.mean(), 10.0
target_enc = (sums + m * prior) / (cnt + m)
print("target encoding:", target_enc)

inc_edges = torch.quantile(clean_income, torch.tensor([0.25, 0.5, 0.75]))
inc_bins = torch.bucketize(clean_income, inc_edges)
X = torch.cat([F.one_hot(b_left, 5), F.one_hot(inc_bins, 4), F.one_hot(city, 6),
               target_enc[city][:, None]], 1).float()
print("design matrix:", tuple(X.shape))
model = nn.Linear(X.shape[1], 1)
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=50)


def closure():
    opt.zero_grad()
    loss = F.binary_cross_entropy_with_logits(model(X).squeeze(1), y) \
        + 1e-3 * model.weight.pow(2).sum()
    loss.backward()
    return loss


for _ in range(2):
    loss = opt.step(closure)
print(f"logistic loss {closure().item():.6f}")
with torch.no_grad():
    p = torch.sigmoid(model(X).squeeze(1))
print(f"accuracy {((p > 0.5).float() == y).float().mean().item():.4f}")
print("age-bin weights:", model.weight[0, :5].detach())
