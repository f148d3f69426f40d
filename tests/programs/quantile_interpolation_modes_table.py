# Models: a descriptive-statistics lesson on quantiles: torch.quantile with each interpolation
# mode, q as float and as tensor, dim and keepdim, nanquantile, median vs quantile(0.5) on even
# lengths, an interquartile-range outlier filter, and the error for q outside [0, 1].
import torch

x = torch.tensor([7.0, 1.0, 3.0, 10.0, 4.0, 2.0], dtype=torch.float64)
q = torch.tensor([0.0, 0.1, 0.25, 0.5, 0.9, 1.0], dtype=torch.float64)
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(f"{mode:9s}", torch.quantile(x, q, interpolation=mode))
print("median vs q0.5", x.median().item(), torch.quantile(x, 0.5).item())
m = torch.arange(12.0).reshape(3, 4)
print("dim 1", torch.quantile(m, 0.5, dim=1), torch.quantile(m, torch.tensor([0.25, 0.75]), dim=0))
print("keepdim", torch.quantile(m, torch.tensor([0.5]), dim=1, keepdim=True).shape)
y = torch.tensor([1.0, float("nan"), 3.0, 5.0])
print("quantile with nan", torch.quantile(y, 0.5), "nanquantile", torch.nanquantile(y, 0.5))
torch.manual_seed(0)
data = torch.cat([torch.randn(50), torch.tensor([8.0, -9.0])])
q1, q3 = torch.quantile(data, torch.tensor([0.25, 0.75]))
iqr = q3 - q1
mask = (data >= q1 - 1.5 * iqr) & (data <= q3 + 1.5 * iqr)
print("iqr", iqr.item(), "outliers", data[~mask])
for bad in [lambda: torch.quantile(x, 1.5), lambda: torch.quantile(x, torch.tensor([[0.5]])),
            lambda: torch.quantile(x.int(), 0.5),
            lambda: torch.quantile(x, 0.5, interpolation="cubic")]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
