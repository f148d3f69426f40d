# Models: GloVe-from-scratch tutorials: a co-occurrence matrix built with a sliding window and
# 1/distance weighting (index_put_ with accumulate), the weighted least-squares objective with
# f(x) = (x/x_max)^alpha, Adagrad as in the paper, word vectors as W + W_tilde, and nearest
# neighbours by cosine similarity with topk.
import torch

torch.manual_seed(0)
corpus = ("the king rules the kingdom . the queen rules the kingdom . "
          "a man walks the dog . a woman walks the dog . the king and the queen are royal . "
          "the man and the woman are people . the dog barks at the man .").split()
vocab = sorted(set(corpus))
stoi = {w: i for i, w in enumerate(vocab)}
ids = torch.tensor([stoi[w] for w in corpus])
V, WINDOW = len(vocab), 3
print("vocab", V, "tokens", len(ids))

X = torch.zeros(V, V)
for d in range(1, WINDOW + 1):
    left, right = ids[:-d], ids[d:]
    w = torch.full((len(left),), 1.0 / d)
    X.index_put_((left, right), w, accumulate=True)
    X.index_put_((right, left), w, accumulate=True)
print("nonzero pairs:", int((X > 0).sum()), "max count:", X.max().item())
print("row 'the' (first 8):", X[stoi["the"], :8])

rows, cols = X.nonzero(as_tuple=True)
counts = X[rows, cols]
X_MAX, ALPHA, DIM = 10.0, 0.75, 10
weight = (counts / X_MAX).pow(ALPHA).clamp(max=1.0)
log_counts = counts.log()

W = (torch.rand(V, DIM) - 0.5) / DIM
Wt = (torch.rand(V, DIM) - 0.5) / DIM
b = torch.zeros(V)
bt = torch.zeros(V)
params = [p.requires_grad_() for p in (W, Wt, b, bt)]
opt = torch.optim.Adagrad(params, lr=0.1)
for epoch in range(60):
    perm = torch.randperm(len(rows))
    total = 0.0
    for idx in perm.split(32):
        i, j = rows[idx], cols[idx]
        pred = (W[i] * Wt[j]).sum(1) + b[i] + bt[j]
        loss = 0.5 * (weight[idx] * (pred - log_counts[idx]) ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 15 == 14:
        print(f"epoch {epoch + 1} loss {total:.4f}")

with torch.no_grad():
    emb = W + Wt
    unit = emb / emb.norm(dim=1, keepdim=True)
    sim = unit @ unit.T
    for word in ["king", "man", "dog"]:
        vals, idx = sim[stoi[word]].topk(4)
        pairs = [(vocab[k], round(v, 3)) for v, k in zip(vals.tolist(), idx.tolist())]
        print(word, "->", pairs[1:])
    analogy = unit[stoi["king"]] - unit[stoi["man"]] + unit[stoi["woman"]]
    scores = unit @ analogy
    print("king - man + woman:", vocab[int(scores.argmax())], "scores:", scores.topk(3).values)
    print("bias range:", b.min().item(), b.max().item())
