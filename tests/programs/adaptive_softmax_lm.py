# Models: a word-level language model with a Zipfian vocabulary trained with
# nn.AdaptiveLogSoftmaxWithLoss (the "efficient softmax for large vocabularies" recipe):
# cutoffs and head/tail clusters, output/loss, log_prob over the full vocabulary, predict,
# compared with a full softmax's cross entropy on the same LSTM features.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vocab, emb, hidden = 50, 16, 24
ranks = torch.arange(1, vocab + 1, dtype=torch.float)
zipf = 1.0 / ranks
corpus = torch.multinomial(zipf / zipf.sum(), 2000, replacement=True)
print("corpus head", corpus[:12].tolist(), "unique", corpus.unique().numel())
print("counts of top words", torch.bincount(corpus, minlength=vocab)[:8].tolist())

seq_len, batch = 10, 8
n_chunks = (len(corpus) - 1) // seq_len
inputs = corpus[: n_chunks * seq_len].view(n_chunks, seq_len)
targets = corpus[1 : n_chunks * seq_len + 1].view(n_chunks, seq_len)


class LM(nn.Module):
    def __init__(self, adaptive):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)
        if adaptive:
            self.out = nn.AdaptiveLogSoftmaxWithLoss(hidden, vocab, cutoffs=[5, 20], div_value=2.0)
        else:
            self.out = nn.Linear(hidden, vocab)

    def features(self, x):
        h, _ = self.rnn(self.embed(x))
        return h.reshape(-1, hidden)


torch.manual_seed(1)
model = LM(adaptive=True)
asm = model.out
print(asm)
print("shortlist", asm.shortlist_size, "clusters", asm.n_clusters, "head size", asm.head_size)
print([tuple(p.shape) for p in asm.parameters()])
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    total = 0.0
    for i in range(0, n_chunks, batch):
        x, y = inputs[i : i + batch], targets[i : i + batch]
        opt.zero_grad()
        res = asm(model.features(x), y.reshape(-1))
        res.loss.backward()
        opt.step()
        total += res.loss.item() * x.numel()
    print(f"adaptive epoch {epoch} nll {total / inputs.numel():.4f}")

with torch.no_grad():
    feats = model.features(inputs[:2])
    res = asm(feats, targets[:2].reshape(-1))
    print("output", tuple(res.output.shape), f"{res.output[:4]}")
    lp = asm.log_prob(feats)
    print(
        "log_prob", tuple(lp.shape), "sums to one", torch.allclose(lp.exp().sum(1), torch.ones(20))
    )
    gathered = lp.gather(1, targets[:2].reshape(-1, 1)).squeeze(1)
    print("output matches log_prob", torch.allclose(gathered, res.output, atol=1e-5))
    pred = asm.predict(feats)
    print("predict", pred[:10].tolist(), torch.equal(pred, lp.argmax(1)))

torch.manual_seed(1)
full = LM(adaptive=False)
opt = torch.optim.Adam(full.parameters(), lr=0.01)
for epoch in range(3):
    total = 0.0
    for i in range(0, n_chunks, batch):
        x, y = inputs[i : i + batch], targets[i : i + batch]
        opt.zero_grad()
        loss = F.cross_entropy(full.out(full.features(x)), y.reshape(-1))
        loss.backward()
        opt.step()
        total += loss.item() * x.numel()
    print(f"full softmax epoch {epoch} nll {total / inputs.numel():.4f}")
n_adaptive = sum(p.numel() for p in asm.parameters())
n_full = sum(p.numel() for p in full.out.parameters())
print("output params adaptive", n_adaptive, "full", n_full)

try:
    asm(torch.randn(3, hidden), torch.tensor([1, 2, vocab]))
except RuntimeError as e:
    print("RuntimeError:", e)
