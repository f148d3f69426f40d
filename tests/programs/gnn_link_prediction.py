# Models: link prediction with a GCN encoder as PyG tutorials do it, in plain torch: a random
# edge split into train/val/test, symmetric normalised adjacency as a sparse tensor, negative
# sampling by rejection against hashed positive edges (torch.isin), a dot-product decoder,
# BCE on positives and negatives, and ROC-AUC / average precision computed from sorted scores.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(190)
n, k = 40, 4
comm = torch.arange(n) % k
p = torch.where(comm[:, None] == comm[None, :], torch.tensor(0.35), torch.tensor(0.03))
A = torch.bernoulli(p).triu(1)
edges = A.nonzero().T
perm = torch.randperm(edges.shape[1])
n_val, n_test = 10, 10
val_e, test_e = edges[:, perm[:n_val]], edges[:, perm[n_val:n_val + n_test]]
train_e = edges[:, perm[n_val + n_test:]]
print("edges", edges.shape[1], "train", train_e.shape[1])
both = torch.cat([train_e, train_e.flip(0)], 1)
loops = torch.arange(n).repeat(2, 1)
idx = torch.cat([both, loops], 1)
deg = torch.bincount(idx[0], minlength=n).float()
vals = deg[idx[0]].rsqrt() * deg[idx[1]].rsqrt()
A_hat = torch.sparse_coo_tensor(idx, vals, (n, n)).coalesce()
print("A_hat nnz", A_hat._nnz(), "row sums", torch.sparse.sum(A_hat, 1).to_dense()[:4])
X = torch.eye(n)
pos_keys = edges[0] * n + edges[1]


def negative_sample(m, gen):
    out = []
    while sum(len(o) for o in out) < m:
        s = torch.randint(0, n, (2 * m,), generator=gen)
        d = torch.randint(0, n, (2 * m,), generator=gen)
        lo, hi = torch.minimum(s, d), torch.maximum(s, d)
        keep = (lo != hi) & ~torch.isin(lo * n + hi, pos_keys)
        out.append(torch.stack([lo[keep], hi[keep]], 1))
    return torch.cat(out)[:m].T


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Linear(n, 32), nn.Linear(32, 16)

    def forward(self, X):
        h = F.relu(torch.sparse.mm(A_hat, self.l1(X)))
        h = F.dropout(h, 0.2, self.training)
        return torch.sparse.mm(A_hat, self.l2(h))


def score(z, e):
    return (z[e[0]] * z[e[1]]).sum(1)


def auc_ap(pos, neg):
    scores = torch.cat([pos, neg])
    labels = torch.cat([torch.ones(len(pos)), torch.zeros(len(neg))])
    order = scores.argsort(descending=True)
    l = labels[order]
    tp = l.cumsum(0)
    precision = tp / torch.arange(1, len(l) + 1)
    ap = (precision * l).sum() / l.sum()
    ranks = torch.empty(len(scores))
    ranks[scores.argsort()] = torch.arange(1, len(scores) + 1, dtype=torch.float32)
    auc = (ranks[:len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))
    return auc.item(), ap.item()


model = GCN()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
gen = torch.Generator().manual_seed(3)
val_neg = negative_sample(n_val, gen)
for epoch in range(60):
    model.train()
    z = model(X)
    neg = negative_sample(train_e.shape[1], gen)
    pos_s, neg_s = score(z, train_e), score(z, neg)
    loss = F.binary_cross_entropy_with_logits(torch.cat([pos_s, neg_s]),
                                              torch.cat([torch.ones_like(pos_s),
                                                         torch.zeros_like(neg_s)]))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 15 == 14:
        model.eval()
        with torch.no_grad():
            z = model(X)
            auc, ap = auc_ap(score(z, val_e), score(z, val_neg))
        print(f"epoch {epoch + 1} loss {loss.item():.5f} val auc {auc:.4f} ap {ap:.4f}")
with torch.no_grad():
    z = model(X)
    print("test", auc_ap(score(z, test_e), score(z, negative_sample(n_test, gen))))
    probs = torch.sigmoid(z @ z.T)
    top = probs.masked_fill(torch.eye(n, dtype=torch.bool), 0).topk(3, dim=1).indices
    print(top[:4], comm[top[:4]], comm[:4])
print(torch.isin(torch.tensor([1, 5, 9]), torch.tensor([5, 9, 11]), invert=True))
