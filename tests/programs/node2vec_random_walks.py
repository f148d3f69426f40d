# Models: DeepWalk / node2vec in plain PyTorch (as in graph-learning course notebooks): a small
# two-community graph as an adjacency matrix, first-order and second-order (p, q biased) random
# walks drawn with torch.multinomial, skip-gram training pairs from a sliding window,
# negative sampling from the degree^0.75 distribution, SGNS training with an Embedding pair,
# and community recovery from the learned embeddings.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n_per = 10
N = 2 * n_per
A = torch.zeros(N, N)
blocks = torch.arange(N) // n_per
p_in, p_out = 0.5, 0.05
probs = torch.where(blocks[:, None] == blocks[None, :], p_in, p_out)
upper = torch.triu(torch.bernoulli(probs), diagonal=1)
A = upper + upper.T
A[0, 1] = A[1, 0] = 1.0
deg = A.sum(1)
print("edges:", int(A.sum().item() // 2), "degrees:", deg.long().tolist())
print("isolated nodes:", (deg == 0).sum().item())


def deepwalk(start, length, gen):
    walk = [start]
    for _ in range(length - 1):
        nbrs = A[walk[-1]]
        if nbrs.sum() == 0:
            break
        walk.append(torch.multinomial(nbrs, 1, generator=gen).item())
    return walk


def node2vec_walk(start, length, p, q, gen):
    walk = [start]
    for _ in range(length - 1):
        cur = walk[-1]
        w = A[cur].clone()
        if w.sum() == 0:
            break
        if len(walk) > 1:
            prev = walk[-2]
            back = torch.zeros(N)
            back[prev] = 1.0
            shared = A[prev] > 0
            bias = torch.where(
                back > 0,
                torch.tensor(1.0 / p),
                torch.where(shared, torch.tensor(1.0), torch.tensor(1.0 / q)),
            )
            w = w * bias
        walk.append(torch.multinomial(w, 1, generator=gen).item())
    return walk


gen = torch.Generator().manual_seed(7)
print("deepwalk from 0:", deepwalk(0, 8, gen))
print("node2vec (p=4, q=0.25) from 0:", node2vec_walk(0, 8, 4.0, 0.25, gen))
walks = [node2vec_walk(s, 10, 1.0, 0.5, gen) for _ in range(5) for s in range(N)]
print("walks:", len(walks), "mean length:", sum(map(len, walks)) / len(walks))
crossings = sum(int(blocks[a] != blocks[b]) for w in walks for a, b in zip(w, w[1:]))
print("community crossings:", crossings)

window = 2
pairs = torch.tensor(
    [
        (w[i], w[j])
        for w in walks
        for i in range(len(w))
        for j in range(max(0, i - window), min(len(w), i + window + 1))
        if i != j
    ]
)
print("skip-gram pairs:", tuple(pairs.shape), pairs[:4].tolist())
noise = deg.pow(0.75)
noise = noise / noise.sum()
print("noise distribution:", noise[:5])


class SGNS(nn.Module):
    def __init__(self, n, dim=8):
        super().__init__()
        self.inp = nn.Embedding(n, dim)
        self.out = nn.Embedding(n, dim)
        nn.init.uniform_(self.inp.weight, -0.5 / dim, 0.5 / dim)
        nn.init.zeros_(self.out.weight)

    def forward(self, center, context, negatives):
        v = self.inp(center)
        pos = F.logsigmoid((v * self.out(context)).sum(-1))
        neg = F.logsigmoid(-(self.out(negatives) @ v.unsqueeze(-1)).squeeze(-1)).sum(-1)
        return -(pos + neg).mean()


model = SGNS(N)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(5):
    perm = torch.randperm(len(pairs))
    total = 0.0
    for i in range(0, len(pairs), 256):
        batch = pairs[perm[i : i + 256]]
        negs = torch.multinomial(noise, len(batch) * 4, replacement=True).view(-1, 4)
        loss = model(batch[:, 0], batch[:, 1], negs)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(batch)
    print(f"epoch {epoch} loss {total / len(pairs):.4f}")

with torch.no_grad():
    emb = F.normalize(model.inp.weight, dim=1)
    sim = emb @ emb.T
    same = blocks[:, None] == blocks[None, :]
    off = ~torch.eye(N, dtype=torch.bool)
    print("mean cosine within / across:", sim[same & off].mean(), sim[~same].mean())
    centers = torch.stack([emb[0], emb[-1]])
    assign = (emb @ centers.T).argmax(1)
    print("recovered communities:", assign.tolist())
    print("agreement:", max((assign == blocks).float().mean(), (assign != blocks).float().mean()))
print("multinomial without replacement:", torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 3))
print(
    "random_ / exponential_ / geometric_:",
    torch.empty(4).random_(0, 10, generator=gen),
    torch.empty(3).exponential_(2.0),
    torch.empty(3).geometric_(0.3),
)
