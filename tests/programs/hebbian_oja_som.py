# Models: classic unsupervised learning rules from a computational-neuroscience course, written
# with torch tensors and no autograd: Oja's rule converging to the first principal component,
# Sanger's generalized Hebbian algorithm (tril of the outer product), competitive learning, and
# a 1-D Kohonen self-organizing map with a shrinking Gaussian neighbourhood.
import torch

torch.manual_seed(60)
C = torch.tensor([[3.0, 1.2, 0.4], [1.2, 1.5, 0.3], [0.4, 0.3, 0.5]])
Lc = torch.linalg.cholesky(C)
X = torch.randn(2000, 3) @ Lc.T
evals, evecs = torch.linalg.eigh(torch.cov(X.T))
print("eigenvalues", evals.flip(0))
w = torch.randn(3) * 0.1
eta = 0.005
for i, x in enumerate(X):
    y = torch.dot(w, x)
    w += eta * y * (x - y * w)
    if i % 500 == 499:
        print(f"oja step {i + 1} |w| {w.norm().item():.5f} "
              f"cos {torch.abs(torch.dot(w, evecs[:, -1])).item() / w.norm().item():.5f}")
W = torch.randn(2, 3) * 0.1
for x in X:
    y = W @ x
    W += eta * (torch.outer(y, x) - torch.tril(torch.outer(y, y)) @ W)
print("sanger rows", W, "\nvs", evecs[:, [2, 1]].T.abs())
print("orthonormality", W @ W.T)
centers = torch.tensor([[2.0, 2.0], [-2.0, 1.0], [0.0, -2.5]])
pts = torch.cat([c + 0.5 * torch.randn(100, 2) for c in centers])
pts = pts[torch.randperm(len(pts))]
protos = pts[:3].clone()
for epoch in range(3):
    for x in pts:
        k = torch.argmin(((protos - x) ** 2).sum(1))
        protos[k] += 0.05 * (x - protos[k])
    print(f"competitive epoch {epoch} prototypes", protos.round(decimals=3).tolist())
assign = torch.cdist(pts, protos).argmin(1)
print(torch.bincount(assign))
n_units = 10
som = torch.rand(n_units, 2) * 4 - 2
grid = torch.arange(n_units, dtype=torch.float32)
theta = torch.rand(400) * 6.2832
ring = torch.stack([torch.cos(theta), torch.sin(theta)], 1) * 2
T = len(ring) * 2
for step in range(T):
    x = ring[step % len(ring)]
    frac = step / T
    sigma = 3.0 * (0.1 / 3.0) ** frac
    lr = 0.5 * (0.01 / 0.5) ** frac
    bmu = torch.argmin(((som - x) ** 2).sum(1))
    h = torch.exp(-((grid - grid[bmu]) ** 2) / (2 * sigma ** 2))
    som += lr * h[:, None] * (x - som)
print("som radii", som.norm(dim=1))
angles = torch.atan2(som[:, 1], som[:, 0])
print("som angles", angles)
print("quantization error", torch.cdist(ring, som).min(1).values.mean())
