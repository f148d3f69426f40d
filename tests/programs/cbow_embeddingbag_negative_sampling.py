# Models: word2vec's CBOW variant from a tutorial: context windows built from a tiny corpus,
# nn.EmbeddingBag(mode="mean") for the context average, negative samples drawn from the
# unigram^0.75 distribution with torch.multinomial, logsigmoid loss, and nearest words after
# training.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
corpus = ("the cat sat on the mat the dog sat on the rug the cat ate the fish "
          "the dog ate the bone").split()
vocab = sorted(set(corpus))
w2i = {w: i for i, w in enumerate(vocab)}
ids = torch.tensor([w2i[w] for w in corpus])
counts = torch.bincount(ids, minlength=len(vocab)).float()
noise = counts.pow(0.75)
noise = noise / noise.sum()
print("vocab", vocab)
print("noise dist", noise)
window = 2
contexts, centers = [], []
for t in range(window, len(ids) - window):
    contexts.append(torch.cat([ids[t - window:t], ids[t + 1:t + 1 + window]]))
    centers.append(ids[t])
contexts = torch.stack(contexts)
centers = torch.stack(centers)
print("examples", contexts.shape, centers.shape)
ctx_emb = nn.EmbeddingBag(len(vocab), 8, mode="mean")
out_emb = nn.Embedding(len(vocab), 8)
opt = torch.optim.Adam(list(ctx_emb.parameters()) + list(out_emb.parameters()), lr=0.05)
for epoch in range(30):
    h = ctx_emb(contexts)
    pos = (h * out_emb(centers)).sum(-1)
    negs = torch.multinomial(noise, contexts.shape[0] * 3, replacement=True).view(-1, 3)
    neg = torch.bmm(out_emb(negs), h.unsqueeze(-1)).squeeze(-1)
    loss = -(F.logsigmoid(pos) + F.logsigmoid(-neg).sum(-1)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {loss.item():.5f}")
W = F.normalize(out_emb.weight.detach(), dim=1)
for w in ["cat", "sat"]:
    sims = W @ W[w2i[w]]
    top = sims.topk(3).indices.tolist()
    print(w, "->", [vocab[i] for i in top])
