# Models: soft dynamic time warping (Cuturi & Blondel 2017) as a differentiable loss, in the
# style of the pure-PyTorch soft-DTW implementations: the pairwise squared-distance matrix,
# the soft-min recursion R[i, j] = D[i, j] + softmin_gamma(R[i-1, j-1], R[i-1, j], R[i, j-1])
# written with torch.logsumexp over stacked neighbours, hard DTW with its warping path by
# backtracking, the soft alignment matrix as the gradient of the loss with respect to D,
# and a barycentre-style fit of a template to shifted sinusoids.
import math

import torch


def pairwise_sq(x, y):
    return (x.unsqueeze(1) - y.unsqueeze(0)).pow(2).sum(-1)


def soft_dtw(D, gamma=0.1):
    n, m = D.shape
    inf = torch.tensor(float("inf"))
    R = [[inf] * (m + 1) for _ in range(n + 1)]
    R[0][0] = torch.tensor(0.0)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            prev = torch.stack([R[i - 1][j - 1], R[i - 1][j], R[i][j - 1]])
            R[i][j] = D[i - 1, j - 1] - gamma * torch.logsumexp(-prev / gamma, 0)
    return R[n][m]


def hard_dtw(D):
    n, m = D.shape
    R = torch.full((n + 1, m + 1), float("inf"))
    R[0, 0] = 0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            R[i, j] = D[i - 1, j - 1] + torch.min(torch.stack([R[i - 1, j - 1], R[i - 1, j],
                                                               R[i, j - 1]]))
    path, i, j = [], n, m
    while i > 0 and j > 0:
        path.append((i - 1, j - 1))
        step = int(torch.argmin(torch.stack([R[i - 1, j - 1], R[i - 1, j], R[i, j - 1]])))
        i, j = (i - 1, j - 1) if step == 0 else (i - 1, j) if step == 1 else (i, j - 1)
    return R[n, m], path[::-1]


t = torch.linspace(0, 2 * math.pi, 10)
a = torch.sin(t).unsqueeze(-1)
b = torch.sin(t - 0.8).unsqueeze(-1)
D = pairwise_sq(a, b)
cost, path = hard_dtw(D)
print("euclidean", (a - b).pow(2).sum().item(), "DTW", cost.item())
print("warping path", path)
for gamma in (1.0, 0.1, 0.01):
    print(f"soft-DTW gamma={gamma}", soft_dtw(D, gamma).item())

Dg = D.clone().requires_grad_(True)
soft_dtw(Dg, 0.1).backward()
E = Dg.grad
print("alignment row sums", E.sum(1))
print("alignment on hard path", sum(E[i, j].item() for i, j in path) / len(path))

torch.manual_seed(0)
series = [torch.sin(t - s).unsqueeze(-1) + 0.05 * torch.randn(10, 1)
          for s in torch.linspace(-0.6, 0.6, 3).tolist()]
template = torch.zeros(10, 1, requires_grad=True)
opt = torch.optim.Adam([template], lr=0.1)
for step in range(15):
    loss = sum(soft_dtw(pairwise_sq(template, s), 0.1) for s in series) / len(series)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 14:
        print(f"barycentre step {step:2d} loss {loss.item():.5f}")
print("template", template.detach().squeeze(-1))
