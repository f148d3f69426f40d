# Models: Hierarchical Attention Networks for document classification (Yang et al.): a
# word-level bidirectional GRU over each sentence with additive attention against a learned
# word context vector, a sentence-level bidirectional GRU with sentence attention, padded
# documents handled with masks (masked_fill before softmax), and the attention weights
# printed for inspection on a synthetic sentiment task where one keyword sentence decides.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, PAD, POS, NEG = 30, 0, 28, 29


def documents(n, g, max_sents=5, max_words=6):
    docs = torch.zeros(n, max_sents, max_words, dtype=torch.long)
    y = torch.randint(0, 2, (n,), generator=g)
    n_sents = torch.randint(2, max_sents + 1, (n,), generator=g)
    for i in range(n):
        for s in range(n_sents[i]):
            L = int(torch.randint(3, max_words + 1, (1,), generator=g))
            docs[i, s, :L] = torch.randint(1, 28, (L,), generator=g)
        s = int(torch.randint(0, int(n_sents[i]), (1,), generator=g))
        w = int(torch.randint(0, 3, (1,), generator=g))
        docs[i, s, w] = POS if y[i] == 1 else NEG
    return docs, y


class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.context = nn.Parameter(torch.randn(d) * 0.1)

    def forward(self, h, mask):
        u = torch.tanh(self.proj(h))
        scores = (u @ self.context).masked_fill(~mask, float("-inf"))
        a = torch.softmax(scores, -1)
        a = torch.nan_to_num(a)                 # fully padded rows (empty sentences)
        return (a.unsqueeze(-1) * h).sum(-2), a


class HAN(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d, padding_idx=PAD)
        self.word_rnn = nn.GRU(d, d, batch_first=True, bidirectional=True)
        self.word_att = Attention(2 * d)
        self.sent_rnn = nn.GRU(2 * d, d, batch_first=True, bidirectional=True)
        self.sent_att = Attention(2 * d)
        self.out = nn.Linear(2 * d, 2)

    def forward(self, docs):
        b, s, w = docs.shape
        words = docs.view(b * s, w)
        hw, _ = self.word_rnn(self.emb(words))
        sent_vec, wa = self.word_att(hw, words != PAD)
        hs, _ = self.sent_rnn(sent_vec.view(b, s, -1))
        sent_mask = (docs != PAD).any(-1)
        doc_vec, sa = self.sent_att(hs, sent_mask)
        return self.out(doc_vec), wa.view(b, s, w), sa


g = torch.Generator().manual_seed(2)
model = HAN()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
val_x, val_y = documents(64, g)
for epoch in range(6):
    for _ in range(5):
        xb, yb = documents(32, g)
        logits, _, _ = model(xb)
        loss = F.cross_entropy(logits, yb)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
    with torch.no_grad():
        acc = (model(val_x)[0].argmax(1) == val_y).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.5f} val acc {acc:.4f}")
with torch.no_grad():
    logits, wa, sa = model(val_x[:2])
print("document 0:\n", val_x[0])
print("sentence attention:", sa[0])
key_sent = int(((val_x[0] == POS) | (val_x[0] == NEG)).any(-1).nonzero()[0])
print("key sentence", key_sent, "word attention:", wa[0, key_sent])
print("probabilities:", logits.softmax(-1))
