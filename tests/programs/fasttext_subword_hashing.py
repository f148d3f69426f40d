# Models: fastText-style text classification and subword embeddings: character n-grams hashed
# into buckets (FNV-1a in pure Python), nn.EmbeddingBag with offsets and per_sample_weights in
# "sum" and "mean" modes, bigram features, a linear classifier with hierarchical-free softmax,
# and nearest-neighbour queries by cosine similarity.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(11)
BUCKETS = 2000


def fnv1a(s):
    h = 2166136261
    for c in s.encode("utf-8"):
        h ^= c
        h = (h * 16777619) & 0xFFFFFFFF
    return h


def subwords(word, minn=3, maxn=5):
    w = f"<{word}>"
    grams = [w]
    for n in range(minn, maxn + 1):
        grams += [w[i:i + n] for i in range(len(w) - n + 1)]
    return [fnv1a(g) % BUCKETS for g in grams]


print(subwords("where")[:8], len(subwords("where")))
corpus = [
    ("the movie was great and fun", 1), ("terrible plot and awful acting", 0),
    ("great acting and wonderful story", 1), ("boring movie with awful dialogue", 0),
    ("fun wonderful great film", 1), ("the story was boring and terrible", 0),
    ("an awful awful film", 0), ("a great great movie", 1),
]


def encode(sentence):
    ids, weights = [], []
    toks = sentence.split()
    for t in toks:
        sw = subwords(t)
        ids += sw
        weights += [1.0 / len(sw)] * len(sw)
    for a, b in zip(toks, toks[1:]):
        ids.append(fnv1a(a + " " + b) % BUCKETS)
        weights.append(1.0)
    return ids, weights


def batchify(items):
    flat, offsets, weights = [], [], []
    for ids, w in items:
        offsets.append(len(flat))
        flat += ids
        weights += w
    return torch.tensor(flat), torch.tensor(offsets), torch.tensor(weights)


class FastText(nn.Module):
    def __init__(self, dim, num_classes, mode):
        super().__init__()
        self.emb = nn.EmbeddingBag(BUCKETS, dim, mode=mode)
        self.fc = nn.Linear(dim, num_classes)
        nn.init.uniform_(self.emb.weight, -1.0 / dim, 1.0 / dim)
        nn.init.zeros_(self.fc.weight)

    def forward(self, text, offsets, weights=None):
        return self.fc(self.emb(text, offsets, per_sample_weights=weights))


enc = [encode(s) for s, _ in corpus]
labels = torch.tensor([y for _, y in corpus])
text, offsets, weights = batchify(enc)
print(text.shape, offsets.tolist())
for mode in ("sum", "mean"):
    torch.manual_seed(0)
    model = FastText(16, 2, mode)
    print(model.emb)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for epoch in range(40):
        opt.zero_grad()
        out = model(text, offsets, weights if mode == "sum" else None)
        loss = F.cross_entropy(out, labels)
        loss.backward()
        opt.step()
        if epoch % 10 == 0:
            print(f"{mode} epoch {epoch}: loss {loss.item():.6f}")
    with torch.no_grad():
        t2, o2, w2 = batchify([encode("wonderful fun story"), encode("awful boring plot")])
        probs = F.softmax(model(t2, o2, w2 if mode == "sum" else None), dim=1)
        print(mode, "predictions:", probs)

vocab = sorted({w for s, _ in corpus for w in s.split()} | {"greatest", "awfully", "films"})
with torch.no_grad():
    vecs = torch.stack([model.emb.weight[subwords(w)].mean(0) for w in vocab])
    vecs = F.normalize(vecs, dim=1)
    for q in ("greatest", "awfully", "films"):
        sims = vecs @ vecs[vocab.index(q)]
        top = sims.topk(4).indices.tolist()
        print(q, "->", [vocab[i] for i in top[1:]])
    # same lookup through functional embedding_bag with max mode and padding_idx
    bag = F.embedding_bag(torch.tensor([1, 2, 0, 3, 0]), model.emb.weight[:4],
                          torch.tensor([0, 3]), mode="max", padding_idx=0)
    print(bag.shape, torch.allclose(bag[0], model.emb.weight[1:3].max(0).values))
