# Models: word2vec skip-gram with negative sampling (the "word2vec in PyTorch" notebooks):
# context windows, a unigram^0.75 noise distribution sampled with torch.multinomial, two
# embedding tables, logsigmoid loss, SparseAdam-free Adam training and cosine nearest neighbours.
import collections

import torch
import torch.nn as nn
import torch.nn.functional as F

corpus = ("the king rules the kingdom . the queen rules the kingdom . "
          "a man walks the dog . a woman walks the dog . "
          "the king and the queen walk . the man and the woman rule .").split()
counts = collections.Counter(corpus)
vocab = sorted(counts)
w2i = {w: i for i, w in enumerate(vocab)}
ids = torch.tensor([w2i[w] for w in corpus])
print(len(vocab), ids.numel())

window = 2
pairs = []
for i in range(len(corpus)):
    for j in range(max(0, i - window), min(len(corpus), i + window + 1)):
        if i != j:
            pairs.append((ids[i].item(), ids[j].item()))
pairs = torch.tensor(pairs)
print(pairs.shape, pairs[:4].tolist())

freq = torch.tensor([counts[w] for w in vocab], dtype=torch.float)
noise = freq.pow(0.75)
noise /= noise.sum()
print(noise.max().item(), noise.argmax().item())


class SkipGram(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.center = nn.Embedding(n, d)
        self.context = nn.Embedding(n, d)
        bound = 0.5 / d
        nn.init.uniform_(self.center.weight, -bound, bound)
        nn.init.zeros_(self.context.weight)

    def forward(self, c, o, neg):
        vc = self.center(c)
        pos = (vc * self.context(o)).sum(-1)
        negs = torch.bmm(self.context(neg), vc.unsqueeze(2)).squeeze(2)
        return -(F.logsigmoid(pos) + F.logsigmoid(-negs).sum(1)).mean()


torch.manual_seed(1)
model = SkipGram(len(vocab), 16)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
K, B = 5, 32
for epoch in range(15):
    perm = torch.randperm(len(pairs))
    total = 0.0
    for k in range(0, len(pairs), B):
        batch = pairs[perm[k:k + B]]
        neg = torch.multinomial(noise, batch.shape[0] * K, replacement=True).view(-1, K)
        loss = model(batch[:, 0], batch[:, 1], neg)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * batch.shape[0]
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} loss {total / len(pairs):.4f}")

emb = F.normalize(model.center.weight.detach(), dim=1)
sims = emb @ emb.T
for word in ["king", "man", "dog"]:
    s = sims[w2i[word]].clone()
    s[w2i[word]] = -1
    top = s.topk(3)
    print(word, [vocab[i] for i in top.indices.tolist()], top.values)
print(F.cosine_similarity(emb[w2i["king"]], emb[w2i["queen"]], dim=0))
