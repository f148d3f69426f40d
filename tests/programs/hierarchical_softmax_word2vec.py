# Models: word2vec with hierarchical softmax (Mikolov et al.) as its from-scratch PyTorch
# versions build it: a Huffman tree over word counts built with heapq, each word's path of inner
# nodes and binary codes padded into tensors, the loss as a sum of log-sigmoids along the path
# (gathered with index tensors and masked), CBOW context averaging, and nearest neighbours.
import heapq
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(50)
text = ("the king rules the land the queen rules the land a king and a queen walk "
        "the dog chases the cat a cat and a dog play the king loves the queen").split()
counts = Counter(text)
words = sorted(counts, key=lambda w: (-counts[w], w))
stoi = {w: i for i, w in enumerate(words)}
V = len(words)
print(V, counts.most_common(4))
heap = [(counts[w], i, None, None) for w, i in stoi.items()]
heapq.heapify(heap)
next_id = V
parents = {}
while len(heap) > 1:
    c1, i1, *_ = heapq.heappop(heap)
    c2, i2, *_ = heapq.heappop(heap)
    parents[i1] = (next_id, 0)
    parents[i2] = (next_id, 1)
    heapq.heappush(heap, (c1 + c2, next_id, i1, i2))
    next_id += 1
root = heap[0][1]
paths, codes = [], []
for w in range(V):
    node, p, c = w, [], []
    while node != root:
        par, bit = parents[node]
        p.append(par - V)
        c.append(bit)
        node = par
    paths.append(p[::-1])
    codes.append(c[::-1])
L = max(len(p) for p in paths)
path_t = torch.tensor([p + [0] * (L - len(p)) for p in paths])
code_t = torch.tensor([c + [0] * (L - len(c)) for c in codes], dtype=torch.float32)
mask_t = torch.tensor([[1.0] * len(p) + [0.0] * (L - len(p)) for p in paths])
print("inner nodes", V - 1, "max depth", L)
for w in ("the", "king", "play"):
    print(w, paths[stoi[w]], codes[stoi[w]])


class HSCBOW(nn.Module):
    def __init__(self, d=10):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.inner = nn.Embedding(V - 1, d)
        nn.init.zeros_(self.inner.weight)

    def forward(self, ctx, target):
        h = self.emb(ctx).mean(1)
        nodes = self.inner(path_t[target])
        scores = torch.einsum("bd,bld->bl", h, nodes)
        sign = 1 - 2 * code_t[target]
        return -(F.logsigmoid(sign * scores) * mask_t[target]).sum(1).mean()

    def prob(self, ctx):
        h = self.emb(ctx).mean(1)
        scores = torch.einsum("bd,vld->bvl", h, self.inner(path_t))
        logp = (F.logsigmoid((1 - 2 * code_t)[None] * scores) * mask_t[None]).sum(2)
        return logp.exp()


ids = torch.tensor([stoi[w] for w in text])
win = 2
ctx = torch.stack([torch.cat([ids[i - win:i], ids[i + 1:i + 1 + win]])
                   for i in range(win, len(ids) - win)])
tgt = ids[win:len(ids) - win]
print(ctx.shape, tgt.shape)
model = HSCBOW()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(30):
    perm = torch.randperm(len(tgt))
    total = 0.0
    for b in perm.split(8):
        loss = model(ctx[b], tgt[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(b)
    if epoch % 6 == 5:
        print(f"epoch {epoch + 1} loss {total / len(tgt):.5f}")
with torch.no_grad():
    p = model.prob(ctx[:3])
    print(p.sum(1), p.argmax(1), tgt[:3])
    E = F.normalize(model.emb.weight, dim=1)
    sims = E @ E.T
    for w in ("king", "cat"):
        nn_ids = sims[stoi[w]].topk(3).indices.tolist()
        print(w, [words[i] for i in nn_ids])
