# Models: Poincare embeddings (Nickel & Kiela 2017, the facebookresearch/poincare-embeddings
# recipe) of a small tree: the hyperbolic distance arcosh(1 + 2|u-v|^2 / ((1-|u|^2)(1-|v|^2))),
# a softmax loss over sampled negatives, Riemannian SGD (the Euclidean gradient rescaled by
# ((1 - |x|^2)^2) / 4) with projection back into the unit ball, and the mean rank / MAP of
# the reconstructed edges.
import torch


def build_tree(branching=3, depth=2):
    edges, nodes, frontier = [], [0], [0]
    for _ in range(depth):
        nxt = []
        for parent in frontier:
            for _ in range(branching):
                child = len(nodes)
                nodes.append(child)
                edges.append((child, parent))
                nxt.append(child)
        frontier = nxt
    return len(nodes), torch.tensor(edges)


def transitive_closure(n, edges):
    parent = {int(c): int(p) for c, p in edges}
    pairs = []
    for c in range(n):
        a = c
        while a in parent:
            a = parent[a]
            pairs.append((c, a))
    return torch.tensor(pairs)


def poincare_dist(u, v, eps=1e-5):
    sq = ((u - v) ** 2).sum(-1)
    nu = torch.clamp(1 - (u ** 2).sum(-1), eps, 1)
    nv = torch.clamp(1 - (v ** 2).sum(-1), eps, 1)
    return torch.acosh(1 + 2 * sq / (nu * nv))


torch.manual_seed(0)
n, edges = build_tree()
pairs = transitive_closure(n, edges)
print("nodes", n, "edges", len(edges), "closure pairs", len(pairs))
adj = torch.zeros(n, n, dtype=torch.bool)
adj[pairs[:, 0], pairs[:, 1]] = True
adj[pairs[:, 1], pairs[:, 0]] = True

emb = torch.nn.Embedding(n, 2)
with torch.no_grad():
    emb.weight.uniform_(-1e-3, 1e-3)
lr, n_neg, burn_in = 0.3, 5, 10
for epoch in range(60):
    perm = torch.randperm(len(pairs))
    total = 0.0
    cur_lr = lr / 10 if epoch < burn_in else lr
    for i in range(0, len(pairs), 8):
        batch = pairs[perm[i:i + 8]]
        negs = torch.randint(0, n, (len(batch), n_neg))
        cand = torch.cat([batch[:, 1:], negs], 1)
        u = emb(batch[:, :1])
        v = emb(cand)
        d = poincare_dist(u, v)
        mask = torch.cat([torch.zeros(len(batch), 1, dtype=torch.bool),
                          adj[batch[:, :1], negs] | (negs == batch[:, :1])], 1)
        logits = (-d).masked_fill(mask, float("-inf"))
        loss = torch.nn.functional.cross_entropy(logits, torch.zeros(len(batch), dtype=torch.long))
        emb.zero_grad()
        loss.backward()
        with torch.no_grad():
            w = emb.weight
            scale = ((1 - w.pow(2).sum(-1, keepdim=True)) ** 2) / 4
            w.sub_(cur_lr * scale * w.grad)
            norm = w.norm(dim=-1, keepdim=True)
            w.copy_(torch.where(norm >= 1, w / norm * (1 - 1e-5), w))
        total += loss.item() * len(batch)
    if epoch % 12 == 0 or epoch == 59:
        print(f"epoch {epoch:2d} lr {cur_lr:.3f} loss {total / len(pairs):.6f}")

with torch.no_grad():
    W = emb.weight
    D = poincare_dist(W.unsqueeze(1), W.unsqueeze(0))
    ranks, aps = [], []
    for c, p in pairs.tolist():
        d = D[c].clone()
        d[c] = float("inf")
        others = adj[c].clone()
        others[p] = False
        d[others] = float("inf")
        ranks.append(int((d < d[p]).sum()) + 1)
    norms = W.norm(dim=1)
    print("mean rank", sum(ranks) / len(ranks), "max rank", max(ranks))
    print("root norm", norms[0].item(), "level-1 norms", norms[1:4])
    print("leaf norm mean", norms[4:].mean().item())
    print("distance root-child", D[0, 1].item(), "child-grandchild", D[1, 4].item())
