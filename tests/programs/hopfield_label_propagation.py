# Models: classic associative-memory and graph notebooks in PyTorch: a binary Hopfield network
# (Hebbian outer-product weights, zeroed diagonal, asynchronous and synchronous sign updates,
# the energy function, recall from corrupted patterns), the modern continuous Hopfield update
# (softmax attention retrieval), and label propagation on a kNN graph with an adjacency
# built by index_put_.
import torch

torch.manual_seed(0)
N_UNITS, N_PATTERNS = 32, 3
patterns = torch.randint(0, 2, (N_PATTERNS, N_UNITS)).float() * 2 - 1
W = patterns.T @ patterns / N_UNITS
W.fill_diagonal_(0)
print("weights symmetric:", torch.equal(W, W.T), "diag:", W.diagonal().abs().sum().item())


def energy(s):
    return -0.5 * s @ W @ s


def recall_async(s, sweeps=4, gen=None):
    s = s.clone()
    for _ in range(sweeps):
        for i in torch.randperm(N_UNITS, generator=gen):
            s[i] = 1.0 if W[i] @ s >= 0 else -1.0
    return s


def recall_sync(s, steps=10):
    for _ in range(steps):
        new = torch.sign(W @ s)
        new[new == 0] = 1
        if torch.equal(new, s):
            break
        s = new
    return s


gen = torch.Generator().manual_seed(42)
for k in range(N_PATTERNS):
    noisy = patterns[k].clone()
    flip = torch.randperm(N_UNITS, generator=gen)[:6]
    noisy[flip] *= -1
    out = recall_async(noisy, gen=gen)
    overlaps = (patterns @ out) / N_UNITS
    print(
        f"pattern {k}: energy {energy(noisy).item():.3f} -> {energy(out).item():.3f}, "
        f"overlaps {overlaps.tolist()}"
    )
print("sync recall of pattern 0 exact:", torch.equal(recall_sync(patterns[0].clone()), patterns[0]))
print("stored patterns are fixed points:", [torch.equal(torch.sign(W @ p), p) for p in patterns])

# modern Hopfield (Ramsauer et al.): xi_new = X softmax(beta X^T xi)
X = torch.randn(16, 5)
query = X[:, 2] + 0.3 * torch.randn(16)
for beta in [0.1, 1.0, 8.0]:
    p = torch.softmax(beta * X.T @ query, dim=0)
    xi = X @ p
    print(
        f"beta {beta}: weights {p}, cos to stored: "
        f"{torch.nn.functional.cosine_similarity(xi, X[:, 2], dim=0).item():.4f}"
    )

# ---- label propagation on a kNN graph ---------------------------------------------------------
torch.manual_seed(1)
pts = torch.cat(
    [torch.randn(20, 2) + torch.tensor([3.0, 0.0]), torch.randn(20, 2) - torch.tensor([3.0, 0.0])]
)
truth = torch.cat([torch.zeros(20), torch.ones(20)]).long()
labelled = torch.tensor([0, 1, 20, 21])
dist = torch.cdist(pts, pts)
knn = dist.topk(6, largest=False).indices[:, 1:]
rows = torch.arange(40).repeat_interleave(5)
cols = knn.flatten()
vals = torch.exp(-(dist[rows, cols] ** 2))
A = torch.zeros(40, 40).index_put_((rows, cols), vals, accumulate=True)
A = A + A.t()
print(
    "adjacency nonzeros:", torch.count_nonzero(A).item(), "max degree:", (A > 0).sum(1).max().item()
)
deg = A.sum(1)
Y0 = torch.zeros(40, 2)
Y0[labelled, truth[labelled]] = 1.0
F_ = Y0.clone()
alpha = 0.9
for it in range(30):
    F_ = alpha * (A @ F_) / deg[:, None] + (1 - alpha) * Y0
    F_[labelled] = Y0[labelled]
pred = F_.argmax(1)
print("propagated accuracy:", (pred == truth).float().mean().item())
print("label distribution rows:", F_[[2, 25]] / F_[[2, 25]].sum(1, keepdim=True))
print("symmetric:", torch.allclose(A, A.T), "row degree range:", deg.min(), deg.max())
