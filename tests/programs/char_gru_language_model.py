# Models: a char-level GRU language model (the "char-rnn" recipe): build a vocabulary from a
# tiny corpus, batch with truncated BPTT and a hidden state carried across batches (detached),
# train with Adam and clip_grad_norm_, print loss/perplexity, then sample greedily and with
# temperature from torch.multinomial.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
text = "hello world. the quick brown fox jumps over the lazy dog. hello fox. " * 3
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
print("vocab", len(chars), "tokens", data.numel())


def batchify(d, bsz):
    n = d.size(0) // bsz
    return d[: n * bsz].view(bsz, n).t().contiguous()


train = batchify(data, 4)
print("batched", train.shape)


class CharGRU(nn.Module):
    def __init__(self, vocab, emb=16, hidden=32, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, layers, dropout=0.1)
        self.head = nn.Linear(hidden, vocab)
        self.layers, self.hidden = layers, hidden

    def forward(self, x, h):
        out, h = self.rnn(self.emb(x), h)
        return self.head(out), h

    def init_hidden(self, bsz):
        return torch.zeros(self.layers, bsz, self.hidden)


model = CharGRU(len(chars))
print(sum(p.numel() for p in model.parameters()), "parameters")
opt = torch.optim.Adam(model.parameters(), lr=0.01)
bptt = 12
for epoch in range(4):
    model.train()
    h = model.init_hidden(4)
    total, count = 0.0, 0
    for i in range(0, train.size(0) - 1, bptt):
        seq_len = min(bptt, train.size(0) - 1 - i)
        x, y = train[i : i + seq_len], train[i + 1 : i + 1 + seq_len]
        h = h.detach()
        logits, h = model(x, h)
        loss = F.cross_entropy(logits.view(-1, len(chars)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        total += loss.item() * seq_len
        count += seq_len
    avg = total / count
    print(f"epoch {epoch} loss {avg:.4f} ppl {math.exp(avg):.3f} last grad norm {norm.item():.4f}")

model.eval()
with torch.no_grad():
    h = model.init_hidden(1)
    idx = torch.tensor([[stoi["h"]]])
    out = "h"
    for _ in range(30):
        logits, h = model(idx, h)
        idx = logits[-1].argmax(-1, keepdim=True)
        out += itos[idx.item()]
    print("greedy:", repr(out))
    torch.manual_seed(3)
    h = model.init_hidden(1)
    idx = torch.tensor([[stoi["t"]]])
    out = "t"
    for _ in range(30):
        logits, h = model(idx, h)
        probs = F.softmax(logits[-1, 0] / 0.8, dim=-1)
        nxt = torch.multinomial(probs, 1)
        out += itos[nxt.item()]
        idx = nxt.view(1, 1)
    print("sampled:", repr(out))
