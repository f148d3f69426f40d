# Models: a data-exploration notebook: torch.histogram with a bin count, a range, explicit bin
# edges, weights and density, histc, histogramdd in 2-d, and a text bar chart of the counts.
import torch

torch.manual_seed(10)
x = torch.randn(200, dtype=torch.float64)
hist, edges = torch.histogram(x, bins=8)
print("counts", hist, "\nedges", edges)
h2, e2 = torch.histogram(x, bins=5, range=(-2.0, 2.0))
print("range", h2, e2)
h3, _ = torch.histogram(x, bins=torch.tensor([-3.0, -1.0, 0.0, 0.5, 3.0], dtype=torch.float64))
print("explicit", h3)
hd, _ = torch.histogram(x, bins=8, density=True)
print("density", hd, "integral", (hd * (edges[1:] - edges[:-1])).sum())
hw, _ = torch.histogram(x, bins=4, weight=x.abs())
print("weighted", hw)
print("histc", torch.histc(x.float(), bins=6, min=-3, max=3))
xy = torch.randn(100, 2, dtype=torch.float64)
H, E = torch.histogramdd(xy, bins=[3, 4])
print("2d counts\n", H, "\nedges", [e.shape for e in E])
for c, lo, hi in zip(hist.tolist(), edges[:-1].tolist(), edges[1:].tolist()):
    print(f"{lo:6.2f} .. {hi:6.2f} | {'#' * int(c // 4)} {int(c)}")
try:
    torch.histogram(x, bins=-1)
except RuntimeError as e:
    print("RuntimeError:", e)
